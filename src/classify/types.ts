import type { Clock } from '../util/time.js';

/** What to do about an error: retry it later, give up, compact the context, or stop because the caller asked. */
export type ErrorKind = 'transient' | 'permanent' | 'overflow' | 'abort';

/** What `classifyError` made of an error. */
export interface Classification {
  kind: ErrorKind;
  /** A short machine-readable reason, e.g. `status:503`, `code:ECONNRESET`, `pattern:rate-limit`. */
  reason: string;
  /** A delay the server asked for, in milliseconds. */
  retryAfterMs?: number;
}

/** A value a manifest override matches: an HTTP status, an error `code`/`name`, or a pattern over the message. */
export type ErrorMatcher = number | string | RegExp;

/** One named text rule of a default pattern set; `id` becomes the reason (`pattern:<id>`). */
export interface ErrorPattern {
  id: string;
  /** Tested (never with a `g`/`y` flag) against a bounded view of the error text; keep it linear: no `.*` gaps. */
  pattern: RegExp;
}

/** The four text rule sets, checked in this order: overflow, limit, retryable, permanent. */
export interface PatternSets {
  /** The conversation no longer fits the model's context window. */
  overflow: readonly ErrorPattern[];
  /** Quota, billing or usage limits that waiting a little will not fix. */
  limit: readonly ErrorPattern[];
  /** Overload, rate limits, 5xx, network failures, timeouts. */
  retryable: readonly ErrorPattern[];
  /** Invalid input, auth, not found, unsupported (used when no status decides). */
  permanent: readonly ErrorPattern[];
}

/**
 * Changes to one pattern set: an array is ADDED to the defaults (checked before them); a function receives the
 * defaults and returns the set to use (to replace, filter or reorder them).
 */
export type PatternSetOverride =
  | readonly ErrorPattern[]
  | ((defaults: readonly ErrorPattern[]) => readonly ErrorPattern[]);

/** Per-tool or per-session overrides; they win over the default rules. */
export interface ClassifyOverrides {
  /** Your own verdict; return `undefined` to fall back to the rules. A hook that throws throws from `classifyError`. */
  classify?: (error: unknown) => ErrorKind | Classification | undefined;
  /** Statuses, codes/names or message patterns that are never retried. */
  treatAsPermanent?: readonly ErrorMatcher[];
  /** Statuses, codes/names or message patterns that are always retried. */
  treatAsTransient?: readonly ErrorMatcher[];
  /** What an error no rule recognises is (default `'transient'`, the safer choice for tools). */
  unknown?: 'transient' | 'permanent';
  /** Additions to or replacements of the default text pattern sets (default: none, the built-in sets). */
  patterns?: { readonly [K in keyof PatternSets]?: PatternSetOverride };
}

/** Options of one `classifyError` call: the overrides plus call context. */
export interface ClassifyOptions extends ClassifyOverrides {
  /** The caller's signal: once it has aborted, every error is `abort` (never retried, never counted). */
  signal?: AbortSignal;
  /** Clock for `retry-after` HTTP dates (default `systemClock`). */
  clock?: Clock;
  /**
   * A quota/billing message with a parsed retry window of at most this many ms is a short rate limit (transient),
   * not a hard limit, e.g. a Gemini 429 "quota exceeded … retry in 47s" (default 60 000, as the AI SDK's own cap).
   */
  shortRetryWindowMs?: number;
}
