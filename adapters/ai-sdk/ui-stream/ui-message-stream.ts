/**
 * The drop-in of `ai`'s standalone `toUIMessageStream`: a run's parts ended cleanly when the run failed
 * ({@link endFailedRunCleanly}), converted by the AI SDK's own `toUIMessageStream`, with resets as `reset-step`
 * ({@link gracefulUIChunks}) and callbacks that receive messages as the client holds them.
 */
import { toUIMessageStream as sdkToUIMessageStream, type TextStreamPart, type ToolSet } from 'ai';
import { endFailedRunCleanly } from './failed-run-ending.js';
import { gracefulUIChunks } from './ui-chunks.js';
import { withCleanUIMessages } from './ui-message-callbacks.js';

/**
 * The AI SDK's standalone `toUIMessageStream`, same signature: the stream parts of a run (`result.stream`
 * of `streamText` or of an agent) as UI message chunks, with graceful-ai's two guarantees:
 * - a run that failed (a loud tool failure, a used-up `retries` budget, a provider error, a broken stream) ends with
 *   every open tool call closed by a `tool-output-error`, an `error` chunk, then `finish`, instead of a stream that
 *   throws (also after a failure before the first step, where the SDK's stream ends with the error); the error
 *   chunk's text is `onError`'s (default "An error occurred.");
 * - a stream guard's reset reaches the client as the SDK's `reset-step` chunk followed by what the step keeps, so
 *   `useChat` and `readUIMessageStream` hold the recovered step only; `onEnd`/`onFinish` and `onStepEnd` receive the
 *   same messages.
 */
export const toUIMessageStream: typeof sdkToUIMessageStream = (options) =>
  gracefulUIChunks(
    sdkToUIMessageStream({
      ...withCleanUIMessages(options),
      // No `onError` here: graceful-ai's own runs report a broken stream in the parts they hand out.
      stream: endFailedRunCleanly(
        options.stream as ReadableStream<TextStreamPart<ToolSet>>,
        undefined,
      ) as typeof options.stream,
    }),
    options.sendFinish,
  );
