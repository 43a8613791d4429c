import type { SessionEntry } from './entries.js';
import type { SessionMessage } from './message.js';

/**
 * Where a session keeps its history. `append` is called in order and synchronously; when it throws, the entry
 * must not be kept (the session then fails the turn with `SessionStoreError` and keeps its messages equal to the
 * store's). A crash loses at most the entry being written. A store that writes somewhere slower (a remote one)
 * keeps the entry in `entries` at once, writes it in the background and reports a refused write from `flush`.
 */
export interface SessionStore<M extends SessionMessage = SessionMessage> {
  /** Every entry so far, oldest first (including those restored when the store was opened). */
  readonly entries: readonly SessionEntry<M>[];
  append(entry: SessionEntry<M>): void;
  /**
   * Appends several entries (the messages of one step) as one unit: all of them, or, when it throws, none. A store
   * without it gets them one `append` at a time.
   */
  appendAll?(entries: readonly SessionEntry<M>[]): void;
  /**
   * For a store whose writes finish after `append` returns: resolves once every entry appended so far is kept;
   * rejects when a write was refused, `entries` then holding only what the store kept (an `appendAll` unit whole
   * or not at all). The session awaits it before each attempt, after each step and before a turn settles, so a
   * refused write fails the turn that made it. A store that has kept an entry when `append` returns needs none.
   */
  flush?(): Promise<void>;
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

  appendAll(entries: readonly SessionEntry<M>[]): void {
    this.#entries.push(...entries);
  }

  close(): void {}
}
