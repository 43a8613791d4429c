import type { ErrorKind } from '../classify/types.js';
import type { SerializedError, SessionEventMap } from './events.js';
import type { SessionMessage } from './message.js';

/**
 * One record of a session's history, as stores keep it (one JSON line each in a `JsonlSessionStore`).
 * `at` is the session clock's time in milliseconds.
 */
export type SessionEntry<M extends SessionMessage = SessionMessage> =
  /** A message of the conversation: it is part of the context sent to the model. */
  | { type: 'message'; at: number; message: M }
  /**
   * A failed attempt. `partial` holds what the failed step had produced (e.g. cut-off text): kept in the
   * history, never sent to the model again.
   */
  | {
      type: 'error';
      at: number;
      error: SerializedError;
      kind: ErrorKind;
      reason: string;
      partial?: M[];
    }
  | ({ type: 'auto_retry_start'; at: number } & SessionEventMap['auto_retry_start'])
  | ({ type: 'auto_retry_end'; at: number } & SessionEventMap['auto_retry_end'])
  /** Compaction replaced the context with `messages`. */
  | { type: 'compaction'; at: number; messages: M[]; removedCount: number };

/**
 * The context to send to the model, rebuilt from a history: every message entry in order, where a compaction
 * entry replaces everything before it. Error entries (and their partial output) are history only.
 */
export function contextFromEntries<M extends SessionMessage>(entries: readonly SessionEntry<M>[]): M[] {
  let context: M[] = [];
  for (const entry of entries) {
    if (entry.type === 'message') context.push(entry.message);
    else if (entry.type === 'compaction') context = [...entry.messages];
  }
  return context;
}
