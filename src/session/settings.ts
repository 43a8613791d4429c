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

export interface SessionSettings {
  retry: RetrySettings;
}

/** What a caller may pass: any subset. */
export interface SessionSettingsInput {
  retry?: Partial<RetrySettings>;
}

export const defaultRetrySettings: Readonly<RetrySettings> = Object.freeze({
  enabled: true,
  maxRetries: 3,
  baseDelayMs: 2000,
  maxDelayMs: 60_000,
});

/** The defaults with `input` laid over them (a fresh, mutable object). */
export function resolveSessionSettings(input: SessionSettingsInput = {}): SessionSettings {
  const retry = { ...defaultRetrySettings, ...input.retry };
  for (const key of ['maxRetries', 'baseDelayMs', 'maxDelayMs'] as const) {
    if (!Number.isFinite(retry[key]) || retry[key] < 0) {
      throw new RangeError(`settings.retry.${key} must be a finite number ≥ 0; got ${retry[key]}.`);
    }
  }
  return { retry };
}
