import { errorMarker, GracefulError, hasMarker } from './graceful-error.js';

/**
 * How an incomplete stream ended: `'no-finish'` (it closed without a finish part, as the AI Gateway does), or its
 * finish part said `'interrupted'` (the provider's word for a response that ended without its completion signal),
 * `'error'` (the model call ended in an error, e.g. DeepSeek's `insufficient_system_resource`), or `'other'` with no
 * reason from the provider (Bedrock, xAI, DeepSeek and Azure when the body closes without its completion event).
 */
export type StreamEnding = 'no-finish' | 'interrupted' | 'error' | 'other';

/** Options of `StreamInterruptedError`. */
export interface StreamInterruptedErrorOptions {
  /** How the stream ended (see {@link StreamEnding}). */
  ending: StreamEnding;
  /** The provider's own finish reason, when its finish part named one (e.g. vLLM's `'abort'`). */
  rawFinishReason?: string;
  /** Characters of text and reasoning the consumer had been shown when the stream ended. */
  charsEmitted: number;
}

/**
 * A model stream ended cleanly but incomplete: without a finish part, or with a finish that is no completion (see
 * {@link StreamEnding}). No provider error says why (a proxy or load balancer closing the response is the usual
 * cause), so it is transient: the stream guard retries it before content and recovers it after content.
 */
export class StreamInterruptedError extends GracefulError {
  readonly ending: StreamEnding;
  readonly rawFinishReason: string | undefined;
  readonly charsEmitted: number;

  constructor(options: StreamInterruptedErrorOptions) {
    const where =
      options.charsEmitted === 0 ? 'before any content' : `after ${options.charsEmitted} characters`;
    super(
      'StreamInterruptedError',
      `The model stream ended ${where}, ${describeEnding(options)}: the answer is incomplete. The stream guard ` +
        'retries it; if this repeats, check for a proxy or load balancer that closes long responses.',
    );
    this.ending = options.ending;
    this.rawFinishReason = options.rawFinishReason;
    this.charsEmitted = options.charsEmitted;
  }

  static override isInstance(error: unknown): error is StreamInterruptedError {
    return hasMarker(error, errorMarker('StreamInterruptedError'));
  }
}

function describeEnding({ ending, rawFinishReason }: StreamInterruptedErrorOptions): string {
  if (ending === 'no-finish') return 'without a finish';
  if (rawFinishReason !== undefined)
    return `with finish reason '${ending}' (the provider said '${rawFinishReason}')`;
  return ending === 'other'
    ? "with finish reason 'other' and no reason from the provider"
    : `with finish reason '${ending}'`;
}
