import type { Classification } from '../classify/types.js';
import type { FailureDecision } from '../observe/tool-events.js';
import type { Random } from '../util/time.js';
import { backoffDelay } from './backoff.js';
import type { ResolvedRetryConfig } from './retry-config.js';

/** What one retry decision is made from. */
export interface RetryDecisionInput {
  /** Retries already made (0 when the first attempt just failed). */
  retriesDone: number;
  /** What the classifier made of the failure; only `transient` is retried. Its `retryAfterMs` is the server's hint. */
  classification: Classification;
  /** The layer's retry settings: `maxRetries`, the backoff used when the server gave no hint, `maxRetryAfterMs`. */
  config: ResolvedRetryConfig;
  random: Random;
  /** What remains of a total time budget, if the layer has one: a delay that does not fit stops the retries. */
  remainingMs?: number;
}

/** Retry after `delayMs`, or stop and say why (with the server's hint when it was the reason). */
export type RetryDecision =
  | { retry: true; delayMs: number; source: 'backoff' | 'retry-after' }
  | {
      retry: false;
      reason: Extract<FailureDecision, 'permanent' | 'exhausted' | 'budget' | 'retry_after'>;
      retryAfterMs?: number;
    };

/**
 * The one rule every retry loop follows (tool auto-retry, stream guard, session): only transient failures are
 * retried, at most `maxRetries` times. A server's retry-after hint is used as the delay, exactly (the server
 * knows when it will accept the request: waiting longer wastes time, shorter is refused again); a hint above
 * `maxRetryAfterMs` stops at once. Without a hint the delay is the backoff for this retry. A delay that does
 * not fit the remaining budget stops too.
 */
export function decideRetry(input: RetryDecisionInput): RetryDecision {
  const { classification, retriesDone, config } = input;
  if (classification.kind !== 'transient') return { retry: false, reason: 'permanent' };
  if (retriesDone >= config.maxRetries) return { retry: false, reason: 'exhausted' };
  const hint = classification.retryAfterMs;
  if (hint !== undefined) {
    const delayMs = Math.max(0, hint);
    if (delayMs > config.maxRetryAfterMs)
      return { retry: false, reason: 'retry_after', retryAfterMs: delayMs };
    if (input.remainingMs !== undefined && delayMs >= input.remainingMs) {
      return { retry: false, reason: 'retry_after', retryAfterMs: delayMs };
    }
    return { retry: true, delayMs, source: 'retry-after' };
  }
  const delayMs = backoffDelay(retriesDone + 1, config, input.random);
  if (input.remainingMs !== undefined && delayMs >= input.remainingMs)
    return { retry: false, reason: 'budget' };
  return { retry: true, delayMs, source: 'backoff' };
}
