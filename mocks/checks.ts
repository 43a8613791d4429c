/**
 * Option rules of the fault kit: one rule per kind of numeric field, built on the library's shared checks
 * (`src/util/validate.ts`). A number outside its rule is a `RangeError`, a value of the wrong type a
 * `TypeError`; the message names where the option was given (a builder such as `streamFault.cut`, or a script
 * step such as `mock script step 2 (text)`) and the field, e.g.
 * `streamFault.cut: option 'afterChars' must be an integer ≥ 0; got -1.`
 */
import {
  checkBoolean,
  checkCount,
  checkDelayMs,
  checkOptionsObject,
  checkSize,
} from '../src/util/validate.js';

/** A check shaped like the shared ones: it throws for a bad value; `undefined` passes unless the rule needs it. */
export type Check = (option: string, value: unknown) => void;

/** A rule for a number the shared checks do not cover, with their error kinds and wording. */
function numberRule(rule: string, valid: (n: number) => boolean, { required = false } = {}): Check {
  return (option, value) => {
    if ((value === undefined && !required) || (typeof value === 'number' && valid(value))) return;
    const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
    const message = `option '${option}' must be ${rule}; got ${shown}.`;
    throw typeof value === 'number' ? new RangeError(message) : new TypeError(message);
  };
}

const integerIn = (min: number, max: number) => (n: number) => Number.isInteger(n) && n >= min && n <= max;

/** The rule of each kind of field. */
export const rule = {
  /** Milliseconds that become a timer (latency, time between frames): a number in [0, 2^31−1]. */
  delayMs: checkDelayMs,
  /** A count or a position (characters, frames, tokens): an integer ≥ 0. */
  count: checkCount,
  /** A chunk size: an integer ≥ 1. */
  size: checkSize,
  /** A number that only becomes header or message text (`retry-after`), never a timer: finite and ≥ 0. */
  headerNumber: numberRule('a finite number ≥ 0', (n) => Number.isFinite(n) && n >= 0),
  /** A response status. Not 1xx: fetch's `Response` (so MSW) refuses it, and a client reads it as interim. */
  status: numberRule('an integer HTTP status in [200, 599]', integerIn(200, 599), { required: true }),
  /** A TCP port to listen on (0 = any free port). */
  port: numberRule('an integer in [0, 65535]', integerIn(0, 65535)),
  /** A nested options object (e.g. `usage`). */
  object: checkOptionsObject,
  /** A switch (e.g. `retryAfterHeader`). */
  boolean: checkBoolean,
} satisfies Record<string, Check>;

/** Fields of an options object and their rules; a dotted path reaches into a nested object. */
export type Fields = readonly (readonly [path: string, check: Check])[];

/** Runs `check` on `value` and rethrows its error (same class) naming `where` and `field`. */
export function checkAt(where: string, field: string, value: unknown, check: Check): void {
  try {
    check(field, value);
  } catch (e) {
    if (!(e instanceof RangeError || e instanceof TypeError)) throw e;
    const message = `${where}: ${e.message.replace(/^graceful-ai: /, '')}`;
    throw e instanceof RangeError ? new RangeError(message) : new TypeError(message);
  }
}

/** Checks each of `fields` in `options` (a field under a missing object counts as not given). */
export function checkFields(where: string, options: unknown, fields: Fields, prefix = ''): void {
  for (const [path, check] of fields) {
    let value = options;
    for (const key of path.split('.')) {
      value =
        typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
    }
    checkAt(where, prefix + path, value, check);
  }
}
