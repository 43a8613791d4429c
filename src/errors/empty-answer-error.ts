import { errorMarker, GracefulError, hasMarker } from './graceful-error.js';

/** Options of `EmptyAnswerError`. */
export interface EmptyAnswerErrorOptions {
  /** The unified finish reason of the empty answer: `'content-filter'`, `'other'`, `'error'` or `'interrupted'`. */
  finishReason: string;
  /** The provider's own finish reason, when it named one (e.g. Gemini's `'SAFETY'`). */
  rawFinishReason?: string;
}

const advice: Readonly<Record<string, string>> = {
  'content-filter':
    "the provider's content filter withheld the answer: rephrase the request, or check the provider's moderation settings",
};

/**
 * The model answered with no content at all (no text, reasoning, tool call, file or source) and a finish reason that
 * is no deliberate end: `'content-filter'`, `'other'`, `'error'`. The AI SDK passes such an answer on as `''`; the
 * stream guard retries it once (counted against `maxRetries`), then the call fails with this error. An empty answer
 * that ends with `'stop'` (a model that has nothing to add after its tool calls) is an answer, not this error.
 */
export class EmptyAnswerError extends GracefulError {
  readonly finishReason: string;
  readonly rawFinishReason: string | undefined;

  constructor(options: EmptyAnswerErrorOptions) {
    const said =
      options.rawFinishReason === undefined ? '' : ` (the provider said '${options.rawFinishReason}')`;
    const what =
      advice[options.finishReason] ??
      "the provider did not say why: try again later, and check the provider's status if it repeats";
    super(
      'EmptyAnswerError',
      `The model answered with no content, finish reason '${options.finishReason}'${said}: ${what}.`,
    );
    this.finishReason = options.finishReason;
    this.rawFinishReason = options.rawFinishReason;
  }

  static override isInstance(error: unknown): error is EmptyAnswerError {
    return hasMarker(error, errorMarker('EmptyAnswerError'));
  }
}
