import type { UIMessage } from 'ai';
import { withoutDiscardedParts } from '../../src/stream/reset-part.js';

/**
 * The message without what a stream recovery discarded: in each step (parts between `step-start` parts) that
 * holds a `graceful-ai.reset` part, the text and reasoning parts before it, the incomplete tool inputs it lists,
 * and the reset part itself. Other steps and every other part stay as they are. Returns the same object when
 * there is nothing to remove, so it is cheap in a render loop and keeps React's identity checks working:
 *
 * ```tsx
 * const { messages } = useChat();
 * return messages.map(withoutDiscarded).map((message) => <Message key={message.id} message={message} />);
 * ```
 *
 * It never mutates `message`. Generic over your `UIMessage` type (metadata, data parts, tools), which it returns.
 */
export function withoutDiscarded<MESSAGE extends UIMessage>(message: MESSAGE): MESSAGE {
  // Stored messages are not always well-formed; one without a parts array has nothing to remove.
  if (!Array.isArray(message.parts)) return message;
  const parts = withoutDiscardedParts(message.parts);
  return parts === message.parts ? message : { ...message, parts };
}
