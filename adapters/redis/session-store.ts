import { SessionLeaseError } from '../../src/errors/session-lease-error.js';
import { abortableSleep } from '../../src/policy/sleep.js';
import type { SessionEntry } from '../../src/session/entries.js';
import type { SessionMessage } from '../../src/session/message.js';
import type { SessionStore } from '../../src/session/store.js';
import type { Sleep } from '../../src/util/time.js';
import { checkDelayMs, checkFunction, checkTimeoutMs } from '../../src/util/validate.js';
import {
  type RedisClientLike,
  RedisConnection,
  type RedisScript,
  type RedisStoreOptions,
} from './connection.js';

/** Options of {@link RedisSessionStore.open}. */
export interface RedisSessionStoreOptions extends Omit<RedisStoreOptions, 'offlineMs'> {
  /**
   * How long the lease lasts without renewal, in ms: a holder that crashed keeps the session at most this long.
   * Renewed every third of it while the store is open.
   * @default 30000
   */
  leaseMs?: number;
  /**
   * How long `open` keeps trying while another process holds the session, in ms (0: fail at once with
   * `SessionLeaseError`).
   * @default 0
   */
  waitMs?: number;
  /** Default: `abortableSleep` (between tries of `open`). */
  sleep?: Sleep;
}

export const defaultRedisSessionOptions = { leaseMs: 30_000, waitMs: 0 } as const;

/** Appends entries only while the lease is ours (the fencing check), and renews it; 0 when the lease is gone. */
const appendScript: RedisScript = {
  source: `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
for i = 3, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`,
};

/** Renews the lease if it is still ours. */
const renewScript: RedisScript = {
  source: `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`,
};

/** Gives the lease up if it is still ours. */
const releaseScript: RedisScript = {
  source: `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`,
};

const randomToken = (): string => globalThis.crypto.randomUUID();

/**
 * An `AgentSession` store in Redis, so a session started on one instance continues on another: the entries are a list
 * (`<prefix>session:{<id>}:entries`, one JSON entry each, append-only) and one process at a time holds the session's
 * lease (`<prefix>session:{<id>}:lease`, a random token with an expiry, renewed while the store is open). Every write
 * checks the token in the same Lua script that appends (fencing): a process that lost its lease — paused past it,
 * cut off from Redis, or after a Redis restart — can never write over the new holder's history.
 *
 * `append` keeps the entry and sends it in order; `flush()` resolves once Redis holds it. A write Redis refuses (lost
 * lease, Redis down) makes `flush()` reject and every later `append` throw, and `entries` falls back to what Redis
 * confirmed. A session awaits `flush()` before each request, after each step and before a turn settles, so the
 * turn that made the write fails with `SessionStoreError`; open the session again to go on from what Redis holds.
 * There is no local fallback: a session that cannot be saved fails, it never diverges silently.
 */
export class RedisSessionStore<M extends SessionMessage = SessionMessage> implements SessionStore<M> {
  readonly sessionId: string;
  /** This holder's lease token (random per `open`). */
  readonly token: string;
  readonly #redis: RedisConnection;
  readonly #entries: SessionEntry<M>[];
  /** How many of `#entries` Redis has confirmed. */
  #kept: number;
  readonly #keys: { lease: string; entries: string };
  readonly #leaseMs: string;
  #writes: Promise<void> = Promise.resolve();
  #failure: unknown;
  #closed = false;
  #renewal: ReturnType<typeof setInterval> | undefined;

  private constructor(
    redis: RedisConnection,
    sessionId: string,
    token: string,
    entries: SessionEntry<M>[],
    leaseMs: number,
  ) {
    this.#redis = redis;
    this.sessionId = sessionId;
    this.token = token;
    this.#entries = entries;
    this.#kept = entries.length;
    this.#keys = keysOf(redis.prefix, sessionId);
    this.#leaseMs = String(leaseMs);
    this.#renewal = setInterval(() => void this.#renew(), Math.max(1, Math.floor(leaseMs / 3)));
    // A session left open must not keep a Node process alive.
    (this.#renewal as { unref?: () => void }).unref?.();
  }

  /**
   * Takes the session's lease (waiting up to `waitMs` while another process holds it, else `SessionLeaseError`
   * `held`) and loads its entries.
   */
  static async open<M extends SessionMessage = SessionMessage>(
    client: RedisClientLike,
    sessionId: string,
    options: RedisSessionStoreOptions = {},
  ): Promise<RedisSessionStore<M>> {
    const redis = new RedisConnection(client, options);
    if (typeof sessionId !== 'string' || sessionId === '') {
      throw new TypeError(
        `graceful-ai: the session id must be a non-empty string; got ${String(sessionId)}.`,
      );
    }
    checkTimeoutMs('leaseMs', options.leaseMs);
    checkDelayMs('waitMs', options.waitMs);
    checkFunction('sleep', options.sleep);
    const leaseMs = options.leaseMs ?? defaultRedisSessionOptions.leaseMs;
    const keys = keysOf(redis.prefix, sessionId);
    const token = randomToken();
    let waited = 0;
    for (;;) {
      const taken = await redis.command(['SET', keys.lease, token, 'NX', 'PX', String(leaseMs)]);
      if (taken !== null && taken !== undefined) break;
      const left = Number(await redis.command(['PTTL', keys.lease]));
      const waitMs = options.waitMs ?? defaultRedisSessionOptions.waitMs;
      const pause = Math.min(Math.max(1, left), Math.max(1, Math.floor(leaseMs / 4)));
      if (waited + pause > waitMs) {
        throw new SessionLeaseError({
          sessionId,
          problem: 'held',
          retryAfterMs: left > 0 ? left : undefined,
        });
      }
      await (options.sleep ?? abortableSleep)(pause);
      waited += pause;
    }
    const raw = (await redis.command(['LRANGE', keys.entries, '0', '-1'])) as unknown[];
    const entries = raw.map((line, index) => {
      try {
        return JSON.parse(String(line)) as SessionEntry<M>;
      } catch (error) {
        void redis.script(releaseScript, [keys.lease], [token]).catch(() => {});
        throw new TypeError(
          `graceful-ai: entry ${index + 1} of session '${sessionId}' in Redis (${keys.entries}) is not valid JSON; ` +
            'repair or remove it, then open the session again.',
          { cause: error },
        );
      }
    });
    return new RedisSessionStore<M>(redis, sessionId, token, entries, leaseMs);
  }

  get entries(): readonly SessionEntry<M>[] {
    return this.#entries;
  }

  append(entry: SessionEntry<M>): void {
    this.appendAll([entry]);
  }

  /** Keeps the entries and sends them as one unit; throws (keeping none) once a write failed or the store closed. */
  appendAll(entries: readonly SessionEntry<M>[]): void {
    if (this.#closed) throw new SessionLeaseError({ sessionId: this.sessionId, problem: 'closed' });
    if (this.#failure !== undefined) throw this.#failure;
    const lines = entries.map((entry) => JSON.stringify(entry));
    this.#entries.push(...entries);
    this.#writes = this.#writes.then(async () => {
      if (this.#failure !== undefined) return;
      try {
        const { lease, entries: list } = this.#keys;
        const written = await this.#redis.script(
          appendScript,
          [lease, list],
          [this.token, this.#leaseMs, ...lines],
        );
        if (Number(written) === 1) this.#kept += lines.length;
        else this.#fail(undefined);
      } catch (error) {
        this.#fail(error);
      }
    });
  }

  /**
   * Resolves once every entry appended so far is in Redis; rejects with the failure that stopped the writes
   * (`entries` then holds only what Redis confirmed).
   */
  async flush(): Promise<void> {
    await this.#writes;
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** Writes what is pending, then gives the lease up. Appends are refused from now on. */
  async release(): Promise<void> {
    this.#stop();
    await this.#writes;
    await this.#redis.script(releaseScript, [this.#keys.lease], [this.token]);
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** `release()` without waiting; a failure is logged. */
  close(): void {
    if (this.#closed) return;
    this.release().catch((error: unknown) => {
      this.#redis.logger.warn(`graceful-ai/redis: session '${this.sessionId}' was not released cleanly`, {
        error,
      });
    });
  }

  #stop(): void {
    this.#closed = true;
    clearInterval(this.#renewal);
  }

  #fail(cause: unknown): void {
    this.#failure ??= new SessionLeaseError({ sessionId: this.sessionId, problem: 'lost', cause });
    clearInterval(this.#renewal);
    // Writes stop at the first failure: what was not confirmed by now never will be.
    this.#entries.length = this.#kept;
  }

  async #renew(): Promise<void> {
    try {
      const renewed = await this.#redis.script(renewScript, [this.#keys.lease], [this.token, this.#leaseMs]);
      if (Number(renewed) !== 1) this.#fail(undefined);
    } catch {
      // Tried again at the next renewal; once the lease has expired the append script refuses, and says so.
    }
  }
}

function keysOf(prefix: string, sessionId: string): { lease: string; entries: string } {
  // The id in braces is a Redis Cluster hash tag: both keys of one session live on one node.
  return {
    lease: `${prefix}session:{${sessionId}}:lease`,
    entries: `${prefix}session:{${sessionId}}:entries`,
  };
}
