import { errorMarker, GracefulError, hasMarker } from './graceful-error.js';

const marker = errorMarker('ModelRetry');

/** Options of `ModelRetry`. */
export interface ModelRetryOptions {
  /** What the model reads: what was wrong with its call and what would work instead. */
  message: string;
  /** The underlying error, for logs and classification (the model does not see it). */
  cause?: unknown;
}

/**
 * Thrown by a tool to ask the model to try again (pydantic-ai's `ModelRetry`). The model sees the message
 * followed by "Fix the errors and try again."; the call counts against the tool's `retries` budget.
 * Write the message for the model: say what was wrong and what would work instead.
 *
 * Both `new ModelRetry('No city "Pariss". Did you mean "Paris"?')` (pydantic-ai style, with an optional
 * `{ cause }` second argument) and `new ModelRetry({ message, cause })` work.
 */
export class ModelRetry extends GracefulError {
  /** Asks the model to try again; `message` is what the model reads. */
  constructor(options: ModelRetryOptions);
  /** Asks the model to try again; `message` is what the model reads (pydantic-ai style). */
  constructor(message: string, options?: Omit<ModelRetryOptions, 'message'>);
  constructor(
    messageOrOptions: string | ModelRetryOptions,
    options: Omit<ModelRetryOptions, 'message'> = {},
  ) {
    const fields: Partial<ModelRetryOptions> =
      typeof messageOrOptions === 'object' && messageOrOptions !== null
        ? messageOrOptions
        : { ...causeOf(options), message: messageOrOptions };
    super('ModelRetry', fields.message as string, causeOf(fields));
  }

  static override isInstance(error: unknown): error is ModelRetry {
    return hasMarker(error, marker);
  }
}

/** `{ cause }` when `options` has one (even `undefined`, as `Error` does), otherwise nothing. */
function causeOf(options: unknown): { cause?: unknown } | undefined {
  return typeof options === 'object' && options !== null && 'cause' in options
    ? { cause: options.cause }
    : undefined;
}
