import { wholeSeconds } from '../util/duration.js';
import { errorMarker, GracefulError, hasMarker } from './graceful-error.js';

/**
 * A tool's circuit breaker is open (or half-open with its one trial call already running): the call was rejected
 * at once without running the tool. `cause` is the failure that opened the circuit, when this call saw it.
 */
export class CircuitOpenError extends GracefulError {
  /** The tool whose circuit is open. */
  readonly toolName: string;
  /** How long until the breaker admits a trial call again, in milliseconds. */
  readonly retryAfterMs: number;
  /** The clock time (ms) at which the breaker admits a trial call again. */
  readonly reopensAt: number;

  constructor(options: { toolName: string; retryAfterMs: number; reopensAt: number; cause?: unknown }) {
    super(
      'CircuitOpenError',
      `Tool '${options.toolName}' is temporarily unavailable after repeated failures (circuit open); ` +
        `it can be called again in ${wholeSeconds(options.retryAfterMs)}.`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.toolName = options.toolName;
    this.retryAfterMs = options.retryAfterMs;
    this.reopensAt = options.reopensAt;
  }

  static override isInstance(error: unknown): error is CircuitOpenError {
    return hasMarker(error, errorMarker('CircuitOpenError'));
  }
}
