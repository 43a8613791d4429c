import { formatDuration } from '../util/duration.js';
import { errorMarker, GracefulError, hasMarker } from './graceful-error.js';

/** Why a shared session store refused: another process holds it, this one lost it, or it was closed. */
export type SessionLeaseProblem = 'held' | 'lost' | 'closed';

/** Options of {@link SessionLeaseError}. */
export interface SessionLeaseErrorOptions {
  sessionId: string;
  problem: SessionLeaseProblem;
  /** For `held`: how long the holder's lease still runs, in ms, when known. */
  retryAfterMs?: number;
  cause?: unknown;
}

/**
 * A session store shared between processes (`RedisSessionStore`) is written by one lease holder at a time. `held`:
 * another process holds the session; `lost`: this process's lease ended (not renewed in time, Redis restarted, or
 * another process took over after it expired), so nothing more is written; `closed`: the store was closed.
 */
export class SessionLeaseError extends GracefulError {
  readonly sessionId: string;
  readonly problem: SessionLeaseProblem;
  readonly retryAfterMs: number | undefined;

  constructor(options: SessionLeaseErrorOptions) {
    const { sessionId, problem, retryAfterMs } = options;
    const text = {
      held:
        `Session '${sessionId}' is in use by another process (its lease runs ` +
        `${retryAfterMs === undefined ? 'on' : `for ${formatDuration(retryAfterMs)} more`}). Continue it there, ` +
        'or open it again once that process closes it; a crashed holder loses it when its lease expires.',
      lost:
        `This process can no longer write session '${sessionId}' (its lease expired, Redis lost it, or Redis did not ` +
        'answer), so the entry was not saved. Open the session again (RedisSessionStore.open) to continue from what ' +
        'Redis holds.',
      closed: `The store of session '${sessionId}' is closed; open it again (RedisSessionStore.open) to write to it.`,
    }[problem];
    super('SessionLeaseError', text, options.cause === undefined ? undefined : { cause: options.cause });
    this.sessionId = sessionId;
    this.problem = problem;
    this.retryAfterMs = retryAfterMs;
  }

  static override isInstance(error: unknown): error is SessionLeaseError {
    return hasMarker(error, errorMarker('SessionLeaseError'));
  }
}
