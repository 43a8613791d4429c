/**
 * The program run inside a non-Node runtime against a local Upstash REST endpoint (`test/redis/upstash-endpoint.ts`):
 * `graceful-ai/redis` with an `@upstash/redis` client, bundled whole by `bundle.ts`. It does what the drop-ins do
 * through `coordination`, and what a chat route does with a session: opens a model's breaker (keyed as the per-model
 * breaker keys it), announces a provider's cool-down and finds it, keeps a session turn and releases the session.
 * The test then reads Redis over TCP.
 */
import { Redis } from '@upstash/redis';
import { RedisSessionStore, redisCoordination } from '../../adapters/redis/index.js';
import { CircuitBreaker } from '../../src/policy/index.js';
import { type RuntimeFacts, runtimeFacts, withConsoleRecorded } from './console-record.js';

export const MODEL_KEY = 'model:openai.chat:gpt-4o-mini:1a2b3c4d5e6f7a8b';
export const SESSION_ID = 'edge-chat';
export const USER_TEXT = 'hello from the edge';

export interface RedisProgramInput {
  url: string;
  token: string;
  prefix: string;
}

export interface RedisProgramResult {
  runtime: RuntimeFacts;
  /** The breaker's state after one failure (threshold 1), and what a second breaker on the same key then says. */
  breaker: string;
  second: string;
  /** The error a caller that may not wait gets after the cool-down was announced. */
  cooldown: string;
  /** The session's entries once Redis holds them. */
  entries: number;
  /** graceful-ai's own log lines (a fallback to local state would log one). */
  logged: string[];
  console: string[];
}

export async function run({ url, token, prefix }: RedisProgramInput): Promise<RedisProgramResult> {
  const logged: string[] = [];
  const log = (message: string) => void logged.push(message);
  const logger = { debug: log, info: log, warn: log, error: log };
  const { value, console: calls } = await withConsoleRecorded(async () => {
    const redis = new Redis({ url, token });
    const coordination = redisCoordination(redis, { prefix, logger });
    const breakerOn = () =>
      new CircuitBreaker(MODEL_KEY, {
        failureThreshold: 1,
        openMs: 60_000,
        store: coordination.breakerStore,
      });
    const first = breakerOn();
    const breaker = await first.record(await first.acquire(), 'failure');
    const second = await breakerOn()
      .acquire()
      .then(
        () => 'admitted',
        (error: Error) => error.name,
      );
    await coordination.coolDown(MODEL_KEY, 30_000);
    const cooldown = await Promise.resolve(
      coordination.beforeCall(MODEL_KEY, { maxWaitMs: 0, sleep: async () => {} }),
    ).then(
      () => 'went',
      (error: Error) => error.name,
    );
    const store = await RedisSessionStore.open(redis, SESSION_ID, { prefix, logger });
    store.append({ type: 'message', at: 1, message: { role: 'user', content: USER_TEXT } });
    await store.flush();
    const entries = store.entries.length;
    await store.release();
    return { breaker, second, cooldown, entries };
  });
  return { runtime: runtimeFacts(), ...value, logged, console: calls };
}
