import { errorMarker, GracefulError, hasMarker } from './graceful-error.js';

/** Options of `StreamStalledError`. */
export interface StreamStalledErrorOptions {
  /** How long the stream sent nothing before the guard aborted it, in milliseconds. */
  stallTimeoutMs: number;
}

/** A stream sent nothing for `stallTimeoutMs`; the guard aborted it and recovers with a new request. */
export class StreamStalledError extends GracefulError {
  readonly stallTimeoutMs: number;

  constructor(options: StreamStalledErrorOptions) {
    super(
      'StreamStalledError',
      `The model stream sent nothing for ${options.stallTimeoutMs} ms and was aborted. ` +
        'The guard retries it; if this repeats, raise `stallTimeoutMs` or check the provider.',
    );
    this.stallTimeoutMs = options.stallTimeoutMs;
  }

  static override isInstance(error: unknown): error is StreamStalledError {
    return hasMarker(error, errorMarker('StreamStalledError'));
  }
}
