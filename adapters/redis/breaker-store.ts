import type { BreakerState, BreakerStore } from '../../src/policy/breaker-store.js';
import { checkTimeoutMs } from '../../src/util/validate.js';
import {
  type RedisClientLike,
  RedisConnection,
  type RedisScript,
  type RedisStoreOptions,
} from './connection.js';

/** Options of {@link RedisBreakerStore}. */
export interface RedisBreakerStoreOptions extends RedisStoreOptions {
  /**
   * A breaker's record is dropped after this long without a write, in ms (it then reads as CLOSED, as a new
   * breaker). Keep it well above the breakers' `openMs`.
   * @default 3600000
   */
  ttlMs?: number;
}

export const defaultBreakerTtlMs = 3_600_000;

/** Writes `next` only if the record is still `expected` ('' = none); else answers the record as it is now. */
const compareAndSet: RedisScript = {
  source: `local current = redis.call('GET', KEYS[1]) or ''
if current ~= ARGV[1] then return {0, current} end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return {1, ''}`,
};

/** After this many lost races in a row the call gives up on Redis (and uses local state) rather than spin. */
const maxConflicts = 64;

/**
 * Circuit breaker state shared by every process using the same Redis (and prefix): one record per tool, under
 * `<prefix>breaker:<tool>`, holding the breaker's plain JSON state. Each transition is a compare-and-set in one Lua
 * script (read, decide in JS, write only if nobody wrote in between; else decide again), so two processes can never
 * both take the single HALF_OPEN trial. The breaker's semantics are the in-memory ones exactly: the OPEN state ends
 * at its `openUntil` with no process having to be alive to end it, and a trial that never reports frees its slot
 * after `openMs`.
 *
 * When Redis fails (down, restarting, slower than `commandTimeoutMs`), each process falls back to its own breakers,
 * starting from the last state it read: it keeps protecting itself (failures still open its local breaker) and
 * never stays closed or open forever. Once Redis answers again its record wins; a restarted Redis without
 * persistence has none, which reads as CLOSED.
 */
export class RedisBreakerStore implements BreakerStore {
  readonly #redis: RedisConnection;
  readonly #ttl: string;
  readonly #local = new Map<string, BreakerState>();

  constructor(client: RedisClientLike, options: RedisBreakerStoreOptions = {}) {
    this.#redis = new RedisConnection(client, options);
    checkTimeoutMs('ttlMs', options.ttlMs);
    this.#ttl = String(options.ttlMs ?? defaultBreakerTtlMs);
  }

  update<R>(
    key: string,
    change: (current: BreakerState | undefined) => { next: BreakerState; result: R },
  ): Promise<R> {
    return this.#redis.orLocal(
      `breaker '${key}'`,
      () => this.#remote(key, change),
      () => this.#localUpdate(key, change),
    );
  }

  /** The state of `key` in Redis (for inspection and tests); `undefined` when there is none. */
  async get(key: string): Promise<BreakerState | undefined> {
    const raw = await this.#redis.command(['GET', this.#key(key)]);
    return typeof raw === 'string' ? (JSON.parse(raw) as BreakerState) : undefined;
  }

  async #remote<R>(
    key: string,
    change: (current: BreakerState | undefined) => { next: BreakerState; result: R },
  ): Promise<R> {
    const redisKey = this.#key(key);
    let raw = asText(await this.#redis.command(['GET', redisKey]));
    for (let conflict = 0; conflict < maxConflicts; conflict++) {
      const current = raw === '' ? undefined : (JSON.parse(raw) as BreakerState);
      const { next, result } = change(current);
      const written = JSON.stringify(next);
      if (written !== raw) {
        const reply = await this.#redis.script(compareAndSet, [redisKey], [raw, written, this.#ttl]);
        const [ok, now] = reply as [number | string, unknown];
        if (Number(ok) !== 1) {
          raw = asText(now);
          continue;
        }
      }
      this.#local.set(key, next);
      return result;
    }
    throw new Error(
      `the breaker record '${redisKey}' changed ${maxConflicts} times while this process wrote it`,
    );
  }

  #localUpdate<R>(
    key: string,
    change: (current: BreakerState | undefined) => { next: BreakerState; result: R },
  ): R {
    const { next, result } = change(this.#local.get(key));
    this.#local.set(key, next);
    return result;
  }

  #key(key: string): string {
    return `${this.#redis.prefix}breaker:${key}`;
  }
}

function asText(reply: unknown): string {
  if (reply === null || reply === undefined) return '';
  return typeof reply === 'string' ? reply : String(reply);
}
