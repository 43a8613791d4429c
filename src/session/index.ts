/**
 * `graceful-ai/session`: the framework-agnostic parts of a session — settings and their defaults, history entries,
 * compaction, events, stores and the error of a store that fails during a turn. `AgentSession` itself is in the
 * main entry. See docs/session.md.
 */
export { SessionStoreError, type SessionStoreErrorOptions } from '../errors/session-errors.js';
export { type CompactionContext, type CompactStrategy, trimContext } from './compaction.js';
export { contextFromEntries, type SessionEntry } from './entries.js';
export type {
  SerializedError,
  SessionEvent,
  SessionEventMap,
  SessionEventType,
  SessionListener,
} from './events.js';
export { JsonlSessionStore, type JsonlSessionStoreOptions } from './jsonl-store.js';
export type { SessionMessage } from './message.js';
export {
  defaultRetrySettings,
  type RetrySettings,
  type SessionSettings,
  type SessionSettingsInput,
} from './settings.js';
export { InMemorySessionStore, type SessionStore } from './store.js';
