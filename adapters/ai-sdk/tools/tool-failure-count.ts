import type { ModelMessage } from 'ai';
import { isInterruptedResult } from '../../../src/stream/tool-history-repair.js';

/** Which tool-result parts belong to the tool being counted. */
export type ToolPartMatcher = (part: { toolName: string; toolCallId: string }) => boolean;

const ERROR_OUTPUTS = new Set(['error-text', 'error-json']);

/**
 * How many consecutive steps of THIS run ended with the tool failing, read from the messages the AI SDK
 * passes to `execute` (stateless, so concurrent runs sharing a tool never share a count).
 *
 * Walks back from the newest message: a step where the tool failed adds one, also when another call of it in
 * that step succeeded (as pydantic-ai counts it since its #6581: a model pairing a failing call with a succeeding
 * one would otherwise never run out of retries); a step where it only succeeded ends the walk (a success resets
 * the count); a step without it is skipped. A `user` message ends the walk too: it starts a new run (or, for
 * steering messages, new instructions), so history from earlier runs never counts. Several failed calls of the
 * tool in one step count once, as in pydantic-ai.
 */
export function countConsecutiveFailures(
  messages: readonly ModelMessage[] | undefined,
  matches: ToolPartMatcher,
): number {
  if (!Array.isArray(messages)) return 0;
  let failures = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message === undefined || message.role === 'user') break;
    if (message.role !== 'tool') continue;
    let failed = false;
    let succeeded = false;
    for (const part of message.content) {
      // A repair's synthetic result (a call the history left unanswered) is no failure of the tool's.
      if (part.type !== 'tool-result' || !matches(part) || isInterruptedResult(part)) continue;
      if (ERROR_OUTPUTS.has(part.output.type)) failed = true;
      else succeeded = true;
    }
    if (failed) failures++;
    else if (succeeded) return failures;
  }
  return failures;
}
