import type { Sleep } from '../util/time.js';
import type { BreakerStore } from './breaker-store.js';

/** How a caller may wait for a cool-down. */
export interface CooldownWait {
  /** The longest wait this call accepts; a longer cool-down fails it with `CooldownError`. */
  maxWaitMs: number;
  sleep: Sleep;
  signal?: AbortSignal;
}

/**
 * What processes share so that one of them finding out is enough: cool-downs (a provider's or tool's retry-after,
 * a circuit that opened) and, optionally, circuit breaker state. The retry loops only call these methods, so the
 * logic lives with the implementations: `InMemoryCoordination` (one process) and `RedisCoordination`
 * (`graceful-ai/redis`), both built on `SharedCooldowns`. Coordination saves requests; it must never block calls: an
 * implementation whose storage fails lets the call go and logs.
 */
export interface Coordination {
  /**
   * Before a call of `key`: returns when the call may go — at once, or after waiting out a cool-down that fits
   * `wait.maxWaitMs` — or throws `CooldownError` when the cool-down is longer. May answer synchronously.
   */
  beforeCall(key: string, wait: CooldownWait): void | Promise<void>;
  /** Nobody sharing this coordination should call `key` for the next `ms`; a longer cool-down already set is kept. */
  coolDown(key: string, ms: number): void | Promise<void>;
  /** Where circuit breakers keep their state when their tool shares this coordination (default: per process). */
  readonly breakerStore?: BreakerStore;
}

/** Throws a `TypeError` naming `option` unless `value` is a {@link Coordination} (or undefined). */
export function checkCoordination(option: string, value: unknown): void {
  const v = value as Partial<Coordination> | null | undefined;
  if (v !== undefined && (typeof v?.beforeCall !== 'function' || typeof v.coolDown !== 'function')) {
    throw new TypeError(
      `graceful-ai: option '${option}' must be a coordination (beforeCall and coolDown methods), e.g. redisCoordination(client).`,
    );
  }
}

/** The cool-down key of a tool. */
export const toolCooldownKey = (name: string): string => `tool:${name}`;
