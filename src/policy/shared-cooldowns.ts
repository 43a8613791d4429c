import { CooldownError } from '../errors/cooldown-error.js';
import { defaultLogger, type Logger } from '../util/logger.js';
import { isThenable } from '../util/shape.js';
import { type Clock, systemClock } from '../util/time.js';
import { checkClock, checkOptionsObject } from '../util/validate.js';
import { type BreakerStore, InMemoryBreakerStore } from './breaker-store.js';
import type { CooldownWait, Coordination } from './coordination.js';

/** Options of {@link InMemoryCoordination} (and of every coordination built on {@link SharedCooldowns}). */
export interface CoordinationOptions {
  /** Default: the system clock (this process's own cool-downs). */
  clock?: Clock;
  /** Where storage failures are reported (default: `NODE_DEBUG=graceful-ai`). */
  logger?: Logger;
}

/**
 * The cool-down rule on top of any shared storage: wait out a cool-down that fits the caller's `maxWaitMs` (looking
 * again after the wait: another caller may have extended it), else `CooldownError`. The cool-downs this process
 * announced are also kept here, so it honours its own while the shared storage fails; a storage failure is logged and
 * the call goes on. A subclass shares them (`sharedRemainingMs`, `shareCooldown`), synchronously or not.
 */
export class SharedCooldowns implements Coordination {
  readonly breakerStore?: BreakerStore;
  protected readonly logger: Logger;
  readonly #until = new Map<string, number>();
  readonly #clock: Clock;

  constructor(options: CoordinationOptions = {}) {
    checkOptionsObject('options', options);
    checkClock('clock', options.clock);
    checkOptionsObject('logger', options.logger);
    this.logger = options.logger ?? defaultLogger;
    this.#clock = options.clock ?? systemClock;
  }

  /** How long until `key` may be called again by what others announced, in ms (0: now). None here. */
  protected sharedRemainingMs(_key: string): number | Promise<number> {
    return 0;
  }

  /** Tells the others about a cool-down of `ms` for `key` (keeping a longer one). Nobody to tell here. */
  protected shareCooldown(_key: string, _ms: number): void | Promise<void> {}

  beforeCall(key: string, wait: CooldownWait, waitedMs = 0): void | Promise<void> {
    const shared = this.#shared(key);
    if (isThenable(shared)) return shared.then((ms) => this.#waitOut(key, wait, waitedMs, ms));
    return this.#waitOut(key, wait, waitedMs, shared);
  }

  async coolDown(key: string, ms: number): Promise<void> {
    if (!(ms > 0)) return;
    const until = this.#clock.now() + ms;
    if (until > (this.#until.get(key) ?? 0)) this.#until.set(key, until);
    try {
      await this.shareCooldown(key, Math.ceil(ms));
    } catch (error) {
      this.logger.warn(
        `graceful-ai: could not share the cool-down of '${key}'; other callers may still call`,
        {
          error,
        },
      );
    }
  }

  #local(key: string): number {
    const until = this.#until.get(key);
    if (until === undefined) return 0;
    const remaining = until - this.#clock.now();
    if (remaining > 0) return remaining;
    this.#until.delete(key);
    return 0;
  }

  #waitOut(key: string, wait: CooldownWait, waitedMs: number, sharedMs: number): void | Promise<void> {
    const remainingMs = Math.max(sharedMs, this.#local(key));
    if (!(remainingMs > 0)) return;
    if (waitedMs + remainingMs > wait.maxWaitMs) {
      throw new CooldownError({ key, retryAfterMs: remainingMs, maxWaitMs: wait.maxWaitMs });
    }
    return wait
      .sleep(remainingMs, wait.signal)
      .then(() => this.beforeCall(key, wait, waitedMs + remainingMs));
  }

  #shared(key: string): number | Promise<number> {
    const failed = (error: unknown) => {
      this.logger.warn(`graceful-ai: could not read the shared cool-down of '${key}'; calling without it`, {
        error,
      });
      return 0;
    };
    try {
      const remaining = this.sharedRemainingMs(key);
      return isThenable(remaining) ? Promise.resolve(remaining).catch(failed) : remaining;
    } catch (error) {
      return failed(error);
    }
  }
}

/** Coordination within one process: its cool-downs, and breakers in one shared in-memory store. */
export class InMemoryCoordination extends SharedCooldowns {
  override readonly breakerStore: InMemoryBreakerStore = new InMemoryBreakerStore();
}
