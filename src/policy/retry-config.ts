import { checkCount, checkDelayMs, checkOptionsObject } from '../util/validate.js';
import { validateBackoff } from './backoff.js';

/**
 * How a layer retries: the one shape tools (`autoRetry`), the stream guard (its options) and sessions
 * (`settings.retry`) share. Every field is optional; each layer has its own defaults (`defaults` in the main entry).
 */
export interface RetryConfig {
  /** Retries after the first attempt, transient errors only. */
  maxRetries?: number;
  /** Delay before the first retry, in ms. */
  initialDelayMs?: number;
  /** Growth of the delay per retry (2 doubles it). */
  multiplier?: number;
  /** Cap of one backoff delay in ms, jitter included. */
  maxDelayMs?: number;
  /** Random spread of each delay as a fraction: 0.1 = ±10%, 0 = exact delays. In [0, 1]. */
  jitter?: number;
  /** The longest server-requested delay (retry-after) honoured, in ms; a longer one stops the retries at once. */
  maxRetryAfterMs?: number;
}

/** A {@link RetryConfig} with every field set. */
export type ResolvedRetryConfig = Readonly<Required<RetryConfig>>;

/**
 * Checks the fields of `config` that are set (a `RangeError`/`TypeError` naming `<prefix><field>`) and fills in the
 * others from `defaults`. The one resolver of every layer's retry settings; called where they are given.
 */
export function resolveRetryConfig(
  config: RetryConfig | undefined,
  defaults: ResolvedRetryConfig,
  prefix = '',
): ResolvedRetryConfig {
  if (prefix !== '') checkOptionsObject(prefix.slice(0, -1), config);
  if (config === undefined) return defaults;
  checkRetryConfig(config, prefix);
  return {
    maxRetries: config.maxRetries ?? defaults.maxRetries,
    initialDelayMs: config.initialDelayMs ?? defaults.initialDelayMs,
    multiplier: config.multiplier ?? defaults.multiplier,
    maxDelayMs: config.maxDelayMs ?? defaults.maxDelayMs,
    jitter: config.jitter ?? defaults.jitter,
    maxRetryAfterMs: config.maxRetryAfterMs ?? defaults.maxRetryAfterMs,
  };
}

/** Checks the fields of `config` that are set, naming `<prefix><field>`. */
export function checkRetryConfig(config: RetryConfig, prefix = ''): void {
  checkCount(`${prefix}maxRetries`, config.maxRetries);
  validateBackoff(config, prefix);
  checkDelayMs(`${prefix}maxRetryAfterMs`, config.maxRetryAfterMs);
}
