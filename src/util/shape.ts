/** Whether `value` is a promise or any other thenable (what `await` would adopt). */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** Whether `value` has a `Symbol.asyncIterator` method: the AI SDK's own test for preliminary tool results. */
export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return value != null && typeof (value as Record<symbol, unknown>)[Symbol.asyncIterator] === 'function';
}
