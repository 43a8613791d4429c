import type { Random } from '../util/time.js';

export interface BackoffOptions {
  /** Delay before the first retry (default 100 ms). */
  initialDelayMs: number;
  /** Growth per retry (default 2). */
  multiplier: number;
  /** Upper bound of any delay, jitter included (default 30 s). */
  maxDelayMs: number;
  /** Fraction of the delay added or removed at random: 0.1 = ±10%; 0 = exact delays. In [0, 1). */
  jitter: number;
}

/**
 * The delay before retry number `retry` (1 = the first retry): `initial × multiplier^(retry−1)`, then ±jitter,
 * then capped. `random() = 0.5` is the midpoint (no jitter).
 */
export function backoffDelay(retry: number, options: BackoffOptions, random: Random): number {
  const base = options.initialDelayMs * options.multiplier ** (retry - 1);
  const jittered = base * (1 + options.jitter * (2 * random() - 1));
  return Math.min(options.maxDelayMs, Math.max(0, jittered));
}
