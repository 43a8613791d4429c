import { type Clock, systemClock } from '../util/time.js';
import { checkClock } from '../util/validate.js';
import { boundedView, type ErrorFacts, errorFacts, headerValue } from './error-facts.js';

/** Options of {@link parseRetryAfter}. */
export interface RetryAfterOptions {
  /** Clock for `retry-after` HTTP dates (default `systemClock`). */
  clock?: Clock;
}

/**
 * The delay a server asked for, in milliseconds, or `undefined` when it asked for none.
 *
 * Accepts response headers (a `Headers` or a plain record) or an error. Headers: `retry-after-ms` wins over
 * `retry-after` (seconds, or an HTTP date measured against `clock`; a date in the past is no hint), then
 * `x-ratelimit-reset-after` (seconds). Errors: the
 * first structured hint along the cause chain (an error's own numeric `retryAfterMs`, e.g. `CircuitOpenError`;
 * the headers of `APICallError.responseHeaders`, a RetryError's `lastError`, `cause`), otherwise the message and
 * response body: "Please try again in 634ms", "retry in 47.4s",
 * Google's `RetryInfo.retryDelay` (structured, or `"retryDelay": "34s"` in the body), "try again in 9m38.016s",
 * "Please retry in 34.5s", "retry after 20 seconds".
 */
export function parseRetryAfter(
  errorOrHeaders: unknown,
  options: RetryAfterOptions = {},
): number | undefined {
  checkClock('clock', options.clock);
  const clock = options.clock ?? systemClock;
  if (isHeaders(errorOrHeaders)) return retryAfterFromHeaders(errorOrHeaders, clock);
  if (typeof errorOrHeaders === 'string') return retryAfterFromText(boundedView(errorOrHeaders));
  return retryAfterFromFacts(errorFacts(errorOrHeaders), clock);
}

/** The retry-after of already gathered facts: structured hints (root first), then the text. */
export function retryAfterFromFacts(facts: ErrorFacts, clock: Clock): number | undefined {
  for (const hint of facts.retryHints) {
    const ms = typeof hint === 'number' ? Math.round(hint) : retryAfterFromHeaders(hint, clock);
    if (ms !== undefined) return ms;
  }
  return retryAfterFromText(facts.text);
}

const plainNumber = /^\s*(\d{1,15}(?:\.\d{1,9})?)\s*$/;

/** `retry-after-ms`, then `retry-after` (seconds or an HTTP date), then `x-ratelimit-reset-after` (seconds). */
function retryAfterFromHeaders(headers: unknown, clock: Clock): number | undefined {
  const ms = plainNumber.exec(headerValue(headers, 'retry-after-ms') ?? '');
  if (ms) return Math.round(Number(ms[1]));
  const value = headerValue(headers, 'retry-after') ?? '';
  const seconds =
    plainNumber.exec(value) ?? plainNumber.exec(headerValue(headers, 'x-ratelimit-reset-after') ?? '');
  if (seconds) return Math.round(Number(seconds[1]) * 1000);
  // HTTP dates start with a day name ("Sun, 06 Nov 1994 08:49:37 GMT"); `Date.parse('-5')` would be year -5.
  // A date already past is no hint (retrying at once would skip the backoff).
  const date = /^\s*[a-z]{3}/i.test(value) ? Date.parse(value) - clock.now() : Number.NaN;
  return date > 0 ? date : undefined;
}

function isHeaders(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (typeof Headers !== 'undefined' && value instanceof Headers) return true;
  if (value instanceof Error) return false;
  try {
    return Object.keys(value).some((key) => /^(?:retry-after(?:-ms)?|x-ratelimit-reset-after)$/i.test(key));
  } catch {
    return false;
  }
}

// A lead-in ("try again in", "retry after", `"retryDelay": "`), then up to four duration parts ("9m38.016s").
const leadIn =
  /\b(?:(?:try again|retry|retrying|resets?)\s{1,3}(?:in|after)\s{1,3}(?:about\s{1,3}|approximately\s{1,3}|~)?|retry[_-]?delay"?\s{0,3}[:=]\s{0,3}"?)/gi;
const durationPart =
  /(\d{1,9}(?:\.\d{1,9})?)\s{0,2}(milliseconds?|msecs?|ms|seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d)(?![a-z])(?:,?\s{1,3}(?:and\s{1,3})?)?/iy;

const unitMs = (unit: string): number => {
  const u = unit.toLowerCase();
  if (u === 'ms' || u.startsWith('msec') || u.startsWith('milli')) return 1;
  if (u === 's' || u.startsWith('sec')) return 1000;
  if (u === 'm' || u.startsWith('min')) return 60_000;
  if (u === 'h' || u.startsWith('h')) return 3_600_000;
  return 86_400_000;
};

/** The first delay written in `text` after a retry lead-in, in ms (`text` must already be bounded). */
function retryAfterFromText(text: string): number | undefined {
  leadIn.lastIndex = 0;
  for (let lead = leadIn.exec(text); lead !== null; lead = leadIn.exec(text)) {
    let total = 0;
    let parts = 0;
    durationPart.lastIndex = leadIn.lastIndex;
    for (let part = durationPart.exec(text); part !== null && parts < 4; part = durationPart.exec(text)) {
      total += Number(part[1]) * unitMs(part[2]!);
      parts++;
    }
    if (parts > 0) return Math.round(total);
  }
  return undefined;
}
