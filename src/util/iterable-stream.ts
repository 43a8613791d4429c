/**
 * `stream`, also async-iterable (as the AI SDK's result streams are: not every runtime's `ReadableStream` is).
 * Leaving a `for await` early cancels the stream; an error while reading ends the iteration with that error.
 */
export function iterableStream<T>(stream: ReadableStream<T>): ReadableStream<T> & AsyncIterable<T> {
  (stream as unknown as Record<symbol, unknown>)[Symbol.asyncIterator] = async function* (
    this: ReadableStream<T>,
  ) {
    const reader = this.getReader();
    try {
      for (let next = await reader.read(); !next.done; next = await reader.read()) yield next.value;
    } finally {
      // Nothing to cancel once the stream ended or failed; a consumer that left early releases what it did not read.
      await reader.cancel().catch(() => {});
      reader.releaseLock();
    }
  };
  return stream as ReadableStream<T> & AsyncIterable<T>;
}
