/**
 * `POST /api/chat`, written against web `Request`/`Response` so it reads like a route handler in any framework.
 * In your app, import `streamText` from 'graceful-ai' (this example runs on the repository's source).
 */
import {
  convertToModelMessages,
  createIdGenerator,
  type LanguageModel,
  type UIMessage,
  validateUIMessages,
} from 'ai';
import { streamText } from '../../adapters/ai-sdk/index.js';
import { withoutDiscarded } from '../../adapters/ui/index.js';

/** Where the chats live: messages by chat id. A Map here; a database in a real app. */
export type ChatStore = Map<string, UIMessage[]>;

export function chatRoute(model: LanguageModel, chats: ChatStore): (request: Request) => Promise<Response> {
  const generateMessageId = createIdGenerator({ prefix: 'msg', size: 16 });
  return async (request) => {
    const chat = await readChatRequest(request);
    if ('error' in chat) return Response.json({ error: chat.error }, { status: 400 });
    const { id, messages } = chat;
    const result = streamText({
      model,
      // What a recovered stream discarded is not part of the conversation: the model never reads it again.
      messages: await convertToModelMessages(messages.map(withoutDiscarded)),
    });
    return result.toUIMessageStreamResponse({
      originalMessages: messages,
      generateMessageId,
      // Persisted as received, reset part included: the page drops the discarded text when it renders.
      onFinish: ({ messages }) => {
        chats.set(id, messages);
      },
    });
  };
}

/** The body `useChat` sends (`{ id, messages, trigger, … }`), or why it is not one. */
async function readChatRequest(
  request: Request,
): Promise<{ id: string; messages: UIMessage[] } | { error: string }> {
  try {
    const body = (await request.json()) as { id?: unknown; messages?: unknown } | null;
    if (typeof body?.id !== 'string') return { error: 'expected { id: string, messages: UIMessage[] }' };
    return { id: body.id, messages: await validateUIMessages({ messages: body.messages }) };
  } catch (error) {
    return { error: `expected { id: string, messages: UIMessage[] }: ${(error as Error).message}` };
  }
}
