import { deprecatedOption } from '../util/deprecated.js';
import { checkBoolean, checkCount, checkDelayMs, checkOptionsObject } from '../util/validate.js';

/** How a session retries a turn that failed with a transient API error. */
export interface RetrySettings {
  /**
   * Retry transient errors automatically.
   * @default true
   */
  enabled: boolean;
  /**
   * Retries per chain, after the first attempt.
   * @default 3
   */
  maxRetries: number;
  /**
   * Delay before the first retry, in ms; retry n waits `initialDelayMs × 2^(n−1)`, exactly (no jitter: a person
   * watches the countdown).
   * @default 2000
   */
  initialDelayMs: number;
  /**
   * @deprecated Use `initialDelayMs` (the same value); kept through 0.x.
   */
  baseDelayMs: number;
  /**
   * Cap of one backoff delay, in ms.
   * @default 60000
   */
  maxDelayMs: number;
  /**
   * The longest server-requested delay (retry-after) the session waits, in ms; a longer one fails the turn at once
   * with `RetryDelayTooLongError` (or goes to `onUsageLimit`). When only `maxDelayMs` is given, it bounds this too,
   * as in 0.1.
   * @default 60000
   */
  maxRetryAfterMs: number;
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

/** The session's retry defaults: enabled, 3 retries, 2 s doubling per retry, at most 60 s, server delays up to 60 s. */
export const defaultRetrySettings: Readonly<RetrySettings> = Object.freeze({
  enabled: true,
  maxRetries: 3,
  initialDelayMs: 2000,
  baseDelayMs: 2000,
  maxDelayMs: 60_000,
  maxRetryAfterMs: 60_000,
});

/** The defaults with `input` laid over them (a fresh, mutable object); throws on a bad value, naming it. */
export function resolveSessionSettings(input: SessionSettingsInput = {}): SessionSettings {
  checkOptionsObject('settings', input);
  checkOptionsObject('settings.retry', input.retry);
  const given = input.retry ?? {};
  checkBoolean('settings.retry.enabled', given.enabled);
  checkCount('settings.retry.maxRetries', given.maxRetries);
  checkDelayMs('settings.retry.initialDelayMs', given.initialDelayMs);
  checkDelayMs('settings.retry.baseDelayMs', given.baseDelayMs);
  checkDelayMs('settings.retry.maxDelayMs', given.maxDelayMs);
  checkDelayMs('settings.retry.maxRetryAfterMs', given.maxRetryAfterMs);
  if (given.baseDelayMs !== undefined) {
    deprecatedOption('settings.retry.baseDelayMs', 'settings.retry.initialDelayMs');
  }
  return { retry: liveRetrySettings(given) };
}

/** A change of a live setting: checked like the option, and never unset (`undefined` would mean "no bound"). */
function changed<T>(option: string, value: T, check: (option: string, value: unknown) => void): T {
  if (value === undefined) throw new TypeError(`graceful-ai: option '${option}' cannot be set to undefined.`);
  check(option, value);
  return value;
}

type Check = (option: string, value: unknown) => void;

/**
 * The resolved retry settings: a plain object the session re-reads at every decision, so changes apply to a
 * running chain, checked as they are made like the options (`maxRetries = NaN` would never stop). The 0.1 names
 * stay live: `baseDelayMs` reads and writes `initialDelayMs`, and while `maxRetryAfterMs` was never set, it follows
 * `maxDelayMs` once that was given or set (0.1's single bound).
 */
function liveRetrySettings(given: Partial<RetrySettings>): RetrySettings {
  const d = defaultRetrySettings;
  const values = {
    enabled: given.enabled ?? d.enabled,
    maxRetries: given.maxRetries ?? d.maxRetries,
    initialDelayMs: given.initialDelayMs ?? given.baseDelayMs ?? d.initialDelayMs,
    maxDelayMs: given.maxDelayMs ?? d.maxDelayMs,
    maxRetryAfterMs: given.maxRetryAfterMs,
  };
  let maxDelaySet = given.maxDelayMs !== undefined;
  const settings = {} as RetrySettings;
  const live = (
    name: keyof RetrySettings,
    field: keyof typeof values,
    check: Check,
    read = () => values[field],
  ) =>
    Object.defineProperty(settings, name, {
      enumerable: true,
      get: read,
      set: (value: unknown) => {
        (values as Record<string, unknown>)[field] = changed(`settings.retry.${name}`, value, check);
        if (name === 'maxDelayMs') maxDelaySet = true;
      },
    });
  live('enabled', 'enabled', checkBoolean);
  live('maxRetries', 'maxRetries', checkCount);
  live('initialDelayMs', 'initialDelayMs', checkDelayMs);
  live('baseDelayMs', 'initialDelayMs', checkDelayMs);
  live('maxDelayMs', 'maxDelayMs', checkDelayMs);
  live(
    'maxRetryAfterMs',
    'maxRetryAfterMs',
    checkDelayMs,
    () => values.maxRetryAfterMs ?? (maxDelaySet ? values.maxDelayMs : d.maxRetryAfterMs),
  );
  return settings;
}
