import { boundedErrorText } from '../redact/bounded-error-text.js';
import { formatDuration } from '../util/duration.js';
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
      `Retry failed after ${retries} attempts: ${boundedErrorText(cause)}`,
      { cause },
    );
    this.retries = retries;
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
      `Retry cancelled: the automatic retry after "${boundedErrorText(cause)}" was cancelled. ` +
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
        `${boundedErrorText(cause)}. Try again later, or raise settings.retry.maxRetryAfterMs.`,
      { cause },
    );
    this.retryAfterMs = retryAfterMs;
    this.maxRetryAfterMs = maxRetryAfterMs;
  }

  static override isInstance(error: unknown): error is RetryDelayTooLongError {
    return hasMarker(error, errorMarker('RetryDelayTooLongError'));
  }
}

/** Options of `SessionLockedError`. */
export interface SessionLockedErrorOptions {
  /** The session file that is locked. */
  path: string;
  /** The process id of the holder, when its lock could be read. */
  pid?: number;
  /** The host of the holder, when it is not this host (its process cannot be checked from here). */
  host?: string;
}

/** Another session (this process or another live one) holds the session file. */
export class SessionLockedError extends GracefulError {
  /** The session file that is locked. */
  readonly path: string;
  /** The process id of the holder (`undefined` when its lock could not be read). */
  readonly pid: number | undefined;
  /** The holder's host when it is another host (`undefined` on this host). */
  readonly host: string | undefined;

  constructor(options: SessionLockedErrorOptions) {
    const { path, pid, host } = options;
    const holder = pid === undefined ? 'another session' : `process ${pid}${host ? ` on host ${host}` : ''}`;
    super(
      'SessionLockedError',
      `The session file ${path} is in use by ${holder} (lock ${path}.lock). Close that session first; ` +
        `delete ${path}.lock only if no process uses the file${host ? ' (a lock from another host is never taken over)' : ''}.`,
    );
    this.path = path;
    this.pid = pid;
    this.host = host;
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
  /** What is wrong with the line (default "is not valid JSON"), e.g. "is not a session entry: `message` is missing". */
  problem?: string;
  /** The parse error of that line, if any. */
  cause?: unknown;
}

/**
 * A line of a session file is not valid JSON (a torn last line is only skipped), not a session entry of a known
 * shape, not UTF-8, or too long to read.
 */
export class SessionFileCorruptError extends GracefulError {
  /** The session file that cannot be read. */
  readonly path: string;
  /** The 1-based number of the unreadable line. */
  readonly line: number;

  constructor(options: SessionFileCorruptErrorOptions) {
    const { path, line, problem = 'is not valid JSON', cause } = options;
    super(
      'SessionFileCorruptError',
      `Line ${line} of the session file ${path} ${problem}, so the history cannot be restored in order. ` +
        'Repair or remove that line, then load the session again.',
      { cause },
    );
    this.path = path;
    this.line = line;
  }

  static override isInstance(error: unknown): error is SessionFileCorruptError {
    return hasMarker(error, errorMarker('SessionFileCorruptError'));
  }
}

/** Options of `SessionStoreError`. */
export interface SessionStoreErrorOptions {
  /** The `type` of the entry that could not be saved (`message`, `error`, `auto_retry_start`, …). */
  entryType: string;
  /** What the store threw (e.g. `ENOSPC`, `SessionStoreClosedError`). */
  cause: unknown;
}

/**
 * The session's store failed to save an entry during a turn, so the turn failed: the session's messages still
 * match what the store holds (the entry that failed, and everything after it in the turn, are in neither).
 */
export class SessionStoreError extends GracefulError {
  /** The `type` of the entry that could not be saved. */
  readonly entryType: string;

  constructor(options: SessionStoreErrorOptions) {
    const { entryType, cause } = options;
    super(
      'SessionStoreError',
      `The session store could not save a ${entryType} entry (${boundedErrorText(cause, 500)}), so the turn ` +
        'was stopped: the session and its store still hold the same conversation, without this step. Fix the ' +
        'store (free disk space, reopen a closed store), then send the message again.',
      { cause },
    );
    this.entryType = entryType;
  }

  static override isInstance(error: unknown): error is SessionStoreError {
    return hasMarker(error, errorMarker('SessionStoreError'));
  }
}
