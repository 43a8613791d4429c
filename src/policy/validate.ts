/**
 * Config checks run when a policy is built (when a tool is wrapped), so a typo fails at start-up with a
 * `RangeError` naming the option instead of at the tool's first failure. `undefined` (use the default) passes.
 */

function check(option: string, value: number | undefined, valid: (n: number) => boolean, rule: string): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !valid(value)) {
    throw new RangeError(`graceful-ai: option '${option}' must be ${rule}; got ${String(value)}.`);
  }
}

/** A finite number ≥ 0 (delays, budgets). */
export const checkNonNegative = (option: string, value: number | undefined): void =>
  check(option, value, (n) => Number.isFinite(n) && n >= 0, 'a finite number ≥ 0');

/** A finite number > 0 (timeouts). */
export const checkPositive = (option: string, value: number | undefined): void =>
  check(option, value, (n) => Number.isFinite(n) && n > 0, 'a finite number > 0');

/** An integer ≥ `min` (attempts, thresholds). */
export const checkInteger = (option: string, value: number | undefined, min = 1): void =>
  check(option, value, (n) => Number.isInteger(n) && n >= min, `an integer ≥ ${min}`);

/** A growth factor ≥ 1. */
export const checkMultiplier = (option: string, value: number | undefined): void =>
  check(option, value, (n) => Number.isFinite(n) && n >= 1, 'a finite number ≥ 1');

/** A jitter fraction in [0, 1). */
export const checkJitter = (option: string, value: number | undefined): void =>
  check(option, value, (n) => n >= 0 && n < 1, 'a fraction in [0, 1)');
