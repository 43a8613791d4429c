import { errorMarker, GracefulError, hasMarker } from './graceful-error.js';

const marker = errorMarker('ModelRetry');

/**
 * Thrown by a tool to ask the model to try again (pydantic-ai's `ModelRetry`). The model sees the message
 * followed by "Fix the errors and try again."; the call counts against the tool's `retries` budget.
 * Write the message for the model: say what was wrong and what would work instead.
 */
export class ModelRetry extends GracefulError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ModelRetry', message, options);
  }

  static override isInstance(error: unknown): error is ModelRetry {
    return hasMarker(error, marker);
  }
}
