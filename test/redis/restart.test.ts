/**
 * Redis going away mid-run: the stores fail in the documented, safe direction. Breakers and cool-downs fall back to
 * each process's own state (a breaker still opens on failures: never "closed forever", never stuck open) and Redis
 * wins again once it answers; a session store refuses further appends (its lease is gone with the restart) instead
 * of diverging.
 */
import { createServer } from 'node:net';
import { Redis as UpstashRedis } from '@upstash/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisCoordination } from '../../adapters/redis/coordination.js';
import { RedisSessionStore } from '../../adapters/redis/session-store.js';
import { SessionLeaseError } from '../../src/errors/session-lease-error.js';
import { createToolPolicy } from '../../src/policy/tool-policy.js';
import { clientKinds, command, connect, type TestClient } from './clients.js';
import { describeWithRedis } from './describe-with-redis.js';

const unavailable = () => Object.assign(new Error('Service Unavailable'), { status: 503 });

for (const kind of clientKinds) {
  describeWithRedis(`Redis restarting mid-run (${kind})`, (server) => {
    let client: TestClient;
    beforeAll(async () => {
      client = await connect(kind, server().url);
    });
    afterAll(async () => {
      await client?.quit();
    });

    it('breakers fall back to local state while Redis is down, then Redis wins again', async () => {
      const warnings: string[] = [];
      const infos: string[] = [];
      const logger = {
        ...console,
        warn: (m: string) => void warnings.push(m),
        info: (m: string) => void infos.push(m),
      };
      const coordination = new RedisCoordination(client.client, {
        prefix: `restart:${kind}:`,
        commandTimeoutMs: 200,
        offlineMs: 100,
        logger,
      });
      const policy = createToolPolicy('search', {
        autoRetry: false,
        breaker: { failureThreshold: 2, openMs: 60_000 },
        coordination,
      });
      await policy.run(() => {
        throw unavailable();
      });
      expect(await coordination.breakerStore.get('search')).toMatchObject({ state: 'closed', failures: 1 });

      await server().stop();
      // Redis is gone: the breaker keeps counting locally, from the last state it read, and opens.
      let ran = 0;
      const failing = () => {
        ran++;
        throw unavailable();
      };
      expect(await policy.run(failing)).toMatchObject({ ok: false, decision: 'exhausted' });
      expect(await policy.run(failing)).toMatchObject({ ok: false, decision: 'circuit_open' });
      expect(ran).toBe(1);
      expect(warnings.some((w) => w.includes('this process uses its own state'))).toBe(true);

      await server().restart();
      // A restarted Redis without persistence holds no record: the shared breaker is CLOSED again.
      const back = await until(async () => (await policy.run(() => 'results')).ok);
      expect(back).toBe(true);
      expect(infos.some((m) => m.includes('Redis answers again'))).toBe(true);
    });

    it('a session store refuses to write once its lease is gone with the restart', async () => {
      const store = await RedisSessionStore.open(client.client, `s-${kind}`, { prefix: `restart:${kind}:` });
      store.append({ type: 'message', at: 1, message: { role: 'user', content: 'hi' } });
      await store.flush();
      await server().restart();
      await until(async () => (await command(client, ['PING'])) === 'PONG');
      store.append({ type: 'message', at: 2, message: { role: 'assistant', content: 'hello' } });
      await expect(store.flush()).rejects.toMatchObject({ name: 'SessionLeaseError', problem: 'lost' });
      let thrown: unknown;
      try {
        store.append({ type: 'message', at: 3, message: { role: 'user', content: 'again' } });
      } catch (error) {
        thrown = error;
      }
      expect(SessionLeaseError.isInstance(thrown)).toBe(true);
      // Neither refused entry is kept: `entries` holds what Redis confirmed (before the restart emptied it).
      expect(store.entries).toEqual([{ type: 'message', at: 1, message: { role: 'user', content: 'hi' } }]);
      store.close();
    });
  });
}

describe('an Upstash REST endpoint that cannot be reached', () => {
  it('the call goes on with local state after commandTimeoutMs, while the client still retries in the background', async () => {
    // Every connection is reset: each fetch of @upstash/redis fails, and the client tries it again (5 retries).
    let connections = 0;
    const sink = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
    const { port } = sink.address() as { port: number };
    try {
      const warnings: string[] = [];
      const logger = { ...console, warn: (m: string) => void warnings.push(m) };
      const redis = new UpstashRedis({ url: `http://127.0.0.1:${port}`, token: 'token' });
      const coordination = new RedisCoordination(redis, { commandTimeoutMs: 200, logger });
      const policy = createToolPolicy('search', { autoRetry: false, coordination });
      expect(await policy.run(() => 'results')).toMatchObject({ ok: true, value: 'results' });
      expect(warnings.some((w) => w.includes('this process uses its own state'))).toBe(true);
      // Two commands (the breaker admission and the cool-down read), 1 + 5 tries each: the call did not wait for them.
      expect(connections).toBeLessThan(12);
      await expect.poll(() => connections, { timeout: 30_000, interval: 100 }).toBe(12);
    } finally {
      sink.close();
    }
  }, 60_000);
});

/** Polls `check` until it is true (a reconnecting client needs a moment), at most ~5 s. */
async function until(check: () => Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if (await check().catch(() => false)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}
