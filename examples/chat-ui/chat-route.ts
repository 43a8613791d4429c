/**
 * `POST /api/chat`, written against web `Request`/`Response` so it reads like a route handler in any framework.
 * In your app, import `createAgentUIStreamResponse` from 'graceful-ai' (this example runs on the repository's
 * source): the same as `ai`'s, with a recovered stream's reset sent as `reset-step` (the page needs no helper) and a
 * failed run ending with an error the page can show.
 */
import { createIdGenerator, type UIMessage, validateUIMessages } from 'ai';
import { createAgentUIStreamResponse } from '../../adapters/ai-sdk/index.js';
import type { ChatAgent } from './chat-agent.js';

/** Where the chats live: messages by chat id. A Map here; a database in a real app. */
export type ChatStore = Map<string, UIMessage[]>;

export function chatRoute(agent: ChatAgent, chats: ChatStore): (request: Request) => Promise<Response> {
  const generateMessageId = createIdGenerator({ prefix: 'msg', size: 16 });
  return async (request) => {
    const chat = await readChatRequest(request);
    if ('error' in chat) return Response.json({ error: chat.error }, { status: 400 });
    const { id, messages } = chat;
    return createAgentUIStreamResponse({
      agent,
      uiMessages: messages,
      generateMessageId,
      // Persisted as the page holds it: the recovered answer only, every tool call closed, also after a failure.
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
