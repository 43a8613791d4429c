import { errorMarker, GracefulError, hasMarker } from './graceful-error.js';

/**
 * An RPC command failed: the server answered `success: false` (then `remoteName` is the server-side error's
 * name, e.g. `RetryExhaustedError`), or the server went away before answering.
 */
export class RpcError extends GracefulError {
  constructor(
    message: string,
    /** The name of the error on the server side (`undefined` when the server did not answer). */
    readonly remoteName?: string,
    /** The command that failed. */
    readonly command?: string,
  ) {
    super('RpcError', message);
  }

  static override isInstance(error: unknown): error is RpcError {
    return hasMarker(error, errorMarker('RpcError'));
  }
}
