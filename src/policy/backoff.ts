import type { Random } from '../util/time.js';
import { checkDelayMs, checkJitter, checkMultiplier } from '../util/validate.js';

/** How the delay before each retry grows. Every layer uses these names (see docs/README.md, knobs at a glance). */
export interface BackoffOptions {
  /** Delay before the first retry, in ms. */
  initialDelayMs: number;
  /** Growth per retry (2 doubles the delay). */
  multiplier: number;
  /** Upper bound of one delay, jitter included, in ms. */
  maxDelayMs: number;
  /** Fraction of the delay added or removed at random: 0.1 = ±10%; 0 = exact delays. In [0, 1]. */
  jitter: number;
}

/** Checks the backoff fields that are set; `prefix` names their place (e.g. `autoRetry.`). */
export function validateBackoff(options: Partial<BackoffOptions>, prefix: string): void {
  checkDelayMs(`${prefix}initialDelayMs`, options.initialDelayMs);
  checkMultiplier(`${prefix}multiplier`, options.multiplier);
  checkDelayMs(`${prefix}maxDelayMs`, options.maxDelayMs);
  checkJitter(`${prefix}jitter`, options.jitter);
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
