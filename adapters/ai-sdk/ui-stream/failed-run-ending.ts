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
  toolName: string;
  input?: unknown;
  dynamic?: boolean;
  title?: string;
}

/**
 * `stream` with its failure ending cleanly:
 * - the placeholder result of a tool whose failure fails the run (a `graceful: false` tool, a used-up `retries`
 *   budget) becomes a `tool-error` part whose error ({@link UnfinishedToolCallError}) says so in words safe for a user;
 * - a stream that throws (the SDK's stream breaks on such a failure) ends with `error` and `finish` parts instead,
 *   and `report` hands that error to the run's `onError`;
 * - an `error` part is held back until the run ends, so that it comes after every tool result and right before
 *   `finish`;
 * - after a failure, every tool call still open (input still streaming, or awaiting its result) gets a `tool-error`.
 * A run that does not fail passes unchanged: calls of tools without `execute` stay open, as in the SDK.
 */
export function endFailedRunCleanly(
  stream: ReadableStream<Part>,
  report: RunErrorReport | undefined,
): ReadableStream<Part> {
  const reader = stream.getReader();
  const open = new Map<string, OpenCall>();
  const heldErrors: Part[] = [];
  let usage: LanguageModelUsage | undefined;

  const finish = (): Part => ({
    type: 'finish',
    finishReason: 'error',
    rawFinishReason: undefined,
    totalUsage: usage ?? unknownUsage,
  });

  /** What the consumer gets for `part` (nothing, while an error part is held back). */
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
        const { toolCallId, toolName } = part;
        const cause = part.output.failure.error;
        return [
          toolError(
            toolCallId,
            part,
            new UnfinishedToolCallError({ toolName, toolCallId, endedRun: true, cause }),
          ),
        ];
      }
      case 'tool-error':
      case 'tool-output-denied':
        open.delete(part.toolCallId);
        break;
      case 'tool-approval-request':
        // Awaiting the user's answer is no failure: the call stays in the message as it is.
        open.delete(part.toolCall.toolCallId);
        break;
      case 'finish-step':
        usage = usage === undefined ? part.usage : add(usage, part.usage);
        break;
      case 'error':
        report?.reportedBySdk();
        heldErrors.push(part);
        return [];
      case 'finish':
        return [...failureParts(), part];
    }
    return [part];
  };

  /** After a failure: the tool errors of the calls still open, then the held error parts. */
  const failureParts = (thrown?: { error: unknown }): Part[] => {
    if (thrown) heldErrors.push({ type: 'error', error: thrown.error });
    const first = heldErrors[0] as { error: unknown } | undefined;
    if (first === undefined) return [];
    const closings = [...open].map(([toolCallId, call]) =>
      toolError(
        toolCallId,
        call,
        new UnfinishedToolCallError({
          toolName: call.toolName,
          toolCallId,
          endedRun: false,
          cause: first.error,
        }),
      ),
    );
    open.clear();
    return [...closings, ...heldErrors.splice(0)];
  };

  return new ReadableStream<Part>(
    {
      async pull(controller) {
        for (;;) {
          let next: ReadableStreamReadResult<Part>;
          try {
            next = await reader.read();
          } catch (error) {
            for (const part of [...failureParts({ error }), finish()]) controller.enqueue(part);
            controller.close();
            await report?.report(error);
            return;
          }
          if (next.done) {
            // An error part with no finish after it: the run still ends with one.
            const ending = failureParts();
            for (const part of ending.length > 0 ? [...ending, finish()] : []) controller.enqueue(part);
            controller.close();
            return;
          }
          const parts = handle(next.value);
          for (const part of parts) controller.enqueue(part);
          if (parts.length > 0) return;
        }
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

function toolError(toolCallId: string, call: OpenCall, error: UnfinishedToolCallError): ToolErrorPart {
  const { toolName, input, dynamic, title } = call;
  return { type: 'tool-error', toolCallId, toolName, input, error, dynamic, title } as ToolErrorPart;
}

/** The usage of a run whose steps reported none. */
const unknownUsage: LanguageModelUsage = {
  inputTokens: undefined,
  inputTokenDetails: { noCacheTokens: undefined, cacheReadTokens: undefined, cacheWriteTokens: undefined },
  outputTokens: undefined,
  outputTokenDetails: { textTokens: undefined, reasoningTokens: undefined },
  totalTokens: undefined,
};

/** Two usages added as the SDK adds them: field by field, a count both lack stays unknown, `raw` is not summed. */
function add(a: LanguageModelUsage, b: LanguageModelUsage): LanguageModelUsage {
  return sum(a, b) as LanguageModelUsage;
}

function sum(a: unknown, b: unknown): unknown {
  if (typeof b !== 'object' || b === null) {
    return a === undefined && b === undefined ? undefined : ((a as number) ?? 0) + ((b as number) ?? 0);
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(b)) {
    if (key !== 'raw') out[key] = sum((a as Record<string, unknown> | undefined)?.[key], value);
  }
  return out;
}
