import { errorMarker, GracefulError, hasMarker } from './graceful-error.js';

const marker = errorMarker('AggregateToolError');

/** One tool call that failed loudly. `error` is the very object the tool threw. */
export interface ToolFailure {
  /** The name of the tool that failed. */
  toolName: string;
  /** The id of the failed call, as the model sent it. */
  toolCallId: string;
  /** The very value the tool threw. */
  error: unknown;
}

/** Options of `AggregateToolError`. */
export interface AggregateToolErrorOptions {
  /** The step's loud tool failures (two or more); the first one's error becomes `cause`. */
  errors: readonly ToolFailure[];
}

/**
 * Two or more `graceful: false` tools failed in the same step; each original error is in `errors`.
 * (A single loud failure rejects with the tool's own error object instead.)
 */
export class AggregateToolError extends GracefulError {
  readonly errors: readonly ToolFailure[];

  constructor(options: AggregateToolErrorOptions) {
    const { errors } = options;
    const names = errors.map((e) => `'${e.toolName}' (${e.toolCallId})`).join(', ');
    super(
      'AggregateToolError',
      `${errors.length} tools failed in one step: ${names}. Inspect \`errors\` for each original error.`,
      { cause: errors[0]?.error },
    );
    this.errors = errors;
  }

  static override isInstance(error: unknown): error is AggregateToolError {
    return hasMarker(error, marker);
  }
}
