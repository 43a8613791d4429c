import { StreamConsumedError } from '../errors/stream-consumed-error.js';

/**
 * One provider request that can be streamed exactly once. Retrying a spent streamed request is the bug this
 * prevents: recovery always builds a NEW request; streaming this one again throws {@link StreamConsumedError}.
 */
export class SingleUseRequest<T> {
  #consumed = false;

  /**
   * @param name - Names the request in errors and diagnostics, e.g. `stream attempt 2 (openai.chat:gpt-4o)`.
   * @param start - Sends the request; called at most once.
   */
  constructor(
    readonly name: string,
    private readonly start: () => PromiseLike<T>,
  ) {}

  /** Sends the request. Throws {@link StreamConsumedError} (synchronously) on a second call. */
  stream(): PromiseLike<T> {
    if (this.#consumed) throw new StreamConsumedError({ request: this.name });
    this.#consumed = true;
    return this.start();
  }
}

/**
 * Makes an async-iterable stream object single-use: its first iteration works as before, a second iteration
 * throws {@link StreamConsumedError} instead of silently yielding nothing. Returns the same object.
 */
export function singleUseIterable<S extends AsyncIterable<unknown>>(stream: S, name: string): S {
  const iterate = stream[Symbol.asyncIterator];
  let consumed = false;
  Object.defineProperty(stream, Symbol.asyncIterator, {
    configurable: true,
    value(this: S) {
      if (consumed) throw new StreamConsumedError({ request: name });
      consumed = true;
      return iterate.call(this);
    },
  });
  return stream;
}
