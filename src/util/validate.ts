/**
 * Option checks, run where an option is given (when a tool is wrapped, a guard or session is built, a call
 * starts), so a typo fails at once with an error naming the option and its rule instead of misbehaving later.
 * `undefined` (use the default) always passes. A value of the wrong type is a `TypeError`; a number outside its
 * rule is a `RangeError`.
 */

/** The longest delay a timer can take: Node (and browsers) fire anything longer after ~1 ms. */
export const maxTimerMs = 2 ** 31 - 1;

function fail(option: string, rule: string, value: unknown, numeric = true): never {
  const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
  const message = `graceful-ai: option '${option}' must be ${rule}; got ${shown}.`;
  // A number is out of range only where a number is expected; `breaker: 5` is of the wrong type.
  throw numeric && typeof value === 'number' ? new RangeError(message) : new TypeError(message);
}

function check(option: string, value: unknown, valid: (n: number) => boolean, rule: string): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !valid(value)) fail(option, rule, value);
}

const integer = (min: number) => (n: number) => Number.isInteger(n) && n >= min;

/** A count of retries or items: an integer ≥ `min` (default 0). */
export const checkCount = (option: string, value: unknown, min = 0): void =>
  check(option, value, integer(min), `an integer ≥ ${min}`);

/** A delay that becomes a timer: a finite number of ms in [0, 2^31−1]. */
export const checkDelayMs = (option: string, value: unknown): void =>
  check(option, value, (n) => n >= 0 && n <= maxTimerMs, `a number of ms in [0, ${maxTimerMs}]`);

/** A timeout that becomes a timer: a number of ms in (0, 2^31−1]. */
export const checkTimeoutMs = (option: string, value: unknown): void =>
  check(option, value, (n) => n > 0 && n <= maxTimerMs, `a number of ms in (0, ${maxTimerMs}]`);

/** A time budget that bounds other timers but is no timer itself: ≥ 0, `Infinity` allowed (= no budget). */
export const checkBudgetMs = (option: string, value: unknown): void =>
  check(option, value, (n) => n >= 0, 'a number of ms ≥ 0 (Infinity = no budget)');

/** A growth factor: a finite number ≥ 1. */
export const checkMultiplier = (option: string, value: unknown): void =>
  check(option, value, (n) => Number.isFinite(n) && n >= 1, 'a finite number ≥ 1');

/** A jitter fraction: a number in [0, 1] (0.1 = ±10%). */
export const checkJitter = (option: string, value: unknown): void =>
  check(option, value, (n) => n >= 0 && n <= 1, 'a fraction in [0, 1]');

/** A size bound (characters, entries): an integer ≥ `min` (default 1). */
export const checkSize = (option: string, value: unknown, min = 1): void =>
  check(option, value, integer(min), `an integer ≥ ${min}`);

/** A boolean switch. */
export function checkBoolean(option: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'boolean') fail(option, 'true or false', value, false);
}

/** An options object, or `false` where `allowFalse` (the layer is off). */
export function checkOptionsObject(option: string, value: unknown, allowFalse = false): void {
  if (value === undefined || (allowFalse && value === false)) return;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(option, allowFalse ? 'an options object or false' : 'an options object', value, false);
  }
}

/** A function (a hook or an injected clock, sleep or random). */
export function checkFunction(option: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'function') fail(option, 'a function', value, false);
}

/** An injected clock: an object with a `now()` method. */
export function checkClock(option: string, value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== 'object' || value === null || typeof (value as { now?: unknown }).now !== 'function') {
    fail(option, 'an object with a now() method', value, false);
  }
}

/** One of a fixed set of strings (a mode or a named style). */
export function checkOneOf(option: string, value: unknown, allowed: readonly string[]): void {
  if (value === undefined || (typeof value === 'string' && allowed.includes(value))) return;
  fail(option, `one of ${allowed.map((a) => `'${a}'`).join(', ')}`, value, false);
}
