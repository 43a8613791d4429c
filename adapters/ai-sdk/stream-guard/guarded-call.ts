/**
 * One model call through the stream guard: the retry loop before content, the consumer's stream once an attempt
 * committed, the hand-over to the recovery after content (`recovery/recovery.ts`), the attempt records in
 * `providerMetadata` and the guard's events.
 */
import type {
  JSONObject,
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamResult,
  LanguageModelV4StreamPart as Part,
  SharedV4ProviderMetadata,
} from '@ai-sdk/provider';
import { classifyError } from '../../../src/classify/classify.js';
import type { Classification } from '../../../src/classify/types.js';
import { EmptyAnswerError } from '../../../src/errors/empty-answer-error.js';
import { StreamInterruptedError } from '../../../src/errors/stream-interrupted-error.js';
import { StreamStalledError } from '../../../src/errors/stream-stalled-error.js';
import { decideRetry, type RetryDecision } from '../../../src/policy/retry-decision.js';
import { type AttemptMode, type AttemptRecord, AttemptRecorder } from '../../../src/stream/attempt-record.js';
import { withoutDiscardedMessages } from '../../../src/stream/reset-part.js';
import { SingleUseRequest } from '../../../src/stream/single-use-request.js';
import type { ToolHistoryRepair } from '../../../src/stream/tool-history-repair.js';
import { EmptyAnswers, emptyResult } from './attempt/empty-answer.js';
import {
  endWithErrorPart,
  erroredStream,
  relayRest,
  sdkRetryError,
  toError,
} from './attempt/failure-surfacing.js';
import { InBandError, incompleteFinish, missingFinish, readPreamble } from './attempt/preamble.js';
import { StreamAttempt } from './attempt/stream-attempt.js';
import { GUARD_METADATA_KEY, type Resolved, type StreamGuardEventMap } from './options.js';
import { repairedParams } from './prompt-repair.js';
import { EmittedContent } from './recovery/emitted-content.js';
import { withRecoveredMetadata } from './recovery/recovered-metadata.js';
import { type RecoveredCall, recover, type Sink } from './recovery/recovery.js';

/** State of one model call through the guard. Fresh per call; each attempt gets a fresh recorder. */
export class GuardedCall {
  readonly #attempts: AttemptRecord[] = [];
  /** Every error before content, for the SDK-shaped `RetryError` (see `#asTheSdkWould`). */
  readonly #earlyErrors: unknown[] = [];
  readonly #label: string;
  /** New requests made after transient failures (before content, and of streamed recoveries): `maxRetries` bounds them. */
  #retries = 0;
  readonly #emptyAnswers = new EmptyAnswers();

  /** How the call's history was repaired before it was sent (see `prompt-repair.ts`), if it was. */
  readonly #repair: ToolHistoryRepair | undefined;

  private readonly params: LanguageModelV4CallOptions;

  constructor(
    private readonly model: LanguageModelV4,
    given: LanguageModelV4CallOptions,
    private readonly options: Resolved,
  ) {
    this.#label = `${model.provider}:${model.modelId}`;
    const { params, repair } = repairedParams(given);
    this.#repair = repair;
    if (repair) this.#emit('tool_history_repaired', { repair });
    const prompt = withRecoveredMetadata(withoutDiscardedMessages(params.prompt));
    this.params = prompt === params.prompt ? params : { ...params, prompt };
  }

  // ---- generate (non-streaming calls) ----

  async generate(): Promise<LanguageModelV4GenerateResult> {
    for (let n = 1; ; n++) {
      const recorder = this.#recorder(n, 'generate');
      try {
        const request = new SingleUseRequest(recorder.request, () => this.model.doGenerate(this.params));
        const result = await request.stream();
        const empty = emptyResult(result);
        if (empty) throw empty;
        this.#attempts.push(recorder.finish());
        return { ...result, providerMetadata: this.#metadata(result.providerMetadata) };
      } catch (error) {
        await this.#afterEarlyFailure(n, recorder, error);
      }
    }
  }

  // ---- stream ----

  async stream(): Promise<LanguageModelV4StreamResult> {
    for (let n = 1; ; n++) {
      const recorder = this.#recorder(n, 'stream');
      const attempt = new StreamAttempt(this.model, this.params, this.options, recorder.request);
      // The attempt's preamble, held back until it commits: the consumer sees only the winning attempt's.
      const held: Part[] = [];
      let opened: LanguageModelV4StreamResult | undefined;
      try {
        opened = await attempt.open();
        await readPreamble(attempt, held);
        return { ...opened, stream: this.#committed(n, attempt, recorder, held) };
      } catch (caught) {
        const inBand = caught instanceof InBandError ? caught : undefined;
        const error = inBand ? inBand.part.error : caught;
        let delayMs: number;
        try {
          delayMs = this.#earlyFailure(n, recorder, error);
        } catch (final) {
          if (this.options.reportFailure === undefined) {
            attempt.stop();
            return { stream: erroredStream(toError(final)) };
          }
          if (!this.params.abortSignal?.aborted) this.options.reportFailure(toError(final));
          // The SDK's way: an error part is relayed with the rest of its stream; a thrown error is rethrown.
          if (inBand && opened) return { ...opened, stream: relayRest(attempt, [...held, inBand.part]) };
          attempt.stop();
          throw final;
        }
        attempt.stop();
        try {
          await this.options.sleep(delayMs, this.params.abortSignal);
        } catch (reason) {
          // The caller aborted during the backoff: as plain middleware the stream ends with the reason.
          if (this.options.reportFailure === undefined) return { stream: erroredStream(reason) };
          throw reason;
        }
      }
    }
  }

  /** Records a failure before any output; returns the delay before the next attempt, or throws the error for good. */
  #earlyFailure(n: number, recorder: AttemptRecorder, error: unknown): number {
    const classification = this.#classify(error, 'before content');
    const record = recorder.finish({ error, classification });
    this.#attempts.push(record);
    this.#earlyErrors.push(error);
    const decision = this.#retryDecision(classification);
    if (!decision.retry) {
      this.#emit('stream_failed', { attempt: record, attempts: [...this.#attempts], error });
      throw this.#asTheSdkWould(error, decision.reason === 'exhausted');
    }
    this.#retries++;
    this.#emit('stream_retry', { attempt: record, nextAttempt: n + 1, delayMs: decision.delayMs });
    return decision.delayMs;
  }

  /**
   * For the drop-ins, the error the SDK's own retries would have ended with: the error itself after one attempt (or
   * with `maxRetries: 0`), else a `RetryError` listing every attempt's error, as `maxRetriesExceeded` when the retries
   * were used up and `errorNotRetryable` when a later attempt failed for good.
   */
  #asTheSdkWould(error: unknown, exhausted: boolean): unknown {
    const single =
      this.options.reportFailure === undefined ||
      // The SDK would have passed an empty answer on: no `RetryError` to keep, the error says what happened.
      EmptyAnswerError.isInstance(error) ||
      this.params.abortSignal?.aborted === true ||
      this.options.retry.maxRetries === 0 ||
      this.#earlyErrors.length === 1;
    return single ? error : sdkRetryError(this.#earlyErrors, exhausted);
  }

  /** Sleeps before the next attempt, or throws the error for good (non-streaming calls). */
  async #afterEarlyFailure(n: number, recorder: AttemptRecorder, error: unknown): Promise<void> {
    await this.options.sleep(this.#earlyFailure(n, recorder, error), this.params.abortSignal);
  }

  #retryDecision(classification: Classification): RetryDecision {
    return decideRetry({
      retriesDone: this.#retries,
      classification,
      config: this.options.retry,
      random: this.options.random,
    });
  }

  /**
   * The consumer's stream once an attempt committed (`head`: its preamble and the part it committed on). One pull
   * reads on while the consumer keeps up and returns as soon as a part waits in the queue, so each read starts with
   * an empty queue: an error never drops a part the consumer has not read. Nothing is allocated per part beyond
   * what the provider sends.
   */
  #committed(
    n: number,
    attempt: StreamAttempt,
    recorder: AttemptRecorder,
    head: Part[],
  ): ReadableStream<Part> {
    const emitted = new EmittedContent();
    // The request the consumer's cancel must reach: the committed attempt, then a streamed recovery.
    const sink: Sink = { attempt, cancelled: false };
    let done = false;
    let finished = false;
    const pass = (controller: ReadableStreamDefaultController<Part>, part: Part) => {
      if (part.type === 'finish') {
        // An ending that is no completion is a failure like a cut: recovered, or the call fails with it.
        const incomplete = incompleteFinish(part, emitted.chars);
        if (incomplete) throw incomplete;
        finished = true;
        recorder.charsEmitted = emitted.chars;
        this.#attempts.push(recorder.finish());
        controller.enqueue({ ...part, providerMetadata: this.#metadata(part.providerMetadata) });
        return;
      }
      emitted.track(part);
      controller.enqueue(part);
    };
    return new ReadableStream<Part>(
      {
        pull: async (controller) => {
          let end = false;
          try {
            if (head.length > 0) for (const part of head.splice(0)) pass(controller, part);
            while (!end && !done && controller.desiredSize! > 0) {
              const next = await attempt.read();
              if (next.done) {
                if (!finished) throw missingFinish(emitted.chars);
                end = true;
              } else if (next.value.type === 'error') throw new InBandError(next.value);
              else pass(controller, next.value);
            }
          } catch (error) {
            done = true;
            recorder.charsEmitted = emitted.chars;
            return this.#afterLateFailure(n, attempt, recorder, emitted, error, controller, sink);
          }
          if (end) {
            done = true;
            attempt.stop();
            controller.close();
          }
        },
        cancel: (reason) => {
          sink.cancelled = true;
          return sink.attempt.cancel(reason);
        },
      },
      { highWaterMark: 1 },
    );
  }

  /** A failure after content: recover it (`recovery/recovery.ts`), or end the stream with the error. */
  async #afterLateFailure(
    n: number,
    attempt: StreamAttempt,
    recorder: AttemptRecorder,
    emitted: EmittedContent,
    caught: unknown,
    controller: ReadableStreamDefaultController<Part>,
    sink: Sink,
  ): Promise<void> {
    const inBand = caught instanceof InBandError ? caught : undefined;
    const error = inBand ? inBand.part.error : caught;
    const classification = this.#classify(error, 'after content');
    const record = recorder.finish({ error, classification });
    this.#attempts.push(record);
    if (classification.kind !== 'transient' || !this.options.degrade) {
      // A provider's error part is relayed with the rest of its stream (drop-ins only); otherwise the attempt ends.
      const relay = inBand && this.options.reportFailure ? attempt : undefined;
      if (relay === undefined) attempt.stop();
      this.#fail(record, error, controller, relay);
      return;
    }
    attempt.stop();
    this.#emit('stream_degraded', { attempt: record, charsEmitted: emitted.chars });
    await recover(this.#asRecovered(), n + 1, emitted, controller, sink);
  }

  /** This call as the recovery after content sees it (`recovery/recovery.ts`). */
  #asRecovered(): RecoveredCall {
    return {
      model: this.model,
      params: this.params,
      options: this.options,
      recorder: (n, mode) => this.#recorder(n, mode),
      record: (record) => this.#attempts.push(record),
      classify: (error) => this.#classify(error, 'after content'),
      retryAfter: (n, record, classification) => this.#retryRecovery(n, record, classification),
      fail: (record, error, controller) => this.#fail(record, error, controller, undefined),
      finishPart: (finish) => ({ ...finish, providerMetadata: this.#metadata(finish.providerMetadata) }),
    };
  }

  /** After a streamed recovery failed: whether a new one follows (transient, within `maxRetries`), after backoff. */
  async #retryRecovery(n: number, record: AttemptRecord, classification: Classification): Promise<boolean> {
    const decision = this.#retryDecision(classification);
    if (!decision.retry) return false;
    this.#retries++;
    this.#emit('stream_retry', { attempt: record, nextAttempt: n + 1, delayMs: decision.delayMs });
    try {
      await this.options.sleep(decision.delayMs, this.params.abortSignal);
    } catch {
      return false; // the caller aborted during the backoff: the failure stands
    }
    return true;
  }

  /**
   * Ends the consumer's stream after a failure nothing recovers. As plain middleware: the stream errors with it. For
   * the drop-ins: the failure is reported, then surfaced as the SDK surfaces provider errors — an `error` part, and,
   * when the provider sent it as a part, whatever its stream still sends (its finish).
   */
  #fail(
    record: AttemptRecord,
    error: unknown,
    controller: ReadableStreamDefaultController<Part>,
    relayFrom: StreamAttempt | undefined,
  ): void {
    const final = toError(error);
    this.#emit('stream_failed', { attempt: record, attempts: [...this.#attempts], error: final });
    const report = this.options.reportFailure;
    // The caller's abort (or the SDK's own timeout) is the SDK's to report (`onAbort`), as without the guard.
    if (report === undefined || this.params.abortSignal?.aborted) {
      relayFrom?.stop();
      controller.error(final);
      return;
    }
    report(final);
    endWithErrorPart(controller, error, relayFrom);
  }

  /**
   * Before content the guard changes the SDK's behaviour only on evidence: an error no rule recognises is reported
   * at once, as the SDK reports it (unless the caller set `classify.unknown`). After content it is recovered: the
   * alternative is a partial answer.
   */
  #classify(error: unknown, phase: 'before content' | 'after content'): Classification {
    // A stall or a clean but incomplete end is ours to recover, whatever the caller set for unknown errors.
    if (!this.params.abortSignal?.aborted) {
      // One empty answer is retried (`EmptyAnswerError` is transient); a second one ends the call.
      if (this.#emptyAnswers.again(error)) return { kind: 'permanent', reason: 'empty-answer:again' };
      if (StreamStalledError.isInstance(error)) return { kind: 'transient', reason: 'stall' };
      if (StreamInterruptedError.isInstance(error)) {
        return {
          kind: 'transient',
          reason: error.ending === 'no-finish' ? 'finish:missing' : `finish:${error.ending}`,
        };
      }
    }
    return classifyError(error, {
      ...this.options.classify,
      unknown: this.options.classify?.unknown ?? (phase === 'before content' ? 'permanent' : 'transient'),
      signal: this.params.abortSignal,
      clock: this.options.clock,
    });
  }

  #recorder(n: number, mode: AttemptMode): AttemptRecorder {
    const recorder = new AttemptRecorder(
      n,
      mode,
      `${mode} attempt ${n} (${this.#label})`,
      this.options.clock,
    );
    recorder.toolHistoryRepair = this.#repair;
    return recorder;
  }

  #metadata(metadata: SharedV4ProviderMetadata | undefined): SharedV4ProviderMetadata | undefined {
    // A clean first attempt on the history as given is what the SDK alone would have returned: nothing to add.
    const clean = this.#attempts.length === 1 && this.#attempts[0]?.error === undefined;
    if (clean && this.#repair === undefined) return metadata;
    const attempts = this.#attempts.map((a) => ({ ...a })) as unknown as JSONObject[];
    return { ...metadata, [GUARD_METADATA_KEY]: { ...metadata?.[GUARD_METADATA_KEY], attempts } };
  }

  #emit<K extends keyof StreamGuardEventMap>(type: K, payload: StreamGuardEventMap[K]) {
    this.options.emit(type, payload);
  }
}
