import { errorMarker, GracefulError, hasMarker } from './graceful-error.js';

/** Options of `StreamConsumedError`. */
export interface StreamConsumedErrorOptions {
  /** The name of the request or stream that was already consumed (e.g. `result.textStream`). */
  request: string;
}

/**
 * A single-use stream (a provider request, or a `textStream`/`fullStream` object) was streamed a second time.
 * Streaming it again would either corrupt state or silently yield nothing, so it throws instead.
 */
export class StreamConsumedError extends GracefulError {
  /** The name of the request or stream that was already consumed. */
  readonly request: string;

  constructor(options: StreamConsumedErrorOptions) {
    super(
      'StreamConsumedError',
      `${options.request} was already streamed once and cannot be streamed again. ` +
        'Start a new request, or read the result through a fresh getter (e.g. `result.textStream`).',
    );
    this.request = options.request;
  }

  static override isInstance(error: unknown): error is StreamConsumedError {
    return hasMarker(error, errorMarker('StreamConsumedError'));
  }
}
