/**
 * Keeps what a stream recovery discarded out of every request: the SDK builds each step's prompt from its own
 * message list, which the drop-in's `onStepEnd` cleanup (on the step's copies) cannot reach, and a prompt built
 * from stored chat messages (`convertToModelMessages`) may carry reset parts from earlier turns.
 */
import type { PrepareStepFunction, PrepareStepResult } from 'ai';
import { withoutDiscardedMessages } from '../../../src/stream/reset-part.js';
import { copyWith } from '../tools/tool-copy.js';

// biome-ignore lint/suspicious/noExplicitAny: the SDK's PrepareStepFunction is generic over the caller's tools.
type AnyPrepareStep = PrepareStepFunction<any, any>;
type StepArgs = Parameters<AnyPrepareStep>[0];
// biome-ignore lint/suspicious/noExplicitAny: as above.
type StepResult = PrepareStepResult<any, any> | undefined;

/**
 * A `prepareStep` for the drop-ins around the caller's (or none): each step's request gets the prompt without
 * discarded parts. The caller's function sees the clean `messages`, `initialMessages` and `responseMessages`;
 * messages it returns are cleaned too. Without a reset anywhere, the caller's function gets the SDK's own
 * argument and its result is returned as is (no function: `undefined`, as if none were given).
 */
export function withCleanPrompt(prepareStep: AnyPrepareStep | undefined): AnyPrepareStep {
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
    if (result?.messages !== undefined) {
      const own = withoutDiscardedMessages(result.messages);
      return own === result.messages ? result : { ...result, messages: own };
    }
    return messages === step.messages ? result : { ...result, messages };
  };
}
