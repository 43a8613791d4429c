import {
  RetryCancelledError,
  RetryDelayTooLongError,
  RetryExhaustedError,
} from '../errors/session-errors.js';
import { decideRetry } from '../policy/retry-decision.js';
import { abortableSleep } from '../policy/sleep.js';
import { boundedErrorText } from '../redact/bounded-error-text.js';
import { type Random, type Sleep, systemRandom } from '../util/time.js';
import type { SessionEventMap } from './events.js';
import type { RetrySettings } from './settings.js';

type RetryEventMap = Pick<SessionEventMap, 'auto_retry_start' | 'auto_retry_end'>;

export interface RetryLifecycleOptions {
  /** Read at every decision, so `setAutoRetryEnabled()` and setting changes apply to the running chain. */
  settings: () => RetrySettings;
  emit: <K extends keyof RetryEventMap>(type: K, payload: RetryEventMap[K]) => void;
  /** Default `abortableSleep`. */
  sleep?: Sleep;
  /** The jitter's randomness (the session's default jitter is 0); default `Math.random`. */
  random?: Random;
}

export interface RetryRequest {
  /** A delay the server asked for (from `parseRetryAfter`): used instead of the backoff. */
  retryAfterMs?: number;
  /** Retry without waiting (the usage-limit hook switched model or credentials). */
  immediate?: boolean;
  /** The turn's signal: aborting it during the sleep ends the chain and the turn with its reason. */
  signal?: AbortSignal;
}

/** Run another attempt, or stop with `error` (the one to surface). */
export type RetryVerdict = { retry: true } | { retry: false; error: unknown };

/**
 * The retry chain of a session. `attempt` is 0 while idle and counts the retries of the running chain; a chain
 * starts with the first retry, holds one promise (`waitForRetry()`), and ends — resetting the counter and
 * emitting `auto_retry_end` — on the first success, on a final failure, on exhaustion or when cancelled, and its
 * state is reset before the event goes out, so a throwing `emit` cannot leave a chain open.
 *
 * `abortRetry()` cancels the retry of a failed attempt from the moment the failure is known (`attemptFailed()`)
 * until the next attempt starts: during the backoff sleep, and also from a listener of `attempt_error` or
 * `auto_retry_start`, or while a usage-limit hook runs.
 */
export class RetryLifecycle {
  #attempt = 0;
  #chain: { promise: Promise<void>; resolve: () => void } | undefined;
  /** Aborted by `abortRetry()`; exists from an attempt's failure until the next attempt starts. */
  #cancel: AbortController | undefined;
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

  /** An attempt failed: from now until the next attempt starts, `abortRetry()` cancels its retry. */
  attemptFailed(): void {
    this.#cancel = new AbortController();
  }

  /**
   * After a transient failure: schedules the next retry and sleeps its delay, or stops. Stops with
   * `RetryExhaustedError` past `maxRetries`, `RetryDelayTooLongError` when the server asks for more than
   * `maxRetryAfterMs`, `RetryCancelledError` when `abortRetry()` cancels it, the abort reason when `signal`
   * aborts, and the error itself when retries are disabled.
   */
  async retry(error: unknown, request: RetryRequest = {}): Promise<RetryVerdict> {
    this.#cancel ??= new AbortController();
    const cancel = this.#cancel;
    const { signal } = request;
    const onAbort = () => cancel.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      if (signal?.aborted) return this.fail(signal.reason);
      const settings = this.#options.settings();
      if (!settings.enabled) return this.fail(error);
      // A usage-limit switch (`immediate`) retries at once, but still counts against `maxRetries`.
      const decision = decideRetry({
        retriesDone: this.#attempt,
        classification: {
          kind: 'transient',
          reason: 'session',
          retryAfterMs: request.immediate ? undefined : request.retryAfterMs,
        },
        config: settings,
        random: this.#options.random ?? systemRandom,
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
      // Cancelled before it was announced (from an `attempt_error` listener, during a hook): no retry starts.
      if (cancel.signal.aborted) return this.#cancelled(error);
      const delayMs = request.immediate ? 0 : decision.delayMs;
      this.#attempt += 1;
      this.#chain ??= withResolvers();
      this.#options.emit('auto_retry_start', {
        attempt: this.#attempt,
        maxRetries: settings.maxRetries,
        delayMs,
        errorMessage: boundedErrorText(error),
      });
      try {
        if (delayMs > 0 && !cancel.signal.aborted) {
          await (this.#options.sleep ?? abortableSleep)(delayMs, cancel.signal);
        }
      } catch (sleepError) {
        if (!cancel.signal.aborted) throw sleepError;
      }
      if (signal?.aborted) return this.fail(signal.reason);
      if (cancel.signal.aborted) return this.#cancelled(error);
      return { retry: true };
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (this.#cancel === cancel) this.#cancel = undefined;
    }
  }

  /** An attempt succeeded: ends a running chain with `success: true`. */
  succeeded(): void {
    this.#cancel = undefined;
    this.#end({ success: true, attempt: this.#attempt });
  }

  /**
   * The turn failed for good with `error` (permanent, aborted, exhausted, a hook or the store threw, …): ends a
   * running chain (a no-op when none runs).
   */
  fail(error: unknown, finalError = boundedErrorText(error)): { retry: false; error: unknown } {
    this.#cancel = undefined;
    this.#end({ success: false, attempt: this.#attempt, finalError });
    return { retry: false, error };
  }

  /**
   * Cancels the retry of the failed attempt (its backoff sleep at once); a no-op while an attempt runs. The chain
   * ends with `finalError: 'Retry cancelled'`.
   */
  abortRetry(): void {
    this.#cancel?.abort();
  }

  #cancelled(error: unknown): { retry: false; error: unknown } {
    return this.fail(new RetryCancelledError({ cause: error }), 'Retry cancelled');
  }

  #end(event: SessionEventMap['auto_retry_end']): void {
    if (this.#attempt === 0) return;
    this.#attempt = 0;
    const chain = this.#chain;
    this.#chain = undefined;
    try {
      this.#options.emit('auto_retry_end', event);
    } finally {
      chain?.resolve();
    }
  }
}

function withResolvers(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
