import type { CircuitState } from '../observe/tool-events.js';

/** The persisted state of one breaker; plain JSON so a shared store can hold it. */
export interface BreakerState {
  state: CircuitState;
  /** Consecutive transient failures while CLOSED. */
  failures: number;
  /** Consecutive successful trials while HALF_OPEN. */
  successes: number;
  /** Clock time (ms) when OPEN ends and a trial may start. */
  openUntil: number;
  /** Clock time (ms) the running HALF_OPEN trial started, or null when the trial slot is free. */
  trialStartedAt: number | null;
}

/**
 * Where breakers keep their state, keyed by tool. `update` must apply `change` atomically for that key (the
 * in-memory store is synchronous; a shared store can compare-and-set and retry) and return its `result`.
 * Async-capable so a store can live outside the process.
 */
export interface BreakerStore {
  update<R>(
    key: string,
    change: (current: BreakerState | undefined) => { next: BreakerState; result: R },
  ): R | Promise<R>;
}

/** The default store: a Map in this process. Each wrapped tool gets its own unless you share one. */
export class InMemoryBreakerStore implements BreakerStore {
  readonly #states = new Map<string, BreakerState>();

  update<R>(
    key: string,
    change: (current: BreakerState | undefined) => { next: BreakerState; result: R },
  ): R {
    const { next, result } = change(this.#states.get(key));
    this.#states.set(key, next);
    return result;
  }

  /** The stored state of `key` (for inspection and tests). */
  get(key: string): BreakerState | undefined {
    return this.#states.get(key);
  }
}
