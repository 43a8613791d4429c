/**
 * The one thing graceful-ai/redis needs of a Redis client: send a command as its words and get the reply. The major
 * clients each have such a method — node-redis `sendCommand(['GET', key])`, ioredis `call('GET', key)` over TCP,
 * and `@upstash/redis` `exec(['GET', key])` over HTTP (edge runtimes, Workers) — so the user's own client
 * (connected, configured, shared with the app) is used as it is, and none is a dependency.
 */
import { defaultLogger, type Logger } from '../../src/util/logger.js';
import { type Clock, systemClock } from '../../src/util/time.js';
import { checkClock, checkOptionsObject, checkTimeoutMs } from '../../src/util/validate.js';

/**
 * A node-redis (v5+), ioredis (v5+) or `@upstash/redis` (1.35.2+) client, or anything with one of their command
 * methods.
 */
export type RedisClientLike =
  | { sendCommand(args: string[]): Promise<unknown> }
  | { call(command: string, ...args: string[]): Promise<unknown> }
  | { exec(args: [string, ...string[]]): Promise<unknown> };

/** Options every graceful-ai/redis store takes. */
export interface RedisStoreOptions {
  /**
   * Prefix of every key this store writes (see docs/scale-out.md for the layout).
   * @default 'graceful-ai:'
   */
  prefix?: string;
  /**
   * A command not answered within this many ms counts as Redis being unavailable (clients queue commands while
   * reconnecting, which would otherwise hold every call).
   * @default 500
   */
  commandTimeoutMs?: number;
  /**
   * After Redis failed to answer, how long this process uses its own state before asking Redis again, in ms.
   * @default 1000
   */
  offlineMs?: number;
  /** Where "Redis unavailable" and "Redis answers again" are reported (default: `NODE_DEBUG=graceful-ai`). */
  logger?: Logger;
  /** Default: the system clock (for `offlineMs`). */
  clock?: Clock;
}

export const defaultRedisStoreOptions = {
  prefix: 'graceful-ai:',
  commandTimeoutMs: 500,
  offlineMs: 1000,
} as const;

/** A Lua script, sent by its SHA-1 once Redis knows it. */
export interface RedisScript {
  readonly source: string;
}

/** Checks the shared options (a `TypeError`/`RangeError` naming the option) and the client. */
export function checkRedisStoreOptions(client: unknown, options: RedisStoreOptions): void {
  const c = client as { sendCommand?: unknown; call?: unknown; exec?: unknown } | null;
  if (
    typeof c !== 'object' ||
    c === null ||
    (typeof c.sendCommand !== 'function' && typeof c.call !== 'function' && typeof c.exec !== 'function')
  ) {
    throw new TypeError(
      'graceful-ai: the Redis client must be a node-redis client (createClient from "redis", with sendCommand), ' +
        'an ioredis client (new Redis() from "ioredis", with call) or an @upstash/redis client (new Redis({ url, token }) ' +
        `from "@upstash/redis", with exec); got ${c === null || typeof c !== 'object' ? String(c) : 'an object with none of them'}.`,
    );
  }
  checkOptionsObject('options', options);
  if (options.prefix !== undefined && typeof options.prefix !== 'string') {
    throw new TypeError(`graceful-ai: option 'prefix' must be a string; got ${String(options.prefix)}.`);
  }
  checkTimeoutMs('commandTimeoutMs', options.commandTimeoutMs);
  checkTimeoutMs('offlineMs', options.offlineMs);
  checkOptionsObject('logger', options.logger);
  checkClock('clock', options.clock);
}

/**
 * Commands with a time limit, scripts by SHA-1, and the process's view of whether Redis is there: after a failure the
 * stores use their own state for `offlineMs`, then try Redis again. Each change is logged once.
 */
export class RedisConnection {
  readonly prefix: string;
  readonly logger: Logger;
  readonly #send: (args: string[]) => Promise<unknown>;
  readonly #timeoutMs: number;
  readonly #offlineMs: number;
  readonly #clock: Clock;
  readonly #shas = new Map<RedisScript, Promise<string>>();
  #offlineUntil = 0;
  #down = false;

  constructor(client: RedisClientLike, options: RedisStoreOptions = {}) {
    checkRedisStoreOptions(client, options);
    this.#send = commandSender(client);
    this.prefix = options.prefix ?? defaultRedisStoreOptions.prefix;
    this.#timeoutMs = options.commandTimeoutMs ?? defaultRedisStoreOptions.commandTimeoutMs;
    this.#offlineMs = options.offlineMs ?? defaultRedisStoreOptions.offlineMs;
    this.logger = options.logger ?? defaultLogger;
    this.#clock = options.clock ?? systemClock;
  }

  /** Whether Redis failed within the last `offlineMs`: use local state without asking. */
  get offline(): boolean {
    return this.#clock.now() < this.#offlineUntil;
  }

  /** Sends one command; rejects when Redis answers with an error or not within `commandTimeoutMs`. */
  command(args: string[]): Promise<unknown> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`Redis did not answer ${args[0]} within ${this.#timeoutMs} ms`)),
        this.#timeoutMs,
      );
    });
    // A client that throws instead of rejecting (a closed node-redis client) still ends here.
    const sent = new Promise<unknown>((resolve) => resolve(this.#send(args)));
    return Promise.race([sent, timeout]).finally(() => clearTimeout(timer));
  }

  /** Runs a script by its SHA-1; a Redis that does not know it yet (or was restarted) gets its source once. */
  async script(script: RedisScript, keys: string[], args: string[]): Promise<unknown> {
    const sha = await this.#sha(script);
    const words = [String(keys.length), ...keys, ...args];
    try {
      return await this.command(['EVALSHA', sha, ...words]);
    } catch (error) {
      if (!String((error as { message?: unknown } | null)?.message ?? error).includes('NOSCRIPT'))
        throw error;
      return this.command(['EVAL', script.source, ...words]);
    }
  }

  /**
   * `remote()` when Redis is there, else (and when it fails) `local()`. A failure starts `offlineMs` of local-only
   * answers; the first success after that is reported too.
   */
  async orLocal<T>(what: string, remote: () => Promise<T>, local: () => T): Promise<T> {
    if (this.offline) return local();
    try {
      const value = await remote();
      if (this.#down) {
        this.#down = false;
        this.logger.info('graceful-ai/redis: Redis answers again; shared state resumes');
      }
      return value;
    } catch (error) {
      this.#offlineUntil = this.#clock.now() + this.#offlineMs;
      if (!this.#down) {
        this.#down = true;
        this.logger.warn(
          `graceful-ai/redis: Redis failed (${what}); this process uses its own state until Redis answers again`,
          { error },
        );
      }
      return local();
    }
  }

  #sha(script: RedisScript): Promise<string> {
    let sha = this.#shas.get(script);
    if (sha === undefined) {
      sha = sha1(script.source);
      this.#shas.set(script, sha);
    }
    return sha;
  }
}

/**
 * How `client` sends one command. ioredis has an internal `sendCommand` too (taking its own Command objects): its
 * `call` comes first. `@upstash/redis` sends each `exec` as one HTTP request (never auto-pipelined since 1.35.2).
 */
export function commandSender(client: RedisClientLike): (args: string[]) => Promise<unknown> {
  const c = client as {
    call?: (command: string, ...args: string[]) => Promise<unknown>;
    sendCommand?: (args: string[]) => Promise<unknown>;
    exec?: (args: string[]) => Promise<unknown>;
  };
  if (typeof c.call === 'function') return (args) => c.call!(args[0] as string, ...args.slice(1));
  if (typeof c.sendCommand === 'function') return (args) => c.sendCommand!(args);
  return async (args) => asStored(await c.exec!(args));
}

/**
 * A reply of `@upstash/redis` as Redis sent it. Unless created with `automaticDeserialization: false`, that client
 * reads every reply as JSON: '{"state":"open",…}' arrives as an object, '7' as the number 7. graceful-ai stores only
 * text that `JSON.stringify` wrote and tokens that are no JSON, so writing a parsed value back gives the very text
 * Redis holds (the breaker's compare-and-set compares it byte for byte); numbers stay numbers, as integer replies are.
 */
function asStored(reply: unknown): unknown {
  if (reply === null || typeof reply === 'string' || typeof reply === 'number') return reply;
  if (Array.isArray(reply)) return reply.map(asStored);
  return JSON.stringify(reply);
}

async function sha1(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-1', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
