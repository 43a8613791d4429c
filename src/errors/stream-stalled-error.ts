import { errorMarker, GracefulError, hasMarker } from './graceful-error.js';

/** A stream sent nothing for `stallTimeoutMs`; the guard aborted it and recovers with a new request. */
export class StreamStalledError extends GracefulError {
  readonly stallTimeoutMs: number;

  constructor(stallTimeoutMs: number) {
    super(
      'StreamStalledError',
      `The model stream sent nothing for ${stallTimeoutMs} ms and was aborted. ` +
        'The guard retries it; if this repeats, raise `stallTimeoutMs` or check the provider.',
    );
    this.stallTimeoutMs = stallTimeoutMs;
  }

  static override isInstance(error: unknown): error is StreamStalledError {
    return hasMarker(error, errorMarker('StreamStalledError'));
  }
}
