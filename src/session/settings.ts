import { type ResolvedRetryConfig, type RetryConfig, resolveRetryConfig } from '../policy/retry-config.js';
import { checkBoolean, checkOptionsObject } from '../util/validate.js';

/**
 * How a session retries a turn that failed with a transient API error: the shared retry settings (`RetryConfig`)
 * and whether it retries at all. Every field resolved.
 */
export interface RetrySettings extends ResolvedRetryConfig {
  /** Retry transient errors automatically. */
  readonly enabled: boolean;
}

/** A session's settings, every field resolved (see {@link SessionSettingsInput} for what a caller passes). */
export interface SessionSettings {
  /** How failed turns are retried. */
  readonly retry: RetrySettings;
}

/** What a caller may pass: any subset. */
export interface SessionSettingsInput {
  retry?: RetryConfig & { enabled?: boolean };
}

/**
 * The session's retry defaults: enabled, 3 retries, 2 s doubling per retry, exact delays (no jitter: a person watches
 * the countdown), at most 60 s, server delays up to 60 s.
 */
export const defaultRetrySettings: RetrySettings = Object.freeze({
  enabled: true,
  maxRetries: 3,
  initialDelayMs: 2000,
  multiplier: 2,
  maxDelayMs: 60_000,
  jitter: 0,
  maxRetryAfterMs: 60_000,
});

/**
 * `input` laid over `base` (default: the defaults), checked where it is given (a `RangeError`/`TypeError` naming
 * `settings.retry.<field>`): a plain, frozen object.
 */
export function resolveSessionSettings(
  input: SessionSettingsInput = {},
  base: SessionSettings = { retry: defaultRetrySettings },
): SessionSettings {
  checkOptionsObject('settings', input);
  const given = input.retry;
  const retry = resolveRetryConfig(given, base.retry, 'settings.retry.');
  checkBoolean('settings.retry.enabled', given?.enabled);
  return Object.freeze({ retry: Object.freeze({ ...retry, enabled: given?.enabled ?? base.retry.enabled }) });
}
