/**
 * AgentSession on RedisSessionStore against a real redis-server: a turn settles only once Redis holds it, and a write
 * Redis refuses (the lease taken over by another holder) fails the turn that made it, at the step that made it.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { type ModelMessage, tool } from 'ai';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AgentSession } from '../../adapters/ai-sdk/session/agent-session.js';
import { RedisSessionStore } from '../../adapters/redis/session-store.js';
import { reply, startMockServer } from '../../mocks/index.js';
import type { MockServer } from '../../mocks/server.js';
import { SessionLeaseError } from '../../src/errors/session-lease-error.js';
import { contextFromEntries, type SessionEntry } from '../../src/session/entries.js';
import { SessionStoreError } from '../../src/session/index.js';
import { clientKinds, command, connect, type TestClient } from './clients.js';
import { describeWithRedis } from './describe-with-redis.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

for (const kind of clientKinds) {
  describeWithRedis(`AgentSession on RedisSessionStore (${kind})`, (server) => {
    let client: TestClient;
    let mock: MockServer;
    beforeAll(async () => {
      client = await connect(kind, server().url);
      mock = await startMockServer({ script: [] });
    });
    afterAll(async () => {
      await mock?.close();
      await client?.quit();
    });
    const prefix = `session:${kind}:`;
    const openai = () => createOpenAI({ baseURL: mock.urls.openai, apiKey: 'sk-test' });
    /** What Redis holds for a session. */
    const stored = async (id: string): Promise<SessionEntry<ModelMessage>[]> => {
      const lines = (await command(client, [
        'LRANGE',
        `${prefix}session:{${id}}:entries`,
        '0',
        '-1',
      ])) as string[];
      return lines.map((line) => JSON.parse(line) as SessionEntry<ModelMessage>);
    };

    it('prompt() settles once Redis holds every entry of the turn, without a flush by the caller', async () => {
      mock.setScript([reply.text('Hello')]);
      const store = await RedisSessionStore.open<ModelMessage>(client.client, 'kept', { prefix });
      const session = new AgentSession({ model: openai().chat('gpt-mock'), store, logger: quiet });
      await session.prompt('hi');
      expect(await stored('kept')).toEqual(store.entries);
      expect(contextFromEntries(await stored('kept'))).toEqual(session.messages);
      await store.release();
    });

    it('a lease taken over mid-turn fails that turn at the refused step: no further request or tool call', async () => {
      mock.setScript([
        reply.toolCall('weather', { city: 'Oslo' }),
        reply.toolCall('weather', { city: 'Bergen' }),
        reply.text('never sent'),
      ]);
      const store = await RedisSessionStore.open<ModelMessage>(client.client, 'stolen', { prefix });
      const execute = vi.fn(async ({ city }: { city: string }) => {
        // Another process took the session over (this one's lease had expired): its token is in the lease key now.
        await command(client, ['SET', `${prefix}session:{stolen}:lease`, 'another-holder']);
        return `sunny in ${city}`;
      });
      const session = new AgentSession({
        model: openai().chat('gpt-mock'),
        tools: { weather: tool({ inputSchema: z.object({ city: z.string() }), execute }) },
        store,
        logger: quiet,
      });
      const error = await session.prompt('weather?').catch((e: unknown) => e);
      expect(SessionStoreError.isInstance(error), String(error)).toBe(true);
      expect(SessionLeaseError.isInstance((error as Error).cause)).toBe(true);
      expect((error as Error).cause).toMatchObject({ problem: 'lost' });
      expect(execute).toHaveBeenCalledTimes(1);
      expect(mock.requests).toHaveLength(1);
      // Redis holds the prompt only; the session and its store say the same.
      const held = await stored('stolen');
      expect(contextFromEntries(held)).toEqual([{ role: 'user', content: 'weather?' }]);
      expect(session.messages).toEqual(contextFromEntries(held));
      expect(store.entries).toEqual(held);
      // The next turn is refused at once: this process no longer holds the session.
      await expect(session.prompt('again')).rejects.toSatisfy(SessionStoreError.isInstance);
      expect(mock.requests).toHaveLength(1);
      store.close();
    });
  });
}
