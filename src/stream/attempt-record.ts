import type { Classification } from '../classify/types.js';
import type { ModelRef } from '../errors/failover-error.js';
import type { AttemptTelemetry, UsageFacts } from '../observe/otel/guard-telemetry.js';
import type { Clock } from '../util/time.js';
import type { ToolHistoryRepair } from './tool-history-repair.js';

/** How an attempt talked to the provider: a streamed request or one non-streaming request. */
export type AttemptMode = 'stream' | 'generate';

/** What one attempt did. Plain JSON (it travels in `providerMetadata`); nothing carries over between attempts. */
export interface AttemptRecord {
  /** 1-based position of the attempt within the model call. */
  attempt: number;
  mode: AttemptMode;
  /** The request's name, as in {@link StreamConsumedError}. */
  request: string;
  /** The model the attempt called (with `fallbackModels`, a fallback's). */
  model: ModelRef;
  outcome: 'ok' | 'failed';
  /** The error that ended the attempt (name and message only). */
  error?: { name: string; message: string };
  classification?: Classification;
  /** Characters of text and reasoning this attempt passed to the consumer. */
  charsEmitted: number;
  durationMs: number;
  /**
   * For a recovery after content: whether it asked the model to continue the shown text (`'continue'`) or to
   * answer anew (`'regenerate'`).
   */
  recovery?: RecoveryKind;
  /**
   * The request's history was repaired before it was sent: tool calls without a result got a synthetic one, results
   * without their call were dropped (see `repairToolHistory`). The conversation as stored is unchanged.
   */
  toolHistoryRepair?: ToolHistoryRepair;
}

/** How a recovery after content asked for the rest of the answer. */
export type RecoveryKind = 'continue' | 'regenerate';

/** A fresh record for one attempt; {@link AttemptRecorder.finish} freezes it. */
export class AttemptRecorder {
  /** Characters this attempt passed to the consumer; the guard adds to it. */
  charsEmitted = 0;
  /** Set on a recovery after content. */
  recovery: RecoveryKind | undefined;
  /** Set when the call's prompt was repaired. */
  toolHistoryRepair: ToolHistoryRepair | undefined;
  /** The provider's token count for the attempt, when it answered or sent a finish part (for its span). */
  usage: UsageFacts | undefined;
  readonly #startedAt: number;

  constructor(
    readonly attempt: number,
    readonly mode: AttemptMode,
    readonly model: ModelRef,
    private readonly clock: Clock,
    /** The attempt's span and metrics, when the call records telemetry. */
    readonly telemetry?: AttemptTelemetry,
  ) {
    this.#startedAt = clock.now();
  }

  /** Sends the attempt's request: with its span active, when it has one. */
  run<T>(send: () => T): T {
    return this.telemetry ? this.telemetry.run(send) : send();
  }

  /** The request's name, e.g. `stream attempt 2 (anthropic.messages:claude-sonnet-4-5)`. */
  get request(): string {
    return `${this.mode} attempt ${this.attempt} (${this.model.provider}:${this.model.modelId})`;
  }

  finish(failure?: { error: unknown; classification: Classification }): AttemptRecord {
    const record: AttemptRecord = {
      attempt: this.attempt,
      mode: this.mode,
      request: this.request,
      model: { ...this.model },
      outcome: failure ? 'failed' : 'ok',
      charsEmitted: this.charsEmitted,
      durationMs: this.clock.now() - this.#startedAt,
    };
    if (this.recovery !== undefined) record.recovery = this.recovery;
    if (this.toolHistoryRepair !== undefined) record.toolHistoryRepair = this.toolHistoryRepair;
    if (failure) {
      record.error = describeError(failure.error);
      record.classification = { ...failure.classification };
    }
    this.telemetry?.end(record, this.usage);
    return record;
  }
}

function describeError(error: unknown): { name: string; message: string } {
  if (error instanceof Error) return { name: error.name, message: error.message };
  if (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { message?: unknown }).message === 'string'
  ) {
    return { name: 'ProviderStreamError', message: (error as { message: string }).message };
  }
  return { name: typeof error, message: String(error) };
}
