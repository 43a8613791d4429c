import { errorText } from '../util/error-text.js';
import { truncateText } from '../util/truncate.js';
import { errorMarker, GracefulError, hasMarker } from './graceful-error.js';

/** A model, as the AI SDK names it: its provider and id (`openai.chat`, `gpt-4o`). */
export interface ModelRef {
  provider: string;
  modelId: string;
}

/** One model a call tried, and why it gave up on it. */
export interface FailedModel {
  model: ModelRef;
  /** The failure that ended its turn (for a model whose breaker was open: the `CircuitOpenError`). */
  error: unknown;
  /** The classifier's reason, e.g. `status:503`, `circuit_open`, `finish:interrupted`. */
  reason: string;
}

/** Options of `FailoverError`. */
export interface FailoverErrorOptions {
  /** Every model tried, in order; the last one's error is the `cause`. */
  models: FailedModel[];
}

/**
 * Every model of a call failed (each failure's own text, bounded; not redacted: each is the provider's message, which
 * the call would have thrown as it is without fallbacks): the primary and each of its `fallbackModels` in turn (each with its own retries
 * first, or skipped while its breaker was open). `models` says which were tried and why each was left.
 */
export class FailoverError extends GracefulError {
  readonly models: FailedModel[];

  constructor(options: FailoverErrorOptions) {
    const tried = options.models
      .map(
        ({ model, error, reason }) =>
          `${model.provider}:${model.modelId} (${reason}: ${truncateText(errorText(error), 300)})`,
      )
      .join('; ');
    super(
      'FailoverError',
      `Every model failed: ${tried}. Check the providers' status, or add fallbackModels that do not share the outage.`,
      { cause: options.models.at(-1)?.error },
    );
    this.models = options.models;
  }

  static override isInstance(error: unknown): error is FailoverError {
    return hasMarker(error, errorMarker('FailoverError'));
  }
}
