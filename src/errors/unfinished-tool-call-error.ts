import { errorMarker, GracefulError, hasMarker } from './graceful-error.js';

const marker = errorMarker('UnfinishedToolCallError');

/** Options of `UnfinishedToolCallError`. */
export interface UnfinishedToolCallErrorOptions {
  toolName: string;
  toolCallId: string;
  /** Whether this call's own failure failed the run (a `graceful: false` tool, a budget used up). */
  endedRun: boolean;
  /** The error the run failed with (for `endedRun`, this call's own). */
  cause: unknown;
}

/**
 * What a failed run leaves on a tool call that got no result the model read: the call whose failure ended the run
 * (`endedRun`), or one still open when the run failed elsewhere. The stream parts of a failed run close such calls
 * with a `tool-error` part carrying this error, so a chat UI shows them as failed. Its text (`toString()`, which
 * the UI shows) is safe to show a user; the error the run failed with is `cause`, and reaches `onError`.
 */
export class UnfinishedToolCallError extends GracefulError {
  // `declare`: assigned in the constructor, no field initialisers emitted (this class ships in every drop-in bundle).
  declare readonly toolName: string;
  declare readonly toolCallId: string;
  declare readonly endedRun: boolean;

  constructor({ toolName, toolCallId, endedRun, cause }: UnfinishedToolCallErrorOptions) {
    super(
      'UnfinishedToolCallError',
      endedRun
        ? 'The tool call failed and the run stopped.'
        : 'The run failed before the tool call finished.',
      { cause },
    );
    this.toolName = toolName;
    this.toolCallId = toolCallId;
    this.endedRun = endedRun;
  }

  /** The message alone: chat UIs show `toString()` of a tool error, and a user needs no class name. */
  override toString(): string {
    return this.message;
  }

  static override isInstance(error: unknown): error is UnfinishedToolCallError {
    return hasMarker(error, marker);
  }
}
