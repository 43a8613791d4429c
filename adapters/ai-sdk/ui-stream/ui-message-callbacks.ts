import type { UIMessage } from 'ai';
import { withoutDiscarded } from '../../ui/without-discarded.js';

/** The UI stream callbacks that hand the app messages to store (their deprecated aliases included). */
export const messageCallbacks = ['onEnd', 'onFinish', 'onStepEnd', 'onStepFinish'] as const;

/** The same callbacks in the agent UI helpers' options, where `onStepEnd` is the generation's. */
export const agentMessageCallbacks = ['onEnd', 'onFinish', 'onUIMessageStepEnd'] as const;

/**
 * The options of a UI stream (`toUIMessageStream`, `toUIMessageStreamResponse`, `pipeUIMessageStreamToResponse`,
 * the agent UI helpers) with callbacks that receive `responseMessage` and `messages` without what a reset discarded,
 * so what an app persists never holds discarded text: the same message a client holds once it applied the stream's
 * `reset-step` (see `resetStepRenderer`). Options without such callbacks are returned as they are.
 */
export function withCleanUIMessages<T>(options: T, callbacks: readonly string[] = messageCallbacks): T {
  if (typeof options !== 'object' || options === null) return options;
  let wrapped: Record<string, unknown> | undefined;
  for (const name of callbacks) {
    const callback = (options as Record<string, unknown>)[name];
    if (typeof callback !== 'function') continue;
    wrapped ??= { ...(options as Record<string, unknown>) };
    wrapped[name] = (event: unknown) => callback(withCleanMessages(event));
  }
  return (wrapped as T | undefined) ?? options;
}

/** The event with clean `responseMessage` and `messages`; the same event when neither held a reset. */
function withCleanMessages(event: unknown): unknown {
  if (typeof event !== 'object' || event === null) return event;
  const { responseMessage, messages } = event as { responseMessage?: UIMessage; messages?: unknown };
  const response = responseMessage && withoutDiscarded(responseMessage);
  // `messages` ends with the response message: it keeps being the very object passed as `responseMessage`.
  const clean = (message: UIMessage) => (message === responseMessage ? response : withoutDiscarded(message));
  const list = Array.isArray(messages) ? (messages as UIMessage[]).map(clean) : messages;
  const changed =
    response !== responseMessage ||
    (Array.isArray(list) && list.some((message, i) => message !== (messages as UIMessage[])[i]));
  return changed ? { ...event, responseMessage: response, messages: list } : event;
}
