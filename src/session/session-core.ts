import { classifyError } from '../classify/classify.js';
import { usageLimitMatcher } from '../classify/failure-kind.js';
import type { Classification, ClassifyOverrides } from '../classify/types.js';
import { ContextOverflowError } from '../errors/context-overflow-error.js';
import { SessionBusyError } from '../errors/session-errors.js';
import { Emitter } from '../observe/emitter.js';
import { defaultLogger, type Logger } from '../util/logger.js';
import { type Clock, type Sleep, systemClock } from '../util/time.js';
import { checkBoolean, checkClock, checkFunction, checkOptionsObject } from '../util/validate.js';
import { type CompactStrategy, trimContext } from './compaction.js';
import { contextFromEntries, type SessionEntry } from './entries.js';
import { type SessionEventMap, type SessionListener, serializeError } from './events.js';
import type { SessionMessage } from './message.js';
import { RetryLifecycle, type RetryVerdict } from './retry-lifecycle.js';
import { SessionWrites } from './session-writes.js';
import { resolveSessionSettings, type SessionSettings, type SessionSettingsInput } from './settings.js';
import { InMemorySessionStore, type SessionStore } from './store.js';

/** Emits one session event. */
export type SessionEmit<M extends SessionMessage> = <K extends keyof SessionEventMap<M>>(
  type: K,
  payload: SessionEventMap<M>[K],
) => void;

/** What one attempt of a turn gets from the session. */
export interface TurnAttempt<M extends SessionMessage> {
  /** The context to send: the conversation, including the completed steps of this turn. */
  readonly messages: readonly M[];
  /** Aborted by `abort()`, and when the store fails to save a step (with the `SessionStoreError`). */
  readonly signal: AbortSignal;
  /**
   * A step completed: its messages are saved and join the context, so a retry continues after it and never re-runs
   * its tools. Throws `SessionStoreError` when the store fails; the turn then fails with it even if the caller of
   * this function swallows the throw.
   */
  commitStep(messages: readonly M[]): void;
  /**
   * Resolves once the store holds every entry so far (at once for a store without `flush`). Rejects with
   * `SessionStoreError` when the store refused one; the turn then fails with it even if the caller swallows it.
   */
  flush(): Promise<void>;
  /** A step failed: its partial output is kept in the history (the error entry), never sent to the model again. */
  discardStep(messages: readonly M[]): void;
  /** For the runner's own events (`text_delta`, `tool_call`, `tool_result`). */
  emit: SessionEmit<M>;
}

/** Runs one attempt of a turn against a model; resolves on success, rejects with the attempt's error. */
export type AttemptRunner<M extends SessionMessage, R extends { text: string }> = (
  context: TurnAttempt<M>,
) => Promise<R>;

/**
 * What the usage-limit hook answers: `true` when it switched model or credentials (the session retries at once,
 * with delay 0); anything else lets the turn fail.
 */
export type UsageLimitHook = (error: unknown) => boolean | undefined | Promise<boolean | undefined>;

export interface SessionCoreOptions<M extends SessionMessage> {
  /**
   * Per-session classifier overrides (extra or replaced patterns, `treatAsTransient`, a `classify` hook). The
   * session classifies an error no rule recognises as permanent (`unknown: 'permanent'`) unless you say otherwise.
   */
  classify?: ClassifyOverrides;
  /** Default `{ retry: defaultRetrySettings }`. */
  settings?: SessionSettingsInput;
  /** Default: a new `InMemorySessionStore`. Its entries, if any, are the conversation to continue. */
  store?: SessionStore<M>;
  /** Default `trimContext`. */
  compact?: CompactStrategy<M>;
  onUsageLimit?: UsageLimitHook;
  /** Default `systemClock` (entry times). */
  clock?: Clock;
  /** Default `abortableSleep` (backoff). */
  sleep?: Sleep;
  /** Default `defaultLogger` (throwing listeners are logged). */
  logger?: Logger;
}

/**
 * The framework-agnostic session: a conversation, one turn at a time, with the retry lifecycle, compaction,
 * events and persistence. A model adapter supplies the attempt runner (see `AgentSession`).
 *
 * Per failed attempt, in this order: abort (never retried) → context overflow (compact once, then continue;
 * a second overflow fails the turn) → usage limit with an `onUsageLimit` hook that switched (retry at once) →
 * transient (retry with backoff or the server's delay) → anything else fails the turn.
 */
export class SessionCore<M extends SessionMessage, R extends { text: string }> {
  #settings: SessionSettings;
  readonly store: SessionStore<M>;
  #context: M[];
  /** The running turn (aborted by `abort()`). */
  #running: AbortController | undefined;
  /** The running attempt (aborted with the turn, or when the store fails during it). */
  #attempt: AbortController | undefined;
  /** Every write to the store, and the store's failure in the running turn. */
  readonly #writes: SessionWrites<M>;
  readonly #emitter: Emitter<SessionEventMap<M>>;
  readonly #lifecycle: RetryLifecycle;
  readonly #options: SessionCoreOptions<M>;
  readonly #clock: Clock;
  readonly #classifyOptions: ClassifyOverrides;
  readonly #isUsageLimit: (classification: Classification) => boolean;

  constructor(options: SessionCoreOptions<M>) {
    this.#options = options;
    this.#settings = resolveSessionSettings(options.settings);
    checkOptionsObject('classify', options.classify);
    checkFunction('classify.classify', options.classify?.classify);
    checkFunction('compact', options.compact);
    checkFunction('onUsageLimit', options.onUsageLimit);
    checkClock('clock', options.clock);
    checkFunction('sleep', options.sleep);
    this.store = options.store ?? new InMemorySessionStore<M>();
    this.#context = contextFromEntries(this.store.entries);
    this.#writes = new SessionWrites(this.store, (error, later) => {
      // The store kept less than was appended: the context is rebuilt from it, so both still match.
      if (later) this.#context = contextFromEntries(this.store.entries);
      this.#attempt?.abort(error);
    });
    this.#clock = options.clock ?? systemClock;
    this.#classifyOptions = { unknown: 'permanent', ...options.classify };
    this.#isUsageLimit = usageLimitMatcher(this.#classifyOptions.patterns);
    this.#emitter = new Emitter<SessionEventMap<M>>(options.logger ?? defaultLogger);
    this.#lifecycle = new RetryLifecycle({
      settings: () => this.#settings.retry,
      sleep: options.sleep,
      emit: (type, payload) => {
        try {
          this.#record({ type, at: this.#clock.now(), ...payload } as SessionEntry<M>);
        } finally {
          // Listeners learn that a chain started or ended even when the store failed to record it.
          this.#emitter.emit(type, payload as SessionEventMap<M>[typeof type]);
        }
      },
    });
  }

  /** The context sent to the model: the conversation after any compaction, without failed attempts. */
  get messages(): readonly M[] {
    return this.#context;
  }

  get isRunning(): boolean {
    return this.#running !== undefined;
  }

  get isRetrying(): boolean {
    return this.#lifecycle.isRetrying;
  }

  /** Retries in the running chain (0 = idle). */
  get retryAttempt(): number {
    return this.#lifecycle.attempt;
  }

  /** The session's settings: a plain, frozen object; change them with {@link updateSettings}. */
  get settings(): SessionSettings {
    return this.#settings;
  }

  /**
   * Lays `input` over the current settings, checked as the constructor's option is. The running retry chain reads
   * them at its next decision.
   */
  updateSettings(input: SessionSettingsInput): void {
    this.#settings = resolveSessionSettings(input, this.#settings);
  }

  get autoRetryEnabled(): boolean {
    return this.#settings.retry.enabled;
  }

  setAutoRetryEnabled(enabled: boolean): void {
    checkBoolean('enabled', enabled);
    this.updateSettings({ retry: { enabled } });
  }

  /** Resolves when the running retry chain ends (at once when none runs). */
  waitForRetry(): Promise<void> {
    return this.#lifecycle.waitForRetry();
  }

  /** Adds a listener for every session event; returns the function that removes it. Throwing listeners are ignored. */
  subscribe(listener: SessionListener<M>): () => void {
    return this.#emitter.subscribe(listener as Parameters<Emitter<SessionEventMap<M>>['subscribe']>[0]);
  }

  /**
   * Cancels the retry of a failed attempt: its backoff sleep at once, or, called before the sleep (from an
   * `attempt_error` or `auto_retry_start` listener, during a usage-limit hook), the retry itself. The turn fails
   * with `RetryCancelledError`. A no-op while an attempt runs.
   */
  abortRetry(): void {
    this.#lifecycle.abortRetry();
  }

  /**
   * Aborts the turn: the running attempt, a backoff sleep, or whatever runs between attempts (compaction, a
   * usage-limit hook: the turn ends when it returns). The turn fails with `reason` (default: an `AbortError`).
   */
  abort(reason?: unknown): void {
    this.#running?.abort(reason);
  }

  /**
   * Runs one user turn: appends `userMessage`, runs attempts until one succeeds or the turn fails, and settles
   * only then. Rejects at once with `SessionBusyError` while another turn runs. However the turn ends, a retry
   * chain it started ends with it (`auto_retry_end`, counter back to 0). A store with `flush` holds every entry of
   * the turn before it settles: a refused write fails this turn, never the next one.
   */
  async runTurn(text: string, userMessage: M, run: AttemptRunner<M, R>): Promise<R> {
    if (this.#running) throw new SessionBusyError();
    const turn = new AbortController();
    this.#running = turn;
    this.#writes.startTurn();
    try {
      this.#emit('turn_start', { text });
      this.#commit([userMessage]);
      const result = await this.#attempts(run, turn.signal);
      await this.#writes.flush();
      this.#emit('turn_end', { success: true, text: result.text });
      return result;
    } catch (thrown) {
      try {
        // Whatever threw (the store, a compaction or usage-limit hook, an abort), the chain ends with the turn.
        this.#lifecycle.fail(thrown);
      } catch {
        // Only the store can throw here, and `#writes.failure` holds its error.
      }
      // What the failed turn wrote is settled with it; a refused write is kept in `#writes.failure`, and wins.
      await this.#writes.flush().catch(() => {});
      const error = this.#writes.failure ?? thrown;
      this.#emit('turn_end', { success: false, error: serializeError(error) });
      throw error;
    } finally {
      this.#running = undefined;
    }
  }

  async #attempts(run: AttemptRunner<M, R>, signal: AbortSignal): Promise<R> {
    let compacted = false;
    for (;;) {
      signal.throwIfAborted();
      // No request goes out before the store holds what came before it (the user message, a retry's entries).
      // Only then: with other stores the attempt starts at once, as `abort()` right after `runTurn` expects.
      if (this.store.flush !== undefined) await this.#writes.flush();
      // The attempt's own signal: the turn's abort, or a store failure inside a callback that swallows errors.
      const attempt = new AbortController();
      const onAbort = () => attempt.abort(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      this.#attempt = attempt;
      const partial: M[] = [];
      let result: R;
      try {
        result = await run({
          messages: [...this.#context],
          signal: attempt.signal,
          commitStep: (messages) => this.#commit(messages),
          flush: () => this.#writes.flush(),
          discardStep: (messages) => {
            partial.push(...messages);
          },
          emit: (type, payload) => this.#emit(type, payload),
        });
      } catch (error) {
        if (this.#writes.failure) throw this.#writes.failure;
        this.#lifecycle.attemptFailed();
        const classification = this.#classify(error, signal);
        const serialized = serializeError(error);
        const { kind, reason } = classification;
        try {
          const saved = { type: 'error' as const, at: this.#clock.now(), error: serialized, kind, reason };
          this.#record(partial.length > 0 ? { ...saved, partial } : saved);
        } finally {
          this.#emit('attempt_error', { error: serialized, kind, reason });
        }
        const decision = await this.#decide(error, classification, compacted, signal);
        if (!decision.retry) throw decision.error;
        if (classification.kind === 'overflow') compacted = true;
        continue;
      } finally {
        signal.removeEventListener('abort', onAbort);
        this.#attempt = undefined;
      }
      // A step whose commit failed in a callback that swallows errors (the AI SDK's `onStepEnd`).
      if (this.#writes.failure) throw this.#writes.failure;
      this.#lifecycle.succeeded();
      return result;
    }
  }

  async #decide(
    error: unknown,
    classification: Classification,
    compacted: boolean,
    signal: AbortSignal,
  ): Promise<RetryVerdict> {
    switch (classification.kind) {
      case 'abort':
        return this.#lifecycle.fail(error);
      case 'overflow':
        if (compacted) return this.#lifecycle.fail(new ContextOverflowError({ cause: error }));
        await this.#compact(error, signal);
        return { retry: true };
      case 'transient': {
        const retryAfterMs = classification.retryAfterMs;
        const tooLong = retryAfterMs !== undefined && retryAfterMs > this.#settings.retry.maxRetryAfterMs;
        // A reset window too long to wait for is a usage limit too: the hook may switch before we give up.
        const immediate = tooLong && (await this.#usageLimitSwitched(error, signal));
        return this.#lifecycle.retry(error, { retryAfterMs, immediate, signal });
      }
      case 'permanent':
        if (this.#isUsageLimit(classification) && (await this.#usageLimitSwitched(error, signal))) {
          return this.#lifecycle.retry(error, { immediate: true, signal });
        }
        return this.#lifecycle.fail(error);
    }
  }

  async #usageLimitSwitched(error: unknown, signal: AbortSignal): Promise<boolean> {
    const hook = this.#options.onUsageLimit;
    if (hook === undefined || !this.#settings.retry.enabled) return false;
    const switched = (await hook(error)) === true;
    signal.throwIfAborted();
    return switched;
  }

  async #compact(error: unknown, signal: AbortSignal): Promise<void> {
    const before = this.#context;
    this.#emit('compaction_start', {
      messageCount: before.length,
      errorMessage: serializeError(error).message,
    });
    const compact = this.#options.compact ?? trimContext;
    signal.throwIfAborted(); // a `compaction_start` listener may have aborted the turn
    const after = [...(await compact(before, { error, signal }))];
    signal.throwIfAborted();
    const removedCount = Math.max(0, before.length - after.length);
    // Saved first: the context changes only when the store holds the change.
    // A copy: the context grows on, the entry must not (an in-memory store keeps the object itself).
    this.#writes.save([{ type: 'compaction', at: this.#clock.now(), messages: [...after], removedCount }]);
    this.#context = after;
    this.#emit('compaction_end', { messageCount: after.length, removedCount });
  }

  #classify(error: unknown, signal: AbortSignal): Classification {
    // The session's own abort wins over everything, a user `classify` hook included.
    if (signal.aborted) return { kind: 'abort', reason: 'signal:aborted' };
    return classifyError(error, { ...this.#classifyOptions, signal, clock: this.#clock });
  }

  /**
   * Messages join the conversation once the store holds them, so the context always equals what the store would
   * restore. A step's messages are saved as one unit where the store can (`appendAll`).
   */
  #commit(messages: readonly M[]): void {
    if (this.#writes.failure) throw this.#writes.failure;
    const at = this.#clock.now();
    const entries = messages.map((message): SessionEntry<M> => ({ type: 'message', at, message }));
    const units = this.store.appendAll === undefined ? entries.map((entry) => [entry]) : [entries];
    let joined = 0;
    for (const unit of units) {
      this.#writes.save(unit);
      for (const message of messages.slice(joined, joined + unit.length)) {
        this.#context.push(message);
        this.#emit('message', { message });
      }
      joined += unit.length;
    }
  }

  /** Records a history-only entry; skipped once the store failed in this turn (the turn already fails with it). */
  #record(entry: SessionEntry<M>): void {
    if (!this.#writes.failure) this.#writes.save([entry]);
  }

  #emit<K extends keyof SessionEventMap<M>>(type: K, payload: SessionEventMap<M>[K]): void {
    this.#emitter.emit(type, payload);
  }
}
