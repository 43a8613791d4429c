import { CooldownError } from '../errors/cooldown-error.js';
import { defaultLogger, type Logger } from '../observe/logger.js';
import { isThenable } from '../util/shape.js';
import { type Clock, type Sleep, systemClock } from '../util/time.js';
import { checkClock } from '../util/validate.js';
import { type BreakerStore, InMemoryBreakerStore } from './breaker-store.js';

/**
 * What processes share so that one of them finding out is enough: cool-downs (a provider's or tool's retry-after,
 * a circuit that opened) and, optionally, circuit breaker state. Durations are relative, so a store shared by many
 * machines never compares their clocks. Methods may answer synchronously (in memory) or asynchronously (Redis).
 * An implementation that throws or rejects is logged and treated as "no cool-down": coordination saves requests,
 * it never blocks calls.
 */
export interface Coordination {
  /** How long until `key` may be called again, in ms; 0 when it may be called now. */
  cooldownRemainingMs(key: string): number | Promise<number>;
  /** Nobody sharing this coordination should call `key` for the next `ms`; a longer cool-down already set is kept. */
  coolDown(key: string, ms: number): void | Promise<void>;
  /** Where circuit breakers keep their state when their tool shares this coordination (default: per process). */
  readonly breakerStore?: BreakerStore;
}

/** Throws a `TypeError` naming `option` unless `value` is a {@link Coordination} (or undefined). */
export function checkCoordination(option: string, value: unknown): void {
  if (value === undefined) return;
  const v = value as Partial<Record<keyof Coordination, unknown>> | null;
  const valid =
    typeof v === 'object' &&
    v !== null &&
    typeof v.cooldownRemainingMs === 'function' &&
    typeof v.coolDown === 'function' &&
    (v.breakerStore === undefined ||
      (typeof v.breakerStore === 'object' &&
        v.breakerStore !== null &&
        typeof (v.breakerStore as { update?: unknown }).update === 'function'));
  if (!valid) {
    throw new TypeError(
      `graceful-ai: option '${option}' must be a coordination (cooldownRemainingMs and coolDown methods, e.g. ` +
        `new InMemoryCoordination() or redisCoordination(client) from 'graceful-ai/redis'); got ${describe(value)}.`,
    );
  }
}

function describe(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? String(value);
  return 'an object without them';
}

/** A coordination within one process: cool-downs in a Map, breakers in one shared in-memory store. */
export class InMemoryCoordination implements Coordination {
  readonly breakerStore: InMemoryBreakerStore = new InMemoryBreakerStore();
  readonly #until = new Map<string, number>();
  readonly #clock: Clock;

  constructor(options: { clock?: Clock } = {}) {
    checkClock('clock', options.clock);
    this.#clock = options.clock ?? systemClock;
  }

  cooldownRemainingMs(key: string): number {
    const until = this.#until.get(key);
    if (until === undefined) return 0;
    const remaining = until - this.#clock.now();
    if (remaining > 0) return remaining;
    this.#until.delete(key);
    return 0;
  }

  coolDown(key: string, ms: number): void {
    const until = this.#clock.now() + ms;
    if (until > (this.#until.get(key) ?? 0)) this.#until.set(key, until);
  }
}

/** How a caller may wait for a cool-down. */
export interface CooldownWait {
  /** The longest wait this call accepts; a longer cool-down fails it with `CooldownError`. */
  maxWaitMs: number;
  sleep: Sleep;
  signal?: AbortSignal;
  logger?: Logger;
}

/**
 * Waits until `key`'s cool-down is over when it fits `maxWaitMs` (looking again after the wait: another caller may
 * have extended it), or throws `CooldownError` at once. Answers synchronously when the coordination does and there
 * is nothing to wait for, so a caller can still start its call in the same tick.
 */
export function waitForCooldown(
  coordination: Coordination,
  key: string,
  wait: CooldownWait,
  waitedMs = 0,
): void | Promise<void> {
  const remaining = remainingOf(coordination, key, wait.logger);
  if (isThenable(remaining)) return remaining.then((ms) => waitOut(coordination, key, wait, waitedMs, ms));
  return waitOut(coordination, key, wait, waitedMs, remaining);
}

function waitOut(
  coordination: Coordination,
  key: string,
  wait: CooldownWait,
  waitedMs: number,
  remainingMs: number,
): void | Promise<void> {
  if (!(remainingMs > 0)) return;
  if (waitedMs + remainingMs > wait.maxWaitMs) {
    throw new CooldownError({ key, retryAfterMs: remainingMs, maxWaitMs: wait.maxWaitMs });
  }
  return wait
    .sleep(remainingMs, wait.signal)
    .then(() => waitForCooldown(coordination, key, wait, waitedMs + remainingMs));
}

function remainingOf(
  coordination: Coordination,
  key: string,
  logger = defaultLogger,
): number | Promise<number> {
  const failed = (error: unknown) => {
    logger.warn(`graceful-ai: coordination could not read the cool-down of '${key}'; calling without it`, {
      error,
    });
    return 0;
  };
  try {
    const remaining = coordination.cooldownRemainingMs(key);
    return isThenable(remaining) ? Promise.resolve(remaining).catch(failed) : remaining;
  } catch (error) {
    return failed(error);
  }
}

/** Tells everyone sharing `coordination` to leave `key` alone for `ms`; a failure is logged, never thrown. */
export async function announceCooldown(
  coordination: Coordination,
  key: string,
  ms: number,
  logger: Logger = defaultLogger,
): Promise<void> {
  if (!(ms > 0)) return;
  try {
    await coordination.coolDown(key, Math.ceil(ms));
  } catch (error) {
    logger.warn(
      `graceful-ai: coordination could not share the cool-down of '${key}'; other callers may still call`,
      {
        error,
      },
    );
  }
}

/** The cool-down key of a tool. */
export const toolCooldownKey = (name: string): string => `tool:${name}`;
