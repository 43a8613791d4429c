import { errorMarker, GracefulError, hasMarker } from './graceful-error.js';

/**
 * A tool attempt ran past its per-tool `timeoutMs`: its abort signal fired and the call was abandoned, even if the
 * tool ignored the signal. Transient: the retry policy may try again.
 */
export class ToolTimeoutError extends GracefulError {
  /** The tool's name, when known. */
  readonly toolName: string | undefined;
  /** The limit that was exceeded, in milliseconds. */
  readonly timeoutMs: number;

  constructor(options: { toolName?: string; timeoutMs: number }) {
    const subject = options.toolName ? `Tool '${options.toolName}'` : 'The tool';
    super(
      'ToolTimeoutError',
      `${subject} did not finish within ${options.timeoutMs} ms and was abandoned. ` +
        'It may be slow or overloaded: try again later, or raise its timeoutMs if it is legitimately slow.',
    );
    this.toolName = options.toolName;
    this.timeoutMs = options.timeoutMs;
  }

  static override isInstance(error: unknown): error is ToolTimeoutError {
    return hasMarker(error, errorMarker('ToolTimeoutError'));
  }
}
