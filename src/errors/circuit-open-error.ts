import { wholeSeconds } from '../util/duration.js';
import type { ModelRef } from './failover-error.js';
import { errorMarker, GracefulError, hasMarker } from './graceful-error.js';

/** Options of `CircuitOpenError`: the tool or the model whose circuit is open, and when it admits a trial again. */
export type CircuitOpenErrorOptions = ({ toolName: string } | { model: ModelRef }) & {
  retryAfterMs: number;
  reopensAt: number;
  cause?: unknown;
};

/**
 * A tool's or a model's circuit breaker is open (or half-open with its one trial call already running): the call was
 * rejected at once, without running the tool or sending the model a request. `cause` is the failure that opened the
 * circuit, when this call saw it.
 */
export class CircuitOpenError extends GracefulError {
  /** The tool whose circuit is open (a tool's breaker). */
  readonly toolName: string | undefined;
  /** The model whose circuit is open (the stream guard's `modelBreaker`). */
  readonly model: ModelRef | undefined;
  /** How long until the breaker admits a trial call again, in milliseconds. */
  readonly retryAfterMs: number;
  /** The clock time (ms) at which the breaker admits a trial call again. */
  readonly reopensAt: number;

  constructor(options: CircuitOpenErrorOptions) {
    const wait = wholeSeconds(options.retryAfterMs);
    super(
      'CircuitOpenError',
      'toolName' in options
        ? `Tool '${options.toolName}' is temporarily unavailable after repeated failures (circuit open); ` +
            `it can be called again in ${wait}.`
        : `Model '${options.model.provider}:${options.model.modelId}' is temporarily unavailable after repeated ` +
            `failures (circuit open); it gets a trial request again in ${wait}. Add fallbackModels to answer meanwhile.`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.toolName = 'toolName' in options ? options.toolName : undefined;
    this.model = 'model' in options ? options.model : undefined;
    this.retryAfterMs = options.retryAfterMs;
    this.reopensAt = options.reopensAt;
  }

  static override isInstance(error: unknown): error is CircuitOpenError {
    return hasMarker(error, errorMarker('CircuitOpenError'));
  }
}
