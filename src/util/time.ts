/** Injected time and randomness: every policy takes these so tests run on fake timers and fixed seeds. */
export interface Clock {
  /** Milliseconds, monotonic enough for durations (defaults to `Date.now`). */
  now(): number;
}

/** Resolves after `ms`; rejects with the signal's reason as soon as `signal` aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** A uniform number in [0, 1), like `Math.random`. */
export type Random = () => number;

export const systemClock: Clock = { now: () => Date.now() };
export const systemRandom: Random = () => Math.random();
