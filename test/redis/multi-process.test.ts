/**
 * graceful-ai/redis across real processes: several Node children share one redis-server (started per file) and the
 * fault kit's loopback OpenAI mock, and the parent checks what each did and how many requests the provider got.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { modelKey } from '../../adapters/ai-sdk/stream-guard/models/model-key.js';
import { fault, reply, startMockServer } from '../../mocks/index.js';
import type { MockServer } from '../../mocks/server.js';
import { clientKinds, command, connect, type TestClient } from './clients.js';
import { describeWithRedis } from './describe-with-redis.js';
import type { Job } from './fixtures/worker.js';
import { runWorker as runIn, startWorker as startIn, workerBundle } from './processes.js';
import { giveStartSignal } from './start-signal.js';

let n = 0;
const prefix = () => `mp:${n++}:`;

describeWithRedis('graceful-ai/redis across processes', (server) => {
  let parent: TestClient;
  let bundlePath: string;
  const runWorker = (job: Job) => runIn(bundlePath, job);
  const startWorker = (job: Job) => startIn(bundlePath, job);
  beforeAll(async () => {
    parent = await connect('node-redis', server().url);
    bundlePath = await workerBundle();
  }, 60_000);
  afterAll(async () => {
    await parent?.quit();
  });
  const base = () => ({ redis: server().url, client: 'node-redis' as const });

  it('a breaker opened by process A fails fast in processes B and C, without running the tool', async () => {
    const p = prefix();
    const a = await runWorker({ ...base(), mode: 'open-breaker', prefix: p });
    expect(a).toMatchObject({ ran: 1, ok: false });
    const others = await Promise.all(
      (['ioredis', 'upstash'] as const).map((client) =>
        runWorker({ ...base(), client, mode: 'call-tool', prefix: p }),
      ),
    );
    expect(others).toEqual([
      { ran: 0, ok: false, decision: 'circuit_open' },
      { ran: 0, ok: false, decision: 'circuit_open' },
    ]);
  });

  it('exactly one of 6 concurrent processes takes the half-open trial', async () => {
    const p = prefix();
    // An OPEN record whose time has passed: the next caller anywhere takes the single trial.
    const open = {
      state: 'open',
      failures: 0,
      successes: 0,
      openUntil: Date.now() - 1,
      trialStartedAt: null,
    };
    await command(parent, ['SET', `${p}breaker:search`, JSON.stringify(open)]);
    const startAt = Date.now() + 2_000;
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        runWorker({ ...base(), client: clientKinds[i % 3]!, mode: 'trial', prefix: p, startAt }),
      ),
    );
    const seen = results.map((r) => r.result).sort();
    expect(seen).toEqual(['rejected', 'rejected', 'rejected', 'rejected', 'rejected', 'trial']);
  });

  /** OpenAI (chat) is down, Anthropic answers: the loopback server speaks both under one base URL. */
  const openAIDown = () =>
    startMockServer({
      script: (request) => (request.api === 'chat' ? fault.serverError(503) : reply.text('Hi there')),
    });
  const sentTo = (mock: MockServer, api: string) => mock.requests.filter((r) => r.api === api).length;

  it("model breaker: the primary's failure in process A sends process B straight to the fallback, no request to the primary", async () => {
    const mock = await openAIDown();
    try {
      const p = prefix();
      const a = await runWorker({ ...base(), mode: 'failover', prefix: p, mock: mock.urls.openai });
      expect(a).toEqual({ ok: true, text: 'Hi there' });
      expect([sentTo(mock, 'chat'), sentTo(mock, 'messages')]).toEqual([1, 1]);
      const b = await runWorker({
        ...base(),
        client: 'ioredis',
        mode: 'failover',
        prefix: p,
        mock: mock.urls.openai,
      });
      expect(b).toEqual({ ok: true, text: 'Hi there' });
      expect([sentTo(mock, 'chat'), sentTo(mock, 'messages')]).toEqual([1, 2]);
    } finally {
      await mock.close();
    }
  });

  it('model breaker: after the open period exactly one of 6 concurrent processes sends the trial to the primary', async () => {
    const mock = await openAIDown();
    try {
      const p = prefix();
      // The primary's breaker, keyed as every worker keys it, OPEN with its time passed: the next caller anywhere
      // takes the single trial; it fails (the primary is still down), so the breaker opens again.
      const primary = createOpenAI({ baseURL: mock.urls.openai, apiKey: 'sk-test-shared' }).chat(
        'gpt-4o-mini',
      );
      const open = {
        state: 'open',
        failures: 0,
        successes: 0,
        openUntil: Date.now() - 1,
        trialStartedAt: null,
      };
      await command(parent, ['SET', `${p}breaker:${await modelKey(primary)}`, JSON.stringify(open)]);
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          runWorker({
            ...base(),
            client: i % 2 ? 'ioredis' : 'node-redis',
            mode: 'failover',
            prefix: p,
            mock: mock.urls.openai,
          }),
        ),
      );
      expect(results.every((r) => r.ok === true && r.text === 'Hi there')).toBe(true);
      expect([sentTo(mock, 'chat'), sentTo(mock, 'messages')]).toEqual([1, 6]);
    } finally {
      await mock.close();
    }
  });

  it('a 429 with retry-after seen by one process makes the others wait: no extra provider requests', async () => {
    let limitedUntil: number | undefined;
    // The provider is rate-limited for one second from the first request: every request in that window gets a 429.
    const mock: MockServer = await startMockServer({
      script: () => {
        limitedUntil ??= Date.now() + 1_000;
        return Date.now() < limitedUntil ? fault.rateLimit({ retryAfterSeconds: 1 }) : reply.text('Hello');
      },
    });
    try {
      const p = prefix();
      const first = startWorker({
        ...base(),
        mode: 'generate',
        prefix: p,
        mock: mock.urls.openai,
        startAt: 0,
        coordinate: true,
      });
      const others = Array.from({ length: 4 }, (_, i) =>
        runWorker({
          ...base(),
          client: clientKinds[i % 3]!,
          mode: 'generate',
          prefix: p,
          mock: mock.urls.openai,
          startSignal: { key: `${p}start`, delayMs: 0 },
          coordinate: true,
        }),
      );
      // The others start once the first has been told to wait and has shared it (inside the 1 s window however slowly
      // they started): the cool-down is in Redis.
      await waitFor(async () => ((await command(parent, ['KEYS', `${p}cooldown:*`])) as string[]).length > 0);
      await giveStartSignal(parent, `${p}start`, 4);
      const results = [await first.firstLine, ...(await Promise.all(others))];
      expect(results.every((r) => r.ok === true && r.text === 'Hello')).toBe(true);
      // Five answers and the one 429 that told everybody.
      expect(mock.requests.length).toBe(6);
    } finally {
      await mock.close();
    }
  });

  it('a session written by one process is continued by another, and another', async () => {
    const mock = await startMockServer({
      script: [reply.text('Hello from A'), reply.text('Hello from B'), reply.text('Hello from C')],
    });
    try {
      const p = prefix();
      const job = {
        ...base(),
        mode: 'session-turn' as const,
        prefix: p,
        mock: mock.urls.openai,
        sessionId: 'chat-1',
      };
      expect(await runWorker({ ...job, text: 'first' })).toEqual({
        before: 0,
        after: 2,
        text: 'Hello from A',
      });
      expect(await runWorker({ ...job, client: 'ioredis', text: 'second' })).toEqual({
        before: 2,
        after: 4,
        text: 'Hello from B',
      });
      expect(await runWorker({ ...job, client: 'upstash', text: 'third' })).toEqual({
        before: 4,
        after: 6,
        text: 'Hello from C',
      });
      // B's request carried A's turn; C's carried both.
      const sent = JSON.stringify(mock.requests[1]?.body);
      expect(sent).toContain('first');
      expect(sent).toContain('Hello from A');
      expect(JSON.stringify(mock.requests[2]?.body)).toContain('Hello from B');
    } finally {
      await mock.close();
    }
  });

  it('killing the lease holder (SIGKILL) lets another process take the session once the lease expires', async () => {
    const p = prefix();
    const holder = startWorker({
      ...base(),
      mode: 'hold-lease',
      prefix: p,
      sessionId: 'chat-2',
      leaseMs: 600,
    });
    const held = await holder.firstLine;
    const leaseKey = `${p}session:{chat-2}:lease`;
    expect(await command(parent, ['GET', leaseKey])).toBe(held.token);
    const job = { ...base(), mode: 'hold-lease' as const, prefix: p, sessionId: 'chat-2', leaseMs: 600 };
    // While it lives, nobody else gets the session.
    expect(await runWorker({ ...job, client: 'ioredis' })).toEqual({
      held: false,
      error: 'SessionLeaseError',
      problem: 'held',
    });
    process.kill(holder.child.pid!, 'SIGKILL');
    await holder.exited;
    // Nobody released it: it is still held until it expires, then the next opener takes it (over HTTP: the open
    // loop asks again, it never blocks).
    const next = startWorker({ ...job, client: 'upstash', waitMs: 5_000 });
    const taken = await next.firstLine;
    process.kill(next.child.pid!, 'SIGKILL');
    await next.exited;
    expect(taken).toMatchObject({ held: true });
    expect(taken.token).not.toBe(held.token);
  });
});

async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400 && !(await condition()); i++)
    await new Promise((resolve) => setTimeout(resolve, 25));
  if (!(await condition())) throw new Error('condition not reached');
}
