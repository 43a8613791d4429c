import type { Sleep } from '../util/time.js';

/** What an aborted signal rejects with: its own reason, or a standard `AbortError` when it has none. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/**
 * A {@link Sleep}: a timer that an abort ends at once, rejecting with the signal's own reason (the AI SDK's delay
 * rejects with a generic DOMException instead). Leaves no timer or listener behind. With `unref`, the timer does
 * not keep Node alive: for background deadlines that a dropped run may never close.
 */
export function createSleep({ unref = false }: { unref?: boolean } = {}): Sleep {
  return (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortReason(signal));
        return;
      }
      const onAbort = () => {
        clearTimeout(timer);
        reject(abortReason(signal!));
      };
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      if (unref) timer.unref?.();
      signal?.addEventListener('abort', onAbort, { once: true });
    });
}

/** The default {@link Sleep} of every policy (see {@link createSleep}). */
export const abortableSleep: Sleep = createSleep();
