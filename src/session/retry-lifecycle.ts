import { errorText } from '../errors/error-text.js';
import {
  RetryCancelledError,
  RetryDelayTooLongError,
  RetryExhaustedError,
} from '../errors/session-errors.js';
import { decideRetry } from '../policy/retry-decision.js';
import { abortableSleep } from '../policy/sleep.js';
import type { Sleep } from '../util/time.js';
import type { SessionEventMap } from './events.js';
import type { RetrySettings } from './settings.js';

type RetryEventMap = Pick<SessionEventMap, 'auto_retry_start' | 'auto_retry_end'>;

export interface RetryLifecycleOptions {
  /** Read at every decision, so `setAutoRetryEnabled()` and setting changes apply to the running chain. */
  settings: () => RetrySettings;
  emit: <K extends keyof RetryEventMap>(type: K, payload: RetryEventMap[K]) => void;
  /** Default `abortableSleep`. */
  sleep?: Sleep;
}

export interface RetryRequest {
  /** A delay the server asked for (from `parseRetryAfter`): used instead of the backoff. */
  retryAfterMs?: number;
  /** Retry without waiting (the usage-limit hook switched model or credentials). */
  immediate?: boolean;
}

/** Run another attempt, or stop with `error` (the one to surface). */
export type RetryDecision = { retry: true } | { retry: false; error: unknown };

/**
 * The retry chain of a session. `attempt` is 0 while idle and counts the retries of the running chain; a chain
 * starts with the first retry, holds one promise (`waitForRetry()`), and ends — resetting the counter and
 * emitting `auto_retry_end` — on the first success, on a final failure, on exhaustion or when cancelled.
 * `auto_retry_start` is emitted before each backoff sleep, which `abortRetry()` cancels at once.
 */
export class RetryLifecycle {
  #attempt = 0;
  #chain: { promise: Promise<void>; resolve: () => void } | undefined;
  #sleepController: AbortController | undefined;
  readonly #options: RetryLifecycleOptions;

  constructor(options: RetryLifecycleOptions) {
    this.#options = options;
  }

  /** Retries in the running chain; 0 when idle. */
  get attempt(): number {
    return this.#attempt;
  }

  /** Whether a retry chain is running (sleeping or re-running the turn). */
  get isRetrying(): boolean {
    return this.#attempt > 0;
  }

  /** Resolves when the running chain ends (at once when idle). */
  waitForRetry(): Promise<void> {
    return this.#chain?.promise ?? Promise.resolve();
  }

  /**
   * After a transient failure: schedules the next retry and sleeps its delay, or stops. Stops with
   * `RetryExhaustedError` past `maxRetries`, `RetryDelayTooLongError` when the server asks for more than
   * `maxRetryAfterMs`, `RetryCancelledError` when `abortRetry()` ends the sleep, and the error itself when
   * retries are disabled.
   */
  async retry(error: unknown, request: RetryRequest = {}): Promise<RetryDecision> {
    const settings = this.#options.settings();
    if (!settings.enabled) return this.fail(error);
    const attempt = this.#attempt + 1;
    // A usage-limit switch (`immediate`) retries at once, but still counts against `maxRetries`.
    const decision = decideRetry({
      retriesDone: this.#attempt,
      maxRetries: settings.maxRetries,
      classification: {
        kind: 'transient',
        reason: 'session',
        retryAfterMs: request.immediate ? undefined : request.retryAfterMs,
      },
      backoff: {
        initialDelayMs: settings.initialDelayMs,
        multiplier: 2,
        maxDelayMs: settings.maxDelayMs,
        jitter: 0,
      },
      random: () => 0.5,
      maxRetryAfterMs: settings.maxRetryAfterMs,
    });
    if (!decision.retry) {
      if (decision.reason === 'retry_after') {
        const retryAfterMs = decision.retryAfterMs ?? 0;
        const { maxRetryAfterMs } = settings;
        return this.fail(new RetryDelayTooLongError({ retryAfterMs, maxRetryAfterMs, cause: error }));
      }
      return this.#attempt === 0
        ? this.fail(error)
        : this.fail(new RetryExhaustedError({ retries: this.#attempt, cause: error }));
    }
    const delayMs = request.immediate ? 0 : decision.delayMs;
    this.#attempt = attempt;
    this.#chain ??= withResolvers();
    this.#options.emit('auto_retry_start', {
      attempt,
      maxRetries: settings.maxRetries,
      maxAttempts: settings.maxRetries,
      delayMs,
      errorMessage: errorText(error),
    });
    const controller = new AbortController();
    this.#sleepController = controller;
    try {
      if (delayMs > 0) await (this.#options.sleep ?? abortableSleep)(delayMs, controller.signal);
      if (controller.signal.aborted) throw controller.signal.reason;
    } catch {
      return this.fail(new RetryCancelledError({ cause: error }), 'Retry cancelled');
    } finally {
      if (this.#sleepController === controller) this.#sleepController = undefined;
    }
    return { retry: true };
  }

  /** An attempt succeeded: ends a running chain with `success: true`. */
  succeeded(): void {
    this.#end({ success: true, attempt: this.#attempt });
  }

  /** The turn failed for good with `error` (permanent, aborted, exhausted, …): ends a running chain. */
  fail(error: unknown, finalError = errorText(error)): { retry: false; error: unknown } {
    this.#end({ success: false, attempt: this.#attempt, finalError });
    return { retry: false, error };
  }

  /** Cancels the backoff sleep at once (no-op when not sleeping). The chain ends with `finalError: 'Retry cancelled'`. */
  abortRetry(): void {
    this.#sleepController?.abort();
  }

  #end(event: SessionEventMap['auto_retry_end']): void {
    if (this.#attempt === 0) return;
    this.#attempt = 0;
    const chain = this.#chain;
    this.#chain = undefined;
    this.#options.emit('auto_retry_end', event);
    chain?.resolve();
  }
}

function withResolvers(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
