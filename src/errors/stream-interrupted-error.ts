import { errorMarker, GracefulError, hasMarker } from './graceful-error.js';

/** Options of `StreamInterruptedError`. */
export interface StreamInterruptedErrorOptions {
  /**
   * How the stream ended: `'no-finish'` (it closed without a finish part) or `'interrupted'` (its finish part says
   * `finishReason: 'interrupted'`, the provider's word for a response that ended without its completion signal).
   */
  ending: 'no-finish' | 'interrupted';
  /** Characters of text and reasoning the consumer had been shown when the stream ended. */
  charsEmitted: number;
}

/**
 * A model stream ended cleanly but incomplete: without a finish part, or with finish reason `'interrupted'`. No
 * provider error says why (a proxy or load balancer closing the response is the usual cause), so it is transient:
 * the stream guard retries it before content and recovers it after content.
 */
export class StreamInterruptedError extends GracefulError {
  readonly ending: 'no-finish' | 'interrupted';
  readonly charsEmitted: number;

  constructor(options: StreamInterruptedErrorOptions) {
    const where =
      options.charsEmitted === 0 ? 'before any content' : `after ${options.charsEmitted} characters`;
    const how = options.ending === 'no-finish' ? 'without a finish' : "with finish reason 'interrupted'";
    super(
      'StreamInterruptedError',
      `The model stream ended ${where}, ${how}: the answer is incomplete. The stream guard retries it; if this ` +
        'repeats, check what sits between you and the provider (a proxy or load balancer that closes long responses).',
    );
    this.ending = options.ending;
    this.charsEmitted = options.charsEmitted;
  }

  static override isInstance(error: unknown): error is StreamInterruptedError {
    return hasMarker(error, errorMarker('StreamInterruptedError'));
  }
}
