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

/** Options of {@link RetryExhaustedError}. */
export interface RetryExhaustedErrorOptions {
  /** How many retries ran (after the first attempt). */
  retries: number;
  /** The last error. */
  cause: unknown;
}

/** Every automatic retry of a turn failed; `cause` is the last error. */
export class RetryExhaustedError extends GracefulError {
  /** How many retries ran (after the first attempt). */
  readonly retries: number;

  constructor(options: RetryExhaustedErrorOptions) {
    const { retries, cause } = options;
    super(
      'RetryExhaustedError',
      // The wording is pi's, which RPC clients match on; the turn can be sent again.
      `Retry failed after ${retries} attempts: ${errorText(cause)}`,
      { cause },
    );
    this.retries = retries;
  }

  /** @deprecated Use `retries` (the same number: retries after the first attempt). */
  get attempts(): number {
    return this.retries;
  }

  static override isInstance(error: unknown): error is RetryExhaustedError {
    return hasMarker(error, errorMarker('RetryExhaustedError'));
  }
}

/** Options of `RetryCancelledError`. */
export interface RetryCancelledErrorOptions {
  /** The last error of the cancelled retry chain (the one the retry was for). */
  cause: unknown;
}

/** `abortRetry()` (or `abort()`) ended a retry chain during its backoff sleep; `cause` is the last error. */
export class RetryCancelledError extends GracefulError {
  constructor(options: RetryCancelledErrorOptions) {
    const { cause } = options;
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

/** Options of {@link RetryDelayTooLongError}. */
export interface RetryDelayTooLongErrorOptions {
  /** The delay the server asked for, in ms. */
  retryAfterMs: number;
  /** The `retry.maxRetryAfterMs` setting it exceeds. */
  maxRetryAfterMs: number;
  /** The error that carried the server's delay. */
  cause: unknown;
}

/**
 * The server asked for a delay longer than `retry.maxRetryAfterMs`, so the session did not wait; `cause` is its
 * error.
 */
export class RetryDelayTooLongError extends GracefulError {
  /** The delay the server asked for, in ms. */
  readonly retryAfterMs: number;
  /** The `retry.maxRetryAfterMs` setting it exceeds. */
  readonly maxRetryAfterMs: number;

  constructor(options: RetryDelayTooLongErrorOptions) {
    const { retryAfterMs, maxRetryAfterMs, cause } = options;
    super(
      'RetryDelayTooLongError',
      `The server asked to wait ${formatDuration(retryAfterMs)} before retrying, which exceeds ` +
        `retry.maxRetryAfterMs (${formatDuration(maxRetryAfterMs)}), so the turn failed without retrying: ` +
        `${errorText(cause)}. Try again later, or raise settings.retry.maxRetryAfterMs.`,
      { cause },
    );
    this.retryAfterMs = retryAfterMs;
    this.maxRetryAfterMs = maxRetryAfterMs;
  }

  /** @deprecated Use `maxRetryAfterMs` (the same number). */
  get maxDelayMs(): number {
    return this.maxRetryAfterMs;
  }

  static override isInstance(error: unknown): error is RetryDelayTooLongError {
    return hasMarker(error, errorMarker('RetryDelayTooLongError'));
  }
}

/** Options of `SessionLockedError`. */
export interface SessionLockedErrorOptions {
  /** The session file that is locked. */
  path: string;
  /** The process id written in the lock file, when it could be read. */
  pid?: number;
}

/** Another session (this process or another live one) holds the session file. */
export class SessionLockedError extends GracefulError {
  /** The session file that is locked. */
  readonly path: string;
  /** The process id written in the lock file (`undefined` when it could not be read). */
  readonly pid: number | undefined;

  constructor(options: SessionLockedErrorOptions) {
    const { path, pid } = options;
    super(
      'SessionLockedError',
      `The session file ${path} is in use by ${pid === undefined ? 'another session' : `process ${pid}`} ` +
        `(lock file ${path}.lock). Close that session first; delete the lock file only if no process uses it.`,
    );
    this.path = path;
    this.pid = pid;
  }

  static override isInstance(error: unknown): error is SessionLockedError {
    return hasMarker(error, errorMarker('SessionLockedError'));
  }
}

/** Options of `SessionStoreClosedError`. */
export interface SessionStoreClosedErrorOptions {
  /** The session file whose store was closed. */
  path: string;
}

/** A `JsonlSessionStore` was written to after `close()`. */
export class SessionStoreClosedError extends GracefulError {
  /** The session file whose store was closed. */
  readonly path: string;

  constructor(options: SessionStoreClosedErrorOptions) {
    super(
      'SessionStoreClosedError',
      `The session file ${options.path} is closed; open a new JsonlSessionStore (or AgentSession.load) to write to it.`,
    );
    this.path = options.path;
  }

  static override isInstance(error: unknown): error is SessionStoreClosedError {
    return hasMarker(error, errorMarker('SessionStoreClosedError'));
  }
}

/** Options of `SessionFileCorruptError`. */
export interface SessionFileCorruptErrorOptions {
  /** The session file that cannot be read. */
  path: string;
  /** The 1-based number of the unreadable line. */
  line: number;
  /** The parse error of that line. */
  cause: unknown;
}

/** A session file has an unreadable line before its last one (a torn last line is only skipped). */
export class SessionFileCorruptError extends GracefulError {
  /** The session file that cannot be read. */
  readonly path: string;
  /** The 1-based number of the unreadable line. */
  readonly line: number;

  constructor(options: SessionFileCorruptErrorOptions) {
    const { path, line, cause } = options;
    super(
      'SessionFileCorruptError',
      `Line ${line} of the session file ${path} is not valid JSON, and it is not the last line, so the ` +
        'history cannot be restored in order. Repair or remove that line, then load the session again.',
      { cause },
    );
    this.path = path;
    this.line = line;
  }

  static override isInstance(error: unknown): error is SessionFileCorruptError {
    return hasMarker(error, errorMarker('SessionFileCorruptError'));
  }
}
