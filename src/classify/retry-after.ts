import { type Clock, systemClock } from '../util/time.js';
import { checkClock } from '../util/validate.js';
import { boundedView, type ErrorFacts, errorFacts, headerValue } from './error-facts.js';

/** Options of {@link parseRetryAfter}. */
export interface RetryAfterOptions {
  /** Clock for `retry-after` HTTP dates (default `systemClock`). */
  clock?: Clock;
}

/**
 * The delay a server asked for, in milliseconds, or `undefined` when it asked for none or it cannot be read.
 *
 * Accepts response headers (a `Headers` or a plain record) or an error. Headers: `retry-after-ms` wins over
 * `retry-after` (seconds, or an HTTP date measured against `clock`; a date in the past is no hint), then, once the
 * rate-limit window is spent (`x-ratelimit-remaining` absent or 0), `x-ratelimit-reset-after` (seconds) and
 * `x-ratelimit-reset` (seconds, a duration such as `1m30s`, or a Unix time in seconds or milliseconds measured against
 * `clock`). Errors: the first structured hint along the cause chain (an error's own numeric `retryAfterMs`, e.g.
 * `CircuitOpenError`; the headers of `APICallError.responseHeaders`, a RetryError's `lastError`, `cause`; the headers
 * OpenRouter relays in `error.metadata.headers`), otherwise the message and response body: "Please try again in
 * 634ms", "retry in 47.4s", Google's `RetryInfo.retryDelay` (structured, or `"retryDelay": "34s"` in the body), "try
 * again in 9m38.016s", "Please retry in 34.5s", "retry after 20 seconds". Never throws for any value (proxies and
 * throwing getters read as no hint); only an invalid `clock` option throws.
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
/** No header value that is a retry hint is longer (an HTTP date has 29 characters). */
const maxHintChars = 64;

/** One header as a bounded string ('' when absent or longer than any hint). */
function hintHeader(headers: unknown, name: string): string {
  const value = headerValue(headers, name) ?? '';
  return value.length <= maxHintChars ? value : '';
}

/**
 * `retry-after-ms`, then `retry-after` (seconds or an HTTP date), then the reset of a spent rate-limit window:
 * `x-ratelimit-reset-after` (seconds), `x-ratelimit-reset` (seconds, a duration, or a Unix time).
 */
function retryAfterFromHeaders(headers: unknown, clock: Clock): number | undefined {
  const ms = plainNumber.exec(hintHeader(headers, 'retry-after-ms'));
  if (ms) return Math.round(Number(ms[1]));
  const value = hintHeader(headers, 'retry-after');
  const seconds = plainNumber.exec(value);
  if (seconds) return Math.round(Number(seconds[1]) * 1000);
  // HTTP dates start with a day name ("Sun, 06 Nov 1994 08:49:37 GMT"); `Date.parse('-5')` would be year -5.
  // A date already past is no hint (retrying at once would skip the backoff).
  const date = /^\s*[a-z]{3}/i.test(value) ? Date.parse(value) - clock.now() : Number.NaN;
  if (date > 0) return date;
  // A window's reset is sent on every response; it is a hint only once the window is spent.
  const remaining = plainNumber.exec(hintHeader(headers, 'x-ratelimit-remaining'));
  if (remaining && Number(remaining[1]) > 0) return undefined;
  const after = plainNumber.exec(hintHeader(headers, 'x-ratelimit-reset-after'));
  if (after) return Math.round(Number(after[1]) * 1000);
  return resetTime(hintHeader(headers, 'x-ratelimit-reset'), clock);
}

/** A Unix time in ms from here on (2001 in s): smaller numbers are delays in seconds. */
const unixMsFrom = 1e12;
const unixSecondsFrom = 1e9;

/**
 * `x-ratelimit-reset` as servers write it: seconds to wait ("20"), a duration ("1m30s",
 * "6m0s", "120ms", as OpenAI writes its `x-ratelimit-reset-*`), or a Unix time: seconds (GitHub, LLM gateways) or
 * milliseconds (OpenRouter's relayed headers), measured against `clock`. A time already past is no hint.
 */
function resetTime(value: string, clock: Clock): number | undefined {
  const number = plainNumber.exec(value);
  if (!number) return durationMs(value.trim(), 0, true);
  const n = Number(number[1]);
  if (n < unixSecondsFrom) return Math.round(n * 1000);
  const wait = (n >= unixMsFrom ? n : n * 1000) - clock.now();
  return wait > 0 ? Math.round(wait) : undefined;
}

function isHeaders(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  // A proxy may throw from any trap, `instanceof` included: then it is not headers (and `errorFacts` copes).
  try {
    if (typeof Headers !== 'undefined' && value instanceof Headers) return true;
    if (value instanceof Error) return false;
    return Object.keys(value).some((key) =>
      /^(?:retry-after(?:-ms)?|x-ratelimit-reset(?:-after)?)$/i.test(key),
    );
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

/**
 * The duration written at `start` of `text` (up to four parts: "9m38.016s", "2 minutes and 30 seconds"), in ms, or
 * `undefined` when there is none; `whole` asks that the duration be all of `text`.
 */
function durationMs(text: string, start: number, whole = false): number | undefined {
  let total = 0;
  let parts = 0;
  let end = start;
  durationPart.lastIndex = start;
  while (parts < 4) {
    const part = durationPart.exec(text);
    if (part === null) break;
    total += Number(part[1]) * unitMs(part[2]!);
    parts++;
    end = durationPart.lastIndex;
  }
  if (parts === 0 || (whole && end !== text.length)) return undefined;
  return Math.round(total);
}

/** The first delay written in `text` after a retry lead-in, in ms (`text` must already be bounded). */
function retryAfterFromText(text: string): number | undefined {
  leadIn.lastIndex = 0;
  for (let lead = leadIn.exec(text); lead !== null; lead = leadIn.exec(text)) {
    const ms = durationMs(text, leadIn.lastIndex);
    if (ms !== undefined) return ms;
  }
  return undefined;
}
