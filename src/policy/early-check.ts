import { isThenable } from '../util/shape.js';
import type { Sleep } from '../util/time.js';

/**
 * Starts a check now and hands over its outcome when asked (a sync throw becomes a rejection). A rejection that is
 * never asked for (the call ended before it) is not reported as unhandled.
 */
export function startEarly(check: () => void | Promise<void>): () => void | Promise<void> {
  let outcome: void | Promise<void>;
  try {
    outcome = check();
  } catch (error) {
    outcome = Promise.reject(error);
  }
  if (isThenable(outcome)) Promise.resolve(outcome).catch(() => {});
  return () => outcome;
}

/** `sleep` that begins only once `first` resolves, and rejects with its error instead when it rejects. */
export const sleepAfter = (first: PromiseLike<unknown> | undefined, sleep: Sleep): Sleep =>
  first === undefined ? sleep : (ms, signal) => Promise.resolve(first).then(() => sleep(ms, signal));
