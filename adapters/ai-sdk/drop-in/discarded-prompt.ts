/**
 * Keeps every request's prompt sendable. What a stream recovery discarded stays out of it: the SDK builds each step's
 * prompt from its own message list, which the drop-in's `onStepEnd` cleanup (on the step's copies) cannot reach, and
 * a prompt built from stored chat messages (`convertToModelMessages`) may carry reset parts from earlier turns. And
 * a history with a tool call but no result, or a result without its call, is repaired: the SDK refuses the first
 * before any middleware sees the prompt (`MissingToolResultsError`), providers refuse the second.
 */
import type { PrepareStepFunction, PrepareStepResult } from 'ai';
import { withoutDiscardedMessages } from '../../../src/stream/reset-part.js';
import { repairToolHistory } from '../../../src/stream/tool-history-repair.js';
import { defaultLogger } from '../../../src/util/logger.js';
import { noteRepair } from '../stream-guard/prompt-repair.js';
import { copyWith } from '../tools/tool-copy.js';

// biome-ignore lint/suspicious/noExplicitAny: the SDK's PrepareStepFunction is generic over the caller's tools.
type AnyPrepareStep = PrepareStepFunction<any, any>;
type StepArgs = Parameters<AnyPrepareStep>[0];
// biome-ignore lint/suspicious/noExplicitAny: as above.
type StepResult = PrepareStepResult<any, any> | undefined;

/**
 * A `prepareStep` for the drop-ins around the caller's (or none): each step's request gets the prompt without
 * discarded parts, and with its tool history repaired (`repairToolHistory`: a call without a result gets a synthetic
 * "interrupted" error result, a result without its call is dropped). The caller's function sees the clean `messages`,
 * `initialMessages` and `responseMessages` as they are otherwise (what really happened); messages it returns are
 * cleaned and repaired too. A repair is logged (warn) and, with `noteForGuard`, noted in the step's
 * `providerOptions`, where the stream guard takes it out and records it. With nothing to change, the caller's
 * function gets the SDK's own argument and its result is returned as is (no function: `undefined`, as if none were
 * given).
 */
export function withCleanPrompt(
  prepareStep: AnyPrepareStep | undefined,
  noteForGuard = false,
): AnyPrepareStep {
  return async (step: StepArgs): Promise<StepResult> => {
    const messages = withoutDiscardedMessages(step.messages);
    const initialMessages = withoutDiscardedMessages(step.initialMessages);
    const responseMessages = withoutDiscardedMessages(step.responseMessages);
    const changed =
      messages !== step.messages ||
      initialMessages !== step.initialMessages ||
      responseMessages !== step.responseMessages;
    const view = changed ? copyWith(step, { messages, initialMessages, responseMessages }) : step;
    const result: StepResult = await prepareStep?.(view);
    const prompt = result?.messages === undefined ? messages : withoutDiscardedMessages(result.messages);
    const { messages: sent, repair } = repairToolHistory(prompt);
    if (sent === step.messages || sent === result?.messages) return result;
    const repaired = { ...result, messages: [...sent] };
    if (repair === undefined) return repaired;
    defaultLogger.warn('graceful-ai: repaired the tool calls of a prompt before sending it', {
      stepNumber: step.stepNumber,
      ...repair,
    });
    return noteForGuard
      ? { ...repaired, providerOptions: noteRepair(result?.providerOptions, repair) }
      : repaired;
  };
}
