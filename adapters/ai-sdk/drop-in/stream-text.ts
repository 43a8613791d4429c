import type { Context } from '@ai-sdk/provider-utils';
import {
  type OutputInterface,
  type StreamTextResult,
  streamText as sdkStreamText,
  toUIMessageStream as sdkToUIMessageStream,
  type TextStreamPart,
  type ToolSet,
} from 'ai';
import { removeDiscarded } from '../../../src/stream/reset-part.js';
import { singleUseIterable } from '../../../src/stream/single-use-request.js';
import { iterableStream } from '../../../src/util/iterable-stream.js';
import { applyRecoveredPartMetadata } from '../stream-guard/recovery/recovered-metadata.js';
import { endFailedRunCleanly } from '../ui-stream/failed-run-ending.js';
import { type OnRunError, runErrorReport } from '../ui-stream/run-error-report.js';
import { gracefulUIChunks } from '../ui-stream/ui-chunks.js';
import { withCleanUIMessages } from '../ui-stream/ui-message-callbacks.js';
import { type GracefulCallOptions, guardCallOptions } from './guard-call-options.js';

/** The drop-in `streamText`'s options: the AI SDK's own, plus {@link GracefulCallOptions}. */
export type GracefulStreamTextOptions<
  TOOLS extends ToolSet = ToolSet,
  RUNTIME_CONTEXT extends Context = Context,
  OUTPUT extends OutputInterface = OutputInterface<string, string, never>,
> = Parameters<typeof sdkStreamText<TOOLS, RUNTIME_CONTEXT, OUTPUT>>[0] & GracefulCallOptions;

/** The result's UI stream methods that build on its `toUIMessageStream`: `toUIMessageStreamResponse`, `pipeUI…`. */
const uiResponseMethod = /UIMessageStream/;

/**
 * The result fields that would present a partial answer as the answer. After a failure the guard could not recover
 * they reject with it (the SDK resolves them with the partial answer, or rejects with a `NoOutputGeneratedError` that
 * does not say why); `finishReason`, `usage` and the metadata fields still resolve.
 */
const answerFields = new Set<PropertyKey>([
  'text',
  'content',
  'reasoning',
  'reasoningText',
  'files',
  'sources',
  'toolCalls',
  'staticToolCalls',
  'dynamicToolCalls',
  'toolResults',
  'staticToolResults',
  'dynamicToolResults',
  'steps',
  'finalStep',
  'response',
  'responseMessages',
  'output',
]);

/** `value` once the run has ended, or the failure that ended it mid-answer. */
function rejectAfterFailure(
  value: PromiseLike<unknown>,
  failure: () => { error: unknown } | undefined,
): PromiseLike<unknown> {
  return Promise.resolve(value).finally(() => {
    const failed = failure();
    if (failed) throw failed.error;
  });
}

/**
 * The AI SDK's `streamText` with the stream guard: same options, same result type — change only the import.
 *
 * - Retries: the guard is the single retry authority. Your `maxRetries` (default 2) becomes the guard's
 *   `maxRetries` (new streamed requests before any content, with backoff and retry-after); the SDK runs with
 *   `maxRetries: 0` and `streamRetries` off (the guard owns mid-stream recovery: one non-streaming request).
 * - `timeout.chunkMs` becomes the guard's stall timeout (the SDK's would abort the whole call, unrecoverably);
 *   `totalMs`, `stepMs` and `firstChunkMs` stay with the SDK.
 * - After a reset (the recovered answer differs from what was streamed), `onStepEnd` removes the discarded text
 *   from `step.content` and `step.response.messages` before your own `onStepEnd` runs, so `text`, `steps` and
 *   `response.messages` hold only the complete answer; the next step's request (and a prompt built from stored
 *   chat messages) holds none of it either; and the callbacks of `toUIMessageStream`,
 *   `toUIMessageStreamResponse` and `pipeUIMessageStreamToResponse` (`onEnd`/`onFinish`, `onStepEnd`) receive
 *   `responseMessage` and `messages` without it. Those UI streams send the reset as the SDK's `reset-step` chunk
 *   (`useChat` then holds the recovered step only); `stream`/`fullStream` carry the reset part (a client of them
 *   hides what it already showed with `withoutDiscarded` from `graceful-ai/ui`). A block the consumer saw in
 *   full that the recovery repeats under other provider metadata (a new item id) is not shown again; `steps` and
 *   `response.messages` carry the recovery's metadata.
 * - A run that fails (a tool over its `retries` budget, a `graceful: false` tool, a failure the guard could not
 *   recover) never breaks `stream`, `fullStream` or a UI stream: they end with every open tool call closed (a
 *   `tool-error` with an `UnfinishedToolCallError`), an error part, then `finish`; `onError` is called once; the
 *   answer fields reject with the error. (`textStream` is the SDK's own.)
 * - Iterating the same `textStream`/`fullStream`/`stream` object twice throws `StreamConsumedError`; reading the
 *   getter again gives a fresh stream that replays from the start, as in the SDK.
 * - The run is under a turn deadline (`turnTimeoutMs`, default 300 000 ms; `false` = none): `onTurnDeadline`
 *   receives, once the run has ended, which tool calls completed, timed out and were skipped. The deadline's
 *   timer stops when the run ends, fails or is aborted; a result never read keeps only an `unref`'d timer.
 */
export function streamText<
  TOOLS extends ToolSet,
  RUNTIME_CONTEXT extends Context = Context,
  OUTPUT extends OutputInterface = OutputInterface<string, string, never>,
>(
  options: GracefulStreamTextOptions<TOOLS, RUNTIME_CONTEXT, OUTPUT>,
): StreamTextResult<TOOLS, RUNTIME_CONTEXT, OUTPUT> {
  const userOnStepEnd = options.onStepEnd ?? options.onStepFinish;
  const { options: sdkOptions, turn, failure } = guardCallOptions(options, 'streamText');
  let result: StreamTextResult<TOOLS, RUNTIME_CONTEXT, OUTPUT>;
  try {
    result = sdkStreamText<TOOLS, RUNTIME_CONTEXT, OUTPUT>({
      ...sdkOptions,
      onStepFinish: undefined,
      onStepEnd: async (step) => {
        removeDiscarded(step.content);
        applyRecoveredPartMetadata(step.content, 'providerMetadata');
        for (const message of step.response.messages) {
          if (message.role !== 'assistant' || !Array.isArray(message.content)) continue;
          removeDiscarded(message.content);
          applyRecoveredPartMetadata(message.content, 'providerOptions');
        }
        await userOnStepEnd?.(step);
      },
    });
  } catch (error) {
    turn?.close();
    throw error;
  }
  const report = runErrorReport(options.onError as OnRunError | undefined);
  // One clean copy of the run's parts, teed for each reader as the SDK tees its own: a stream that broke reaches
  // every later reader too, ended cleanly.
  let clean: ReadableStream<TextStreamPart<ToolSet>> | undefined;
  const parts = () => {
    const [view, rest] = (clean ?? endFailedRunCleanly(Reflect.get(result, 'stream', result), report)).tee();
    clean = rest;
    return view;
  };
  return new Proxy(result, {
    get(target, property, receiver) {
      // The streams of parts: each read gives a fresh view of the run, ended cleanly if the run failed.
      if (property === 'stream' || property === 'fullStream')
        return singleUseIterable(iterableStream(parts()), `result.${String(property)}`);
      const value: unknown = Reflect.get(target, property, target);
      // The SDK's own text stream: a run whose stream broke ends it with the error, as in the SDK.
      if (property === 'textStream')
        return singleUseIterable(value as AsyncIterable<unknown>, 'result.textStream');
      if (answerFields.has(property)) return rejectAfterFailure(value as PromiseLike<unknown>, failure);
      if (typeof value !== 'function') return value;
      // The SDK's conversion of the run's clean parts, as graceful-ai sends UI chunks, with callbacks that get clean
      // messages; the SDK's response methods, called on this result, build on it.
      if (property === 'toUIMessageStream') {
        return (options?: { sendFinish?: boolean }) =>
          iterableStream(
            gracefulUIChunks(
              sdkToUIMessageStream({
                ...withCleanUIMessages(options),
                stream: parts(),
                tools: Reflect.get(target, 'tools', target),
              }),
              options?.sendFinish,
            ),
          );
      }
      return value.bind(uiResponseMethod.test(String(property)) ? receiver : target);
    },
  });
}
