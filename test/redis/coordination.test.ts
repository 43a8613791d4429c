/**
 * `redisCoordination(client)` through each supported client against one redis-server: what one client announces
 * (a cool-down, an open breaker) every other client sees, so an HTTP client in an edge function and a TCP client in
 * a Node server share one picture. The breaker is keyed as a model's would be (provider, model id, API-key
 * fingerprint): the per-model breaker uses `coordination.breakerStore` exactly as tools do.
 */
import { Redis as UpstashRedis } from '@upstash/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisCoordination } from '../../adapters/redis/coordination.js';
import { CircuitOpenError } from '../../src/errors/circuit-open-error.js';
import { CooldownError } from '../../src/errors/cooldown-error.js';
import { CircuitBreaker } from '../../src/policy/circuit-breaker.js';
import { virtualTime } from '../src/policy/fixtures.js';
import { clientKinds, command, connect, type TestClient } from './clients.js';
import { describeWithRedis } from './describe-with-redis.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const modelKey = 'model:openai.chat:gpt-4o-mini:1a2b3c4d5e6f7a8b';

describeWithRedis('redisCoordination shared by every client', (server) => {
  const clients = new Map<string, TestClient>();
  beforeAll(async () => {
    for (const kind of clientKinds) clients.set(kind, await connect(kind, server().url));
  });
  afterAll(async () => {
    for (const client of clients.values()) await client.quit();
  });
  const client = (kind: string) => clients.get(kind)!;
  let n = 0;

  for (const kind of clientKinds) {
    const other = kind === 'node-redis' ? 'upstash' : 'node-redis';

    it(`a cool-down announced through ${kind} makes a caller on ${other} wait or fail fast; a longer one is kept`, async () => {
      const prefix = `coordination:${n++}:`;
      const announcer = redisCoordination(client(kind).client, { prefix, logger: quiet });
      const caller = redisCoordination(client(other).client, { prefix, logger: quiet });
      await announcer.coolDown(modelKey, 30_000);
      await announcer.coolDown(modelKey, 1_000);
      const pttl = Number(await command(client(other), ['PTTL', `${prefix}cooldown:${modelKey}`]));
      expect(pttl).toBeGreaterThan(25_000);
      const time = virtualTime(0);
      const refused = await Promise.resolve(
        caller.beforeCall(modelKey, { maxWaitMs: 5_000, sleep: time.sleep }),
      ).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(CooldownError.isInstance(refused), String(refused)).toBe(true);
      expect((refused as CooldownError).retryAfterMs).toBeGreaterThan(25_000);
      // A cool-down that fits what the caller may wait is slept out (Redis's own expiry is the clock), then it goes.
      const short = `${modelKey}:short`;
      await announcer.coolDown(short, 200);
      const slept: number[] = [];
      const sleep = (ms: number) => {
        slept.push(ms);
        return new Promise<void>((resolve) => setTimeout(resolve, ms));
      };
      await caller.beforeCall(short, { maxWaitMs: 5_000, sleep });
      expect(slept.length).toBeGreaterThan(0);
      expect(slept[0]).toBeGreaterThan(0);
      expect(slept[0]).toBeLessThanOrEqual(200);
    });

    it(`a model's breaker opened through ${kind} rejects on ${other}; after openMs exactly one trial, across both`, async () => {
      const prefix = `coordination:${n++}:`;
      const time = virtualTime(1_000);
      const breakerOn = (k: string) =>
        new CircuitBreaker(modelKey, {
          failureThreshold: 1,
          openMs: 30_000,
          clock: time.clock,
          store: redisCoordination(client(k).client, { prefix, logger: quiet }).breakerStore,
        });
      const [here, there] = [breakerOn(kind), breakerOn(other)];
      expect(await here.record(await here.acquire(), 'failure')).toBe('open');
      const rejected = await there.acquire().catch((error: unknown) => error);
      expect(CircuitOpenError.isInstance(rejected)).toBe(true);
      expect(rejected).toMatchObject({ retryAfterMs: 30_000 });
      time.advance(30_000);
      const permits = await Promise.allSettled([there.acquire(), here.acquire(), there.acquire()]);
      const trials = permits.filter((p) => p.status === 'fulfilled');
      expect(trials).toHaveLength(1);
      expect(trials[0]).toMatchObject({ value: { trial: true } });
    });
  }
});

describe('the client given to graceful-ai/redis', () => {
  it('a client with none of the three command methods is a TypeError that names the three clients', () => {
    for (const bad of [null, 'redis://localhost', { get() {} }]) {
      expect(() => redisCoordination(bad as never)).toThrow(
        /node-redis client .*sendCommand.*ioredis client .*call.*@upstash\/redis client .*exec/,
      );
    }
  });

  it('an @upstash/redis client is taken as it is (the auto-pipelining proxy it returns included)', () => {
    const redis = new UpstashRedis({ url: 'https://example.upstash.io', token: 'token' });
    expect(redisCoordination(redis).breakerStore).toBeDefined();
  });
});
