import { isStepCount, type LanguageModel, type ModelMessage, type StopCondition, type ToolSet } from 'ai';
import type { ClassifyOverrides } from '../../../src/classify/types.js';
import { SessionSpans } from '../../../src/observe/otel/session-spans.js';
import { type Coordination, checkCoordination } from '../../../src/policy/coordination.js';
import type { CompactStrategy } from '../../../src/session/compaction.js';
import type { SessionListener } from '../../../src/session/events.js';
import { JsonlSessionStore, type JsonlSessionStoreOptions } from '../../../src/session/jsonl-store.js';
import { SessionCore, type TurnAttempt } from '../../../src/session/session-core.js';
import type { SessionSettings, SessionSettingsInput } from '../../../src/session/settings.js';
import type { SessionStore } from '../../../src/session/store.js';
import { isResetPart } from '../../../src/stream/reset-part.js';
import { repairToolHistory } from '../../../src/stream/tool-history-repair.js';
import type { Logger } from '../../../src/util/logger.js';
import type { Clock, Sleep } from '../../../src/util/time.js';
import { checkFunction, checkOptionsObject } from '../../../src/util/validate.js';
import { checkCallOptions, sdkRecordsTelemetry } from '../drop-in/guard-call-options.js';
// The one-line choice of the streaming call: the stream guard's drop-in (swap for `from 'ai'` to go without it).
import { type GracefulStreamTextOptions, streamText } from '../drop-in/stream-text.js';

/** `streamText` options the session sets itself; everything else can go in `callOptions`. */
export type AgentSessionOwnedOption =
  | 'model'
  | 'tools'
  | 'system'
  | 'instructions'
  | 'messages'
  | 'prompt'
  | 'stopWhen'
  | 'abortSignal'
  | 'maxRetries'
  | 'onStepEnd'
  | 'onStepFinish'
  | 'onError';

/** The `streamText` options a session passes on every call (`callOptions`): all but the ones it sets itself. */
export type AgentSessionCallOptions<TOOLS extends ToolSet = ToolSet> = Omit<
  GracefulStreamTextOptions<TOOLS>,
  AgentSessionOwnedOption
>;

/**
 * What `onUsageLimit` returns: a model to switch to, `true` when it switched credentials itself (the session
 * retries at once, delay 0), or `false`/`undefined` to let the turn fail.
 */
export type UsageLimitAnswer = LanguageModel | boolean | undefined;

/** Options of {@link AgentSession}; only `model` is required. */
export interface AgentSessionOptions<TOOLS extends ToolSet = ToolSet> {
  /** The model of every turn (switchable with `setModel()` or from `onUsageLimit`). */
  model: LanguageModel;
  /** The tools of every turn (default none). Wrap them with `gracefulTools` for model-visible tool errors. */
  tools?: TOOLS;
  /** The system prompt, sent with every call (never compacted away). */
  system?: string;
  /** When a turn's tool loop stops (default `isStepCount(20)`, as `ToolLoopAgent`). */
  stopWhen?: StopCondition<TOOLS> | StopCondition<TOOLS>[];
  /**
   * Retry settings (default `retry: { enabled: true, maxRetries: 3, initialDelayMs: 2000, maxDelayMs: 60000,
   * maxRetryAfterMs: 60000 }`).
   */
  settings?: SessionSettingsInput;
  /** Where the history goes (default in memory). Its entries, if any, are the conversation to continue. */
  store?: SessionStore<ModelMessage>;
  /** Compaction after a context overflow (default `trimContext`). */
  compact?: CompactStrategy<ModelMessage>;
  /** Classifier overrides for this session (unrecognised errors are permanent here unless `unknown` says otherwise). */
  classify?: ClassifyOverrides;
  /**
   * Called when a turn hits a quota, billing or usage limit (or a rate limit whose reset is beyond
   * `retry.maxRetryAfterMs`). Return a model to switch to, or `true` after switching credentials: the session retries
   * at once. Default: none (the turn fails).
   */
  onUsageLimit?: (
    error: unknown,
    session: AgentSession<TOOLS>,
  ) => UsageLimitAnswer | Promise<UsageLimitAnswer>;
  /** More `streamText` options for every call (temperature, providerOptions, headers, timeout, …). */
  callOptions?: AgentSessionCallOptions<TOOLS>;
  /** Default `systemClock` (entry times, retry-after dates). */
  clock?: Clock;
  /** Default `abortableSleep` (the backoff; inject for tests). */
  sleep?: Sleep;
  /** Default `defaultLogger`. */
  logger?: Logger;
  /**
   * What the session shares with other processes (`redisCoordination(client)` from `graceful-ai/redis`): before each
   * request, a cool-down another process was given for this provider, model and API key is waited out when it fits
   * `settings.retry.maxRetryAfterMs` (else the attempt fails with `CooldownError`, and the turn with
   * `RetryDelayTooLongError`); a retry-after this session receives is announced to the others. Also given to the
   * turn's tools. Default: none (`callOptions.coordination` applies, if set).
   */
  coordination?: Coordination;
}

/** What `prompt()` resolves with. */
export interface TurnResult {
  /** The text of the turn's last step. */
  text: string;
  /** The SDK's finish reason of the last step. */
  finishReason: string;
  /** Steps this attempt ran (earlier attempts' completed steps are in `messages`). */
  steps: number;
}

/**
 * A multi-turn agent session on the AI SDK with automatic retry of transient API errors, compaction on context
 * overflow, events, abort and persistence.
 *
 * - `prompt(text)` runs one user turn (a multi-step tool loop) and settles when the turn — including any retry
 *   chain — has ended. It rejects with the final error: the API error itself, `RetryExhaustedError`
 *   ("Retry failed after N attempts: …"), `RetryDelayTooLongError`, `RetryCancelledError`,
 *   `ContextOverflowError`, the abort reason, or `SessionStoreError` when the store failed to save the turn. A
 *   second `prompt()` while one runs is rejected with `SessionBusyError` (no queue).
 * - Each completed step's messages join the conversation as the step ends, so a retry continues after them:
 *   tools never run twice. A failed step's partial output is kept in the history only.
 * - Failures are detected from `onError`/error parts too: `streamText` reports a failed later step as a
 *   success ('' text, finishReason 'other').
 */
export class AgentSession<TOOLS extends ToolSet = ToolSet> {
  #model: LanguageModel;
  readonly #core: SessionCore<ModelMessage, TurnResult>;
  readonly #options: AgentSessionOptions<TOOLS>;

  constructor(options: AgentSessionOptions<TOOLS>) {
    checkOptionsObject('AgentSession options', options);
    const { onUsageLimit, stopWhen } = options;
    // Checked here: the session wraps the hook, and the stop conditions are read only when a turn runs.
    checkFunction('onUsageLimit', onUsageLimit);
    if (!Array.isArray(stopWhen)) checkFunction('stopWhen', stopWhen);
    else for (const [i, stop] of stopWhen.entries()) checkFunction(`stopWhen[${i}]`, stop);
    checkOptionsObject('callOptions', options.callOptions);
    // Checked now, not when the first turn runs: a 30-day `timeout` would otherwise fire after ~1 ms, per turn.
    checkCallOptions(options.callOptions ?? {}, 'callOptions.');
    checkCoordination('coordination', options.coordination);
    this.#options = options;
    this.#model = options.model;
    this.#core = new SessionCore<ModelMessage, TurnResult>({
      settings: options.settings,
      store: options.store,
      compact: options.compact,
      classify: options.classify,
      clock: options.clock,
      sleep: options.sleep,
      logger: options.logger,
      onUsageLimit:
        onUsageLimit &&
        (async (error) => {
          const answer = await onUsageLimit(error, this);
          if (answer === undefined || typeof answer === 'boolean') return answer;
          this.#model = answer;
          return true;
        }),
    });
  }

  /**
   * Opens a session persisted in a JSON-lines file (created if missing) and continues its conversation. The file
   * is locked until `close()`; a second open of it throws `SessionLockedError`.
   */
  static load<TOOLS extends ToolSet = ToolSet>(
    path: string,
    options: Omit<AgentSessionOptions<TOOLS>, 'store'> & { storeOptions?: JsonlSessionStoreOptions },
  ): AgentSession<TOOLS> {
    const { storeOptions, ...rest } = options;
    const store = new JsonlSessionStore<ModelMessage>(path, { logger: options.logger, ...storeOptions });
    return new AgentSession({ ...rest, store });
  }

  /** The model of the next call. */
  get model(): LanguageModel {
    return this.#model;
  }

  setModel(model: LanguageModel): void {
    this.#model = model;
  }

  /** The conversation sent to the model: user prompts and completed steps, after any compaction. */
  get messages(): readonly ModelMessage[] {
    return this.#core.messages;
  }

  /** The history: messages, failed attempts (with partial output), retry events and compactions. */
  get store(): SessionStore<ModelMessage> {
    return this.#core.store;
  }

  /** The session's settings: a plain, frozen object; change them with {@link updateSettings}. */
  get settings(): SessionSettings {
    return this.#core.settings;
  }

  /**
   * Lays `input` over the current settings, checked as the constructor's `settings` are (a `RangeError`/`TypeError`
   * naming `settings.retry.<field>`). A running retry chain reads them at its next decision.
   */
  updateSettings(input: SessionSettingsInput): void {
    this.#core.updateSettings(input);
  }

  get autoRetryEnabled(): boolean {
    return this.#core.autoRetryEnabled;
  }

  /** Turns automatic retry on or off; applies to a running chain from its next decision. */
  setAutoRetryEnabled(enabled: boolean): void {
    this.#core.setAutoRetryEnabled(enabled);
  }

  /** Whether a retry chain is running (sleeping or re-running the turn). */
  get isRetrying(): boolean {
    return this.#core.isRetrying;
  }

  /** Whether a turn is running. */
  get isRunning(): boolean {
    return this.#core.isRunning;
  }

  /** Retries in the running chain (0 = idle). */
  get retryAttempt(): number {
    return this.#core.retryAttempt;
  }

  /** Every session event (message, text, tool, retry, compaction, turn end); returns the unsubscribe function. */
  subscribe(listener: SessionListener<ModelMessage>): () => void {
    return this.#core.subscribe(listener);
  }

  /**
   * Cancels the retry of a failed attempt: the backoff sleep at once, or the retry itself when called before it
   * (from an `attempt_error` or `auto_retry_start` listener). `auto_retry_end { success: false, finalError:
   * 'Retry cancelled' }`; `prompt()` rejects with `RetryCancelledError`. A no-op while a request runs.
   */
  abortRetry(): void {
    this.#core.abortRetry();
  }

  /**
   * Aborts the turn (the running request, a backoff sleep, a compaction or usage-limit hook when it returns);
   * `prompt()` rejects with `reason` (default: an `AbortError`).
   */
  abort(reason?: unknown): void {
    this.#core.abort(reason);
  }

  /** Runs one user turn; see the class description. */
  prompt(text: string): Promise<TurnResult> {
    // Not for a busy session's rejected turn: the running one keeps its spans.
    const spans = this.#core.isRunning ? undefined : this.#turnSpans();
    return this.#core.runTurn(text, { role: 'user', content: text }, (context) =>
      spans ? spans.attempt(() => this.#attempt(context)) : this.#attempt(context),
    );
  }

  /** Releases the store (the JSONL file lock). */
  close(): void {
    this.#core.store.close();
  }

  /**
   * The spans of a turn starting now, in the caller's trace when the SDK records telemetry for the session's calls
   * (read as the drop-ins read it), fed the turn's events until it ends.
   */
  #turnSpans(): SessionSpans | undefined {
    const spans = SessionSpans.forTurn(sdkRecordsTelemetry(this.#options.callOptions ?? {}));
    if (spans === undefined) return undefined;
    const unsubscribe = this.#core.subscribe((event) => {
      if (event.type === 'attempt_error')
        spans.attemptFailed({ name: event.error.name, kind: event.kind, reason: event.reason });
      else if (event.type === 'auto_retry_start') spans.retryStarted(event.attempt, event.delayMs);
      else if (event.type === 'compaction_start') spans.compactionStarted(event.messageCount);
      else if (event.type === 'compaction_end') spans.compactionEnded(event.removedCount);
      else if (event.type === 'turn_end') {
        unsubscribe();
        spans.turnEnded();
      }
    });
    return spans;
  }

  /** The session's `coordination`, its guard waiting no longer for a cool-down than the session would. */
  #coordinationOptions(): Pick<AgentSessionCallOptions, 'coordination' | 'streamGuard'> {
    const { coordination, callOptions } = this.#options;
    if (coordination === undefined) return {};
    const guard = callOptions?.streamGuard;
    if (guard === false) return { coordination };
    return {
      coordination,
      streamGuard: { maxRetryAfterMs: this.settings.retry.maxRetryAfterMs, ...guard },
    };
  }

  async #attempt(context: TurnAttempt<ModelMessage>): Promise<TurnResult> {
    const { tools, system, stopWhen, callOptions } = this.#options;
    let failure: { error: unknown } | undefined;
    const fail = (error: unknown) => {
      failure ??= { error };
    };
    // The drop-in sends every request repaired; the history keeps what happened, and listeners learn of it.
    const { repair } = repairToolHistory(context.messages);
    if (repair) context.emit('tool_history_repaired', repair);
    const result = streamText<TOOLS>({
      ...callOptions,
      ...this.#coordinationOptions(),
      model: this.#model,
      tools,
      system,
      messages: [...context.messages],
      stopWhen: stopWhen ?? isStepCount(20),
      abortSignal: context.signal,
      // The session is the retry authority: one request per attempt.
      maxRetries: 0,
      onError: ({ error }) => fail(error),
      onStepEnd: async (step) => {
        try {
          if (step.finishReason === 'error') context.discardStep(step.response.messages);
          else {
            context.commitStep(step.response.messages);
            // A store that writes in the background holds the step before the next step runs its tools.
            await context.flush();
          }
        } catch (error) {
          // The SDK swallows what its callbacks throw: a store that failed to save the step fails the attempt
          // here (and the core has aborted it, so no further step runs).
          fail(error);
        }
      },
    });
    try {
      for await (const part of result.stream) {
        switch (part.type) {
          case 'text-delta':
            context.emit('text_delta', { delta: part.text });
            break;
          case 'tool-call':
            context.emit('tool_call', {
              toolCallId: part.toolCallId,
              toolName: part.toolName,
              input: part.input,
            });
            break;
          case 'tool-result':
            context.emit('tool_result', {
              toolCallId: part.toolCallId,
              toolName: part.toolName,
              output: part.output,
            });
            break;
          case 'tool-error':
            context.emit('tool_result', {
              toolCallId: part.toolCallId,
              toolName: part.toolName,
              error: String(part.error),
            });
            break;
          case 'custom':
            if (isResetPart(part)) {
              context.emit('text_reset', {
                discardedChars: part.providerMetadata['graceful-ai'].reset.discardedChars,
              });
            }
            break;
          case 'error':
            fail(part.error);
            break;
          case 'abort':
            fail(context.signal.reason ?? new DOMException('The turn was aborted', 'AbortError'));
            break;
        }
      }
    } catch (error) {
      fail(error);
    }
    if (failure) throw failure.error;
    const steps = await result.steps;
    const last = steps.at(-1);
    return { text: last?.text ?? '', finishReason: last?.finishReason ?? 'other', steps: steps.length };
  }
}
