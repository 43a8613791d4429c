import type { SessionMessage } from './message.js';

/** What a compaction strategy is told besides the messages. */
export interface CompactionContext {
  /** The context-overflow error that triggered the compaction. */
  error: unknown;
  /** Aborted when the session is aborted. */
  signal: AbortSignal;
}

/**
 * Makes a context that overflowed fit again: returns the messages to continue the turn with (a trimmed list, a
 * summary plus the recent messages, …). The session calls it at most once per turn.
 */
export type CompactStrategy<M extends SessionMessage = SessionMessage> = (
  messages: readonly M[],
  context: CompactionContext,
) => readonly M[] | Promise<readonly M[]>;

/**
 * The default compaction, deterministic (no model call): keeps
 * - every `system` message,
 * - the latest `user` message and everything after it (the running turn, with its tool calls and results),
 * - the newer half of the earlier conversation,
 *
 * and drops the older half. It drops whole exchanges only: an assistant message and the `tool` messages that
 * answer its calls stay together or go together, so no tool result is left without its call. When nothing is
 * droppable, it returns the messages unchanged (the next overflow then fails the turn).
 */
export function trimContext<M extends SessionMessage>(messages: readonly M[]): M[] {
  let latestUser = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === 'user') {
      latestUser = i;
      break;
    }
  }
  const earlier = latestUser < 0 ? [] : messages.slice(0, latestUser);
  // Units: a message alone, or an assistant message followed by the tool messages answering it.
  const units: M[][] = [];
  for (const message of earlier) {
    const last = units.at(-1);
    if (message.role === 'tool' && last?.[0]?.role === 'assistant') last.push(message);
    else units.push([message]);
  }
  const droppable = units.filter((unit) => unit[0]!.role !== 'system');
  const drop = new Set(droppable.slice(0, Math.ceil(droppable.length / 2)));
  const kept = units.filter((unit) => !drop.has(unit)).flat();
  return [...kept, ...messages.slice(Math.max(latestUser, 0))];
}
