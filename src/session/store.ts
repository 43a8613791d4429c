import type { SessionEntry } from './entries.js';
import type { SessionMessage } from './message.js';

/**
 * Where a session keeps its history. `append` is called in order and synchronously, so a crash loses at most
 * the entry being written.
 */
export interface SessionStore<M extends SessionMessage = SessionMessage> {
  /** Every entry so far, oldest first (including those restored when the store was opened). */
  readonly entries: readonly SessionEntry<M>[];
  append(entry: SessionEntry<M>): void;
  /** Releases what the store holds (a file lock). A closed file store refuses further appends. */
  close(): void;
}

/** The default store: the history lives in memory only. */
export class InMemorySessionStore<M extends SessionMessage = SessionMessage> implements SessionStore<M> {
  readonly #entries: SessionEntry<M>[];

  constructor(entries: readonly SessionEntry<M>[] = []) {
    this.#entries = [...entries];
  }

  get entries(): readonly SessionEntry<M>[] {
    return this.#entries;
  }

  append(entry: SessionEntry<M>): void {
    this.#entries.push(entry);
  }

  close(): void {}
}
