import { SessionStoreError } from '../errors/session-errors.js';
import type { SessionEntry } from './entries.js';
import type { SessionMessage } from './message.js';
import type { SessionStore } from './store.js';

/**
 * Called once per failure. `later` is true when the store refused, from `flush`, entries its `append` had accepted:
 * it then holds fewer entries than were appended.
 */
export type StoreFailureHandler = (error: SessionStoreError, later: boolean) => void;

/**
 * A session's writes to its store. The first one that fails becomes the turn's `SessionStoreError`, kept until the
 * next turn starts; a store that writes in the background (`flush`) is waited for where the session needs its
 * entries kept, one flush after the other.
 */
export class SessionWrites<M extends SessionMessage> {
  readonly #store: SessionStore<M>;
  readonly #onFailure: StoreFailureHandler;
  #failure: SessionStoreError | undefined;
  /** The types of the entries a store with `flush` has not confirmed yet, oldest first. */
  #unconfirmed: SessionEntry<M>['type'][] = [];
  #flushing: Promise<void> = Promise.resolve();

  constructor(store: SessionStore<M>, onFailure: StoreFailureHandler) {
    this.#store = store;
    this.#onFailure = onFailure;
  }

  /** The store's failure in the running turn: the turn fails with it. */
  get failure(): SessionStoreError | undefined {
    return this.#failure;
  }

  /** A new turn tries the store again. */
  startTurn(): void {
    this.#failure = undefined;
  }

  /** Saves entries as one unit where the store can (`appendAll`); throws `SessionStoreError` when it fails. */
  save(entries: readonly SessionEntry<M>[]): void {
    const store = this.#store;
    try {
      if (entries.length > 1 && store.appendAll !== undefined) store.appendAll(entries);
      else for (const entry of entries) store.append(entry);
    } catch (cause) {
      throw this.#failed(entries[0]!.type, cause, false);
    }
    if (store.flush !== undefined) for (const entry of entries) this.#unconfirmed.push(entry.type);
  }

  /**
   * Resolves once the store holds every entry saved so far (at once for a store without `flush`); rejects with the
   * turn's `SessionStoreError` when it refused one, or failed earlier in the turn.
   */
  flush(): Promise<void> {
    const next = this.#flushing.then(() => this.#flushNow());
    // Each flush rejects on its own: the chain only orders them.
    this.#flushing = next.catch(() => {});
    return next;
  }

  async #flushNow(): Promise<void> {
    if (this.#failure) throw this.#failure;
    const store = this.#store;
    const pending = this.#unconfirmed;
    if (store.flush === undefined || pending.length === 0) return;
    this.#unconfirmed = [];
    const confirmed = store.entries.length - pending.length;
    try {
      await store.flush();
    } catch (cause) {
      // Named after the first entry the store did not keep.
      throw this.#failed(pending[store.entries.length - confirmed] ?? pending[0]!, cause, true);
    }
  }

  #failed(entryType: string, cause: unknown, later: boolean): SessionStoreError {
    const error = new SessionStoreError({ entryType, cause });
    this.#failure = error;
    this.#onFailure(error, later);
    return error;
  }
}
