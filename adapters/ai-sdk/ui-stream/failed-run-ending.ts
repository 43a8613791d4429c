/**
 * A run's stream parts (`result.stream`, `fullStream`) ended the way the AI SDK ends a failed provider call, whatever
 * failed the run: the parts so far, every tool call still open closed with a `tool-error` part, an `error` part, then
 * `finish`. Nothing throws, so a UI stream built from these parts (by graceful-ai or by `ai`'s own helpers) always
 * ends with an `error` chunk, then `finish`.
 */
import type { LanguageModelUsage, TextStreamPart, ToolSet } from 'ai';
import { UnfinishedToolCallError } from '../../../src/errors/unfinished-tool-call-error.js';
import { isLoudToolFailure } from '../tools/loud-failure.js';
import type { RunErrorReport } from './run-error-report.js';

type Part = TextStreamPart<ToolSet>;
type ToolErrorPart = Extract<Part, { type: 'tool-error' }>;

/** What is known of a tool call that has no result yet: its `tool-input-start` or `tool-call` part. */
interface OpenCall {
  type: string;
  toolName: string;
  input?: unknown;
  dynamic?: boolean;
}

/**
 * `stream` with its failure ending cleanly:
 * - the placeholder result of a tool whose failure fails the run (a `graceful: false` tool, a used-up `retries`
 *   budget) becomes a `tool-error` part whose error ({@link UnfinishedToolCallError}) says so in words safe for a user;
 * - a stream that throws (the SDK's stream breaks on such a failure) ends with `error` and `finish` parts instead,
 *   and `report` hands that error to the run's `onError`;
 * - every tool call a failure leaves open gets a `tool-error`: before an `error` part, the calls whose input was
 *   still streaming (no result can follow); before the run's end, any other.
 * A run that does not fail passes unchanged (calls of tools without `execute` stay open, as in the SDK), and so do
 * the SDK's own `error` parts, where it sends them (a failure before the first step ends with its `error` part).
 */
export function endFailedRunCleanly(
  stream: ReadableStream<Part>,
  report: RunErrorReport | undefined,
): ReadableStream<Part> {
  const reader = stream.getReader();
  const open = new Map<string, OpenCall>();
  let failure: { error: unknown } | undefined;

  /** `tool-error` parts for the open calls (`which`), which the failure leaves without a result. */
  const close = (which: (call: OpenCall) => boolean = () => true): Part[] => {
    const closings: Part[] = [];
    for (const [toolCallId, call] of open) {
      if (!which(call)) continue;
      open.delete(toolCallId);
      closings.push(toolError(toolCallId, call, false, failure?.error));
    }
    return closings;
  };
  const finish = (): Part => ({
    type: 'finish',
    finishReason: 'error',
    rawFinishReason: undefined,
    // The SDK has no total for a run whose stream broke either (its `totalUsage` rejects); each step's usage
    // reached `onStepEnd`.
    totalUsage: unknownUsage,
  });

  /** What the consumer gets for `part`. */
  const handle = (part: Part): Part[] => {
    switch (part.type) {
      case 'tool-input-start':
        open.set(part.id, part);
        break;
      case 'tool-call':
        open.set(part.toolCallId, part);
        break;
      case 'tool-result': {
        if (part.preliminary) break;
        open.delete(part.toolCallId);
        if (!isLoudToolFailure(part.output)) break;
        return [toolError(part.toolCallId, part, true, part.output.failure.error)];
      }
      case 'tool-error':
      case 'tool-output-denied':
        open.delete(part.toolCallId);
        break;
      case 'tool-approval-request':
        // Awaiting the user's answer is no failure: the call stays in the message as it is.
        open.delete(part.toolCall.toolCallId);
        break;
      case 'error':
        report?.reportedBySdk();
        failure ??= { error: part.error };
        return [...close((call) => call.type === 'tool-input-start'), part];
      case 'finish':
        return [...(failure ? close() : []), part];
    }
    return [part];
  };

  return new ReadableStream<Part>(
    {
      async pull(controller) {
        let next: ReadableStreamReadResult<Part>;
        try {
          next = await reader.read();
        } catch (error) {
          failure ??= { error };
          for (const part of [...close(), { type: 'error', error } as const, finish()])
            controller.enqueue(part);
          controller.close();
          await report?.report(error);
          return;
        }
        if (next.done) {
          for (const part of failure ? close() : []) controller.enqueue(part);
          controller.close();
          return;
        }
        for (const part of handle(next.value)) controller.enqueue(part);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

/** The `tool-error` part that closes `call`: its failure ended the run (`endedRun`), or the run failed with `cause`. */
function toolError(toolCallId: string, call: OpenCall, endedRun: boolean, cause: unknown): ToolErrorPart {
  const { toolName, input, dynamic } = call;
  const error = new UnfinishedToolCallError({ toolName, toolCallId, endedRun, cause });
  return { type: 'tool-error', toolCallId, toolName, input, error, dynamic } as ToolErrorPart;
}

/** The usage of a run that has no total. */
const unknownUsage: LanguageModelUsage = {
  inputTokens: undefined,
  inputTokenDetails: { noCacheTokens: undefined, cacheReadTokens: undefined, cacheWriteTokens: undefined },
  outputTokens: undefined,
  outputTokenDetails: { textTokens: undefined, reasoningTokens: undefined },
  totalTokens: undefined,
};
