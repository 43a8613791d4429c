/**
 * Doom loops: a model calling the same tool with the same input again and again, each call "succeeding". Counted
 * per run from the messages the SDK hands to `execute`, as the retry budget is (`tool-failure-count.ts`), so two
 * concurrent runs sharing a tool never share a count.
 */
import type { ModelMessage, ToolResultPart } from 'ai';
import { isDeepEqualData } from 'ai';
import { RepeatedToolCallError } from '../../../src/errors/repeated-tool-call-error.js';
import { safeJson } from '../../../src/util/guarded.js';
import { checkSize } from '../../../src/util/validate.js';

/** How many identical calls a run may make by default: the next one is not run. */
export const defaultMaxIdenticalCalls = 3;

/** Outputs that are no answer: a failed call is the retry budget's (`retries`), not a repetition. */
const NO_ANSWER = new Set(['error-text', 'error-json', 'execution-denied']);

/** Characters of an earlier result kept for the model (the whole text is bounded again where it is formatted). */
const MAX_RESULT_CHARS = 4000;

/** Checks `maxIdenticalCalls`: an integer ≥ 1, or `false` (no limit). */
export function checkMaxIdenticalCalls(value: unknown): void {
  if (value !== false) checkSize('maxIdenticalCalls', value, 1);
}

/**
 * Earlier calls of `toolName` with an input equal to `input` (the same JSON, whatever the key order) in this run —
 * since the last `user` message — that answered (failed or denied calls are the retry budget's), and what the newest
 * of them returned. The current step's calls are not in `messages` (the SDK hands `execute` the prompt of the step),
 * so identical calls within one step are not counted.
 */
export function identicalCalls(
  messages: readonly ModelMessage[] | undefined,
  toolName: string,
  input: unknown,
): { calls: number; lastResult: ToolResultPart['output'] | undefined } {
  let calls = 0;
  let lastResult: ToolResultPart['output'] | undefined;
  if (!Array.isArray(messages)) return { calls, lastResult };
  // Walking back, a call's result (in a later tool message) is seen before the call itself.
  const results = new Map<string, ToolResultPart['output']>();
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message === undefined || message.role === 'user') break;
    if (message.role === 'tool') {
      for (const part of message.content) {
        if (part.type === 'tool-result') results.set(part.toolCallId, part.output);
      }
    } else if (message.role === 'assistant' && Array.isArray(message.content)) {
      for (const part of message.content) {
        if (part.type !== 'tool-call' || part.toolName !== toolName || !isDeepEqualData(part.input, input))
          continue;
        const output = results.get(part.toolCallId);
        if (output === undefined || NO_ANSWER.has(output.type)) continue;
        lastResult ??= output;
        calls++;
      }
    }
  }
  return { calls, lastResult };
}

/** A tool's answer as the model read it, as text (bounded). */
function resultText(output: ToolResultPart['output']): string {
  const text =
    output.type === 'text'
      ? output.value
      : output.type === 'content'
        ? output.value.map((item) => (item.type === 'text' ? item.text : `[${item.type}]`)).join('\n')
        : (safeJson('value' in output ? output.value : output, MAX_RESULT_CHARS) ?? '');
  return text.length > MAX_RESULT_CHARS ? `${text.slice(0, MAX_RESULT_CHARS)}…` : text;
}

/**
 * The failure of a call that repeats itself: `undefined` while the run has made fewer than `max` calls of `toolName`
 * with this input; else a `RepeatedToolCallError` holding what the newest of them returned.
 */
export function repeatedCall(
  messages: readonly ModelMessage[] | undefined,
  toolName: string,
  input: unknown,
  max: number,
): RepeatedToolCallError | undefined {
  const { calls, lastResult } = identicalCalls(messages, toolName, input);
  if (calls < max) return undefined;
  return new RepeatedToolCallError({
    toolName,
    calls,
    ...(lastResult === undefined ? {} : { lastResult: resultText(lastResult) }),
  });
}
