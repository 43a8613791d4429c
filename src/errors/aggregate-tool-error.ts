import { errorMarker, GracefulError, hasMarker } from './graceful-error.js';

const marker = errorMarker('AggregateToolError');

/** One tool call that failed loudly. `error` is the very object the tool threw. */
export interface ToolFailure {
  toolName: string;
  toolCallId: string;
  error: unknown;
}

/**
 * Two or more `graceful: false` tools failed in the same step; each original error is in `errors`.
 * (A single loud failure rejects with the tool's own error object instead.)
 */
export class AggregateToolError extends GracefulError {
  readonly errors: readonly ToolFailure[];

  constructor(errors: readonly ToolFailure[]) {
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
