/** Injected time and randomness: every policy takes these so tests run on fake timers and fixed seeds. */
export interface Clock {
  /** Milliseconds, monotonic enough for durations (defaults to `Date.now`). */
  now(): number;
}

/** Resolves after `ms`; rejects with the signal's reason as soon as `signal` aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** A uniform number in [0, 1), like `Math.random`. */
export type Random = () => number;

/**
 * A started timer. Node's has `ref`/`unref` (whether it keeps the process alive), as do fake timers; other runtimes'
 * may be a plain number, which is why both methods are optional.
 */
export interface TimerHandle {
  ref?(): unknown;
  unref?(): unknown;
}

/** Starts and stops timers; injected where a timer's hold on the process matters (tests count them). */
export interface Timers {
  set(callback: () => void, ms: number): TimerHandle;
  clear(timer: TimerHandle): void;
}

export const systemClock: Clock = { now: () => Date.now() };

/** The global `setTimeout`/`clearTimeout`, looked up at each call so that fake timers installed later apply. */
export const systemTimers: Timers = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (timer) => clearTimeout(timer as Parameters<typeof clearTimeout>[0]),
};
export const systemRandom: Random = () => Math.random();
