import { errorMarker, GracefulError, hasMarker } from './graceful-error.js';

/** Options of `RpcError`. */
export interface RpcErrorOptions {
  /**
   * What failed and what to do: the server-side error's message, or why the client got no answer. When empty,
   * a generic message naming the command and the remote error is used.
   */
  message: string;
  /** The name of the error on the server side (`undefined` when the server did not answer). */
  remoteName?: string;
  /** The command that failed. */
  command?: string;
}

/**
 * An RPC command failed: the server answered `success: false` (then `remoteName` is the server-side error's
 * name, e.g. `RetryExhaustedError`), or the server went away before answering.
 */
export class RpcError extends GracefulError {
  /** The name of the error on the server side (`undefined` when the server did not answer). */
  readonly remoteName: string | undefined;
  /** The command that failed. */
  readonly command: string | undefined;

  constructor(options: RpcErrorOptions) {
    super('RpcError', options.message || fallbackMessage(options));
    this.remoteName = options.remoteName;
    this.command = options.command;
  }

  static override isInstance(error: unknown): error is RpcError {
    return hasMarker(error, errorMarker('RpcError'));
  }
}

function fallbackMessage({ remoteName, command }: RpcErrorOptions): string {
  const what = command === undefined ? 'An RPC command' : `The RPC command '${command}'`;
  const how = remoteName === undefined ? '' : ` with ${remoteName}`;
  return `${what} failed${how} without a message. Check the server's logs, then send the command again.`;
}
