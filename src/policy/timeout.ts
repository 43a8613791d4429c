import { ToolTimeoutError } from '../errors/tool-timeout-error.js';
import type { Sleep } from '../util/time.js';
import { checkFunction, checkTimeoutMs } from '../util/validate.js';
import { abortableSleep, abortReason } from './sleep.js';

/** Options of {@link withTimeout}. */
export interface TimeoutOptions {
  /** Hard limit of this attempt in ms; `undefined` = none (the caller's abort still applies). */
  timeoutMs?: number;
  /** The caller's signal: its abort abandons the call and rejects with the caller's reason (not a timeout). */
  signal?: AbortSignal;
  /** Names the tool in the `ToolTimeoutError`. */
  toolName?: string;
  /** Default: `abortableSleep`. */
  sleep?: Sleep;
}

/** The reason the internal timer is cancelled with: a constant, because a default DOMException costs a stack trace. */
const settledReason = Symbol('graceful-ai.timeout.settled');

/** Calls `fn` now; a synchronous throw becomes a rejection. */
function callNow<T>(fn: (signal: AbortSignal) => Promise<T> | T, signal: AbortSignal): Promise<T> {
  try {
    return Promise.resolve(fn(signal));
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Runs `fn` with its own abort signal and a hard stop: when `timeoutMs` passes, the signal fires with a
 * `ToolTimeoutError` and the returned promise rejects with it at once, even if `fn` ignores its signal (its late
 * result is dropped). A caller abort abandons it the same way but rejects with the caller's reason. No timer or
 * listener outlives the call. `fn` is called synchronously (its synchronous throw becomes the rejection), so a
 * caller can learn what it returned in the same tick.
 */
export function withTimeout<T>(
  fn: (signal: AbortSignal) => Promise<T> | T,
  options: TimeoutOptions,
): Promise<T> {
  const { timeoutMs, signal } = options;
  checkTimeoutMs('timeoutMs', timeoutMs);
  checkFunction('sleep', options.sleep);
  if (timeoutMs === undefined && signal === undefined) return callNow(fn, new AbortController().signal);
  if (signal?.aborted) return Promise.reject(abortReason(signal));

  const attempt = new AbortController();
  const timer = new AbortController();
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      timer.abort(settledReason);
      signal?.removeEventListener('abort', onCallerAbort);
      finish();
    };
    const onCallerAbort = () => {
      const reason = abortReason(signal!);
      attempt.abort(reason);
      settle(() => reject(reason));
    };
    signal?.addEventListener('abort', onCallerAbort, { once: true });

    if (timeoutMs !== undefined) {
      (options.sleep ?? abortableSleep)(timeoutMs, timer.signal).then(
        () => {
          if (settled) return;
          const error = new ToolTimeoutError({ toolName: options.toolName, timeoutMs });
          attempt.abort(error);
          settle(() => reject(error));
        },
        () => {},
      );
    }

    callNow(fn, attempt.signal).then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error)),
    );
  });
}
