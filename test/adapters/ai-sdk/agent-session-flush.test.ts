/**
 * AgentSession on a store that writes in the background (as `RedisSessionStore`): the step a store refused fails the
 * turn at that step, before the next step's request and tools, and the session keeps what the store kept.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { type ModelMessage, tool } from 'ai';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AgentSession } from '../../../adapters/ai-sdk/agent-session.js';
import { type RecordedRequest, reply } from '../../../mocks/index.js';
import { mockHandlers } from '../../../mocks/msw.js';
import { SessionStoreError } from '../../../src/errors/session-errors.js';
import { contextFromEntries } from '../../../src/session/entries.js';
import { BackgroundStore } from '../../src/session/fixtures/background-store.js';
import { quiet } from '../../src/session/fixtures/session-files.js';

const msw = setupServer();
beforeAll(() => msw.listen({ onUnhandledFrame: 'error' }));
afterEach(() => msw.resetHandlers());
afterAll(() => msw.close());

const openai = createOpenAI({ apiKey: 'sk-test' });

describe('AgentSession: a store that refuses a write in the background', () => {
  it('a refused tool step fails prompt() at that step: no further request, the next tool never runs', async () => {
    const store = new BackgroundStore<ModelMessage>((e) => e.type === 'message' && e.message.role === 'tool');
    const execute = vi.fn(async ({ city }: { city: string }) => `sunny in ${city}`);
    const handlers = mockHandlers([
      reply.toolCall('weather', { city: 'Oslo' }),
      reply.toolCall('weather', { city: 'Bergen' }),
      reply.text('Sunny in both.'),
    ]);
    msw.use(...handlers);
    const session = new AgentSession({
      model: openai.chat('gpt-mock'),
      tools: { weather: tool({ inputSchema: z.object({ city: z.string() }), execute }) },
      store,
      logger: quiet,
    });
    const error = await session.prompt('weather?').catch((e: unknown) => e);
    expect(SessionStoreError.isInstance(error), String(error)).toBe(true);
    expect((error as SessionStoreError).entryType).toBe('message');
    expect((error as Error).cause).toMatchObject({ code: 'LEASE_LOST' });
    expect(execute).toHaveBeenCalledTimes(1);
    expect((handlers.requests as RecordedRequest[]).length).toBe(1);
    // The session holds what the store kept: the prompt, not the refused step.
    expect(session.messages).toEqual([{ role: 'user', content: 'weather?' }]);
    expect(contextFromEntries(store.sent)).toEqual(session.messages);
  });

  it('a turn whose writes are all kept resolves with the store holding every entry', async () => {
    const store = new BackgroundStore<ModelMessage>(() => false);
    msw.use(...mockHandlers([reply.text('Hello')]));
    const session = new AgentSession({ model: openai.chat('gpt-mock'), store, logger: quiet });
    await expect(session.prompt('hi')).resolves.toMatchObject({ text: 'Hello' });
    expect(store.sent).toEqual(store.entries);
    expect(contextFromEntries(store.sent)).toEqual(session.messages);
  });
});
