import { formatDuration } from '../util/duration.js';
import { errorText } from './error-text.js';
import { errorMarker, GracefulError, hasMarker } from './graceful-error.js';

/** `prompt()` was called while another turn of the same session was still running. */
export class SessionBusyError extends GracefulError {
  constructor() {
    super(
      'SessionBusyError',
      'A turn is already running in this session: prompt() does not queue. Await the running prompt() ' +
        '(or call abort()) before sending the next message.',
    );
  }

  static override isInstance(error: unknown): error is SessionBusyError {
    return hasMarker(error, errorMarker('SessionBusyError'));
  }
}

/** Every automatic retry of a turn failed; `cause` is the last error. */
export class RetryExhaustedError extends GracefulError {
  constructor(
    /** How many retries ran. */
    readonly attempts: number,
    cause: unknown,
  ) {
    super('RetryExhaustedError', `Retry failed after ${attempts} attempts: ${errorText(cause)}`, { cause });
  }

  static override isInstance(error: unknown): error is RetryExhaustedError {
    return hasMarker(error, errorMarker('RetryExhaustedError'));
  }
}

/** `abortRetry()` (or `abort()`) ended a retry chain during its backoff sleep; `cause` is the last error. */
export class RetryCancelledError extends GracefulError {
  constructor(cause: unknown) {
    super(
      'RetryCancelledError',
      `Retry cancelled: the automatic retry after "${errorText(cause)}" was cancelled. ` +
        'Send the message again to retry.',
      { cause },
    );
  }

  static override isInstance(error: unknown): error is RetryCancelledError {
    return hasMarker(error, errorMarker('RetryCancelledError'));
  }
}

/** The server asked for a delay longer than `retry.maxDelayMs`, so the session did not wait; `cause` is its error. */
export class RetryDelayTooLongError extends GracefulError {
  constructor(
    /** The delay the server asked for, in milliseconds. */
    readonly retryAfterMs: number,
    /** The `retry.maxDelayMs` setting it exceeds. */
    readonly maxDelayMs: number,
    cause: unknown,
  ) {
    super(
      'RetryDelayTooLongError',
      `The server asked to wait ${formatDuration(retryAfterMs)} before retrying, which exceeds ` +
        `retry.maxDelayMs (${formatDuration(maxDelayMs)}), so the turn failed without retrying: ` +
        `${errorText(cause)}. Try again later, or raise settings.retry.maxDelayMs.`,
      { cause },
    );
  }

  static override isInstance(error: unknown): error is RetryDelayTooLongError {
    return hasMarker(error, errorMarker('RetryDelayTooLongError'));
  }
}

/** Another session (this process or another live one) holds the session file. */
export class SessionLockedError extends GracefulError {
  constructor(
    readonly path: string,
    readonly pid: number | undefined,
  ) {
    super(
      'SessionLockedError',
      `The session file ${path} is in use by ${pid === undefined ? 'another session' : `process ${pid}`} ` +
        `(lock file ${path}.lock). Close that session first; delete the lock file only if no process uses it.`,
    );
  }

  static override isInstance(error: unknown): error is SessionLockedError {
    return hasMarker(error, errorMarker('SessionLockedError'));
  }
}

/** A `JsonlSessionStore` was written to after `close()`. */
export class SessionStoreClosedError extends GracefulError {
  constructor(readonly path: string) {
    super(
      'SessionStoreClosedError',
      `The session file ${path} is closed; open a new JsonlSessionStore (or AgentSession.load) to write to it.`,
    );
  }

  static override isInstance(error: unknown): error is SessionStoreClosedError {
    return hasMarker(error, errorMarker('SessionStoreClosedError'));
  }
}

/** A session file has an unreadable line before its last one (a torn last line is only skipped). */
export class SessionFileCorruptError extends GracefulError {
  constructor(
    readonly path: string,
    readonly line: number,
    cause: unknown,
  ) {
    super(
      'SessionFileCorruptError',
      `Line ${line} of the session file ${path} is not valid JSON, and it is not the last line, so the ` +
        'history cannot be restored in order. Repair or remove that line, then load the session again.',
      { cause },
    );
  }

  static override isInstance(error: unknown): error is SessionFileCorruptError {
    return hasMarker(error, errorMarker('SessionFileCorruptError'));
  }
}
