import { formatDuration, wholeSeconds } from '../util/duration.js';
import { errorMarker, GracefulError, hasMarker } from './graceful-error.js';

/**
 * A call was not sent because a process sharing the same coordination was told to wait (a provider's or tool's
 * retry-after, or a circuit that opened), for longer than this call may wait (its `maxRetryAfterMs`, or what is left
 * of its time budget). Nothing ran. Transient, with `retryAfterMs`: the retry rule stops at once with it.
 */
export class CooldownError extends GracefulError {
  /** What is cooling down: `tool:<name>` or `model:<provider>:<model id>[:<key fingerprint>]`. */
  readonly key: string;
  /** How long until it may be called again, in milliseconds. */
  readonly retryAfterMs: number;
  /** The longest this call could wait, in milliseconds. */
  readonly maxWaitMs: number;

  constructor(options: { key: string; retryAfterMs: number; maxWaitMs: number }) {
    super(
      'CooldownError',
      `'${options.key}' is cooling down: another caller sharing this coordination was asked to wait; it can be ` +
        `called again in ${wholeSeconds(options.retryAfterMs)}, longer than this call may wait ` +
        `(${formatDuration(options.maxWaitMs)}). Try again later, or raise maxRetryAfterMs to wait it out.`,
    );
    this.key = options.key;
    this.retryAfterMs = options.retryAfterMs;
    this.maxWaitMs = options.maxWaitMs;
  }

  static override isInstance(error: unknown): error is CooldownError {
    return hasMarker(error, errorMarker('CooldownError'));
  }
}
