import { errorMarker, GracefulError, hasMarker } from './graceful-error.js';

/** Options of `McpToolError`. */
export interface McpToolErrorOptions {
  /** What the server said: the text of the result's `content`. */
  message: string;
  /** The tool's name, when known. */
  toolName?: string;
  /** The result as the server sent it (`content`, `isError`, `structuredContent`, `_meta`). */
  result: unknown;
}

/**
 * An MCP tool reported a failure in its result (`isError: true`, the MCP specification's way to report a tool
 * error; the official MCP SDK's `McpServer` turns every exception a tool throws into such a result). `@ai-sdk/mcp`
 * hands that result back as an ordinary output; `gracefulTool` throws this error instead, so the failure counts
 * against `retries` and the breaker, is retried when the tool is safe to run again, reaches the model with its
 * guidance and is a `tool-error` part in the stream and the UI. `result` keeps what the server sent.
 */
export class McpToolError extends GracefulError {
  readonly toolName: string | undefined;
  readonly result: unknown;

  constructor(options: McpToolErrorOptions) {
    super(
      'McpToolError',
      options.message.trim() === '' ? 'The MCP tool reported an error without a message.' : options.message,
    );
    this.toolName = options.toolName;
    this.result = options.result;
  }

  static override isInstance(error: unknown): error is McpToolError {
    return hasMarker(error, errorMarker('McpToolError'));
  }
}
