import { checkInteger, checkNonNegative } from '../policy/validate.js';

/** How a session retries a turn that failed with a transient API error. */
export interface RetrySettings {
  /** Retry transient errors automatically (default `true`). */
  enabled: boolean;
  /** Retries per chain, after the first attempt (default `3`). */
  maxRetries: number;
  /** Delay before the first retry; retry n waits `baseDelayMs × 2^(n−1)`, exactly, no jitter (default `2000`). */
  baseDelayMs: number;
  /**
   * Upper bound of a backoff delay (default `60000`). A delay the server asks for (retry-after) that is longer
   * fails the turn at once with `RetryDelayTooLongError` instead of waiting.
   */
  maxDelayMs: number;
}

/** A session's settings, every field resolved (see {@link SessionSettingsInput} for what a caller passes). */
export interface SessionSettings {
  /** How failed turns are retried. */
  retry: RetrySettings;
}

/** What a caller may pass: any subset. */
export interface SessionSettingsInput {
  retry?: Partial<RetrySettings>;
}

/** The session's retry defaults: enabled, 3 retries, 2 s doubling per retry, at most 60 s. */
export const defaultRetrySettings: Readonly<RetrySettings> = Object.freeze({
  enabled: true,
  maxRetries: 3,
  baseDelayMs: 2000,
  maxDelayMs: 60_000,
});

/** The defaults with `input` laid over them (a fresh, mutable object); throws `RangeError` on a bad value. */
export function resolveSessionSettings(input: SessionSettingsInput = {}): SessionSettings {
  const retry = { ...defaultRetrySettings, ...input.retry };
  checkInteger('settings.retry.maxRetries', retry.maxRetries, 0);
  checkNonNegative('settings.retry.baseDelayMs', retry.baseDelayMs);
  checkNonNegative('settings.retry.maxDelayMs', retry.maxDelayMs);
  return { retry };
}
