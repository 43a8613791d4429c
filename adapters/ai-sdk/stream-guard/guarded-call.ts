/**
 * One model call through the stream guard: the retry loop before content, the consumer's stream once an attempt
 * committed, the hand-over to the recovery after content (`recovery/recovery.ts`), failover to the next model when
 * one stays unavailable (`models/model-chain.ts`), the attempt records in `providerMetadata` and the guard's events.
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
import type { Classification } from '../../../src/classify/types.js';
import { CircuitOpenError } from '../../../src/errors/circuit-open-error.js';
import type { GuardTelemetry } from '../../../src/observe/otel/guard-telemetry.js';
import { decideRetry, type RetryDecision } from '../../../src/policy/retry-decision.js';
import { type AttemptMode, type AttemptRecord, AttemptRecorder } from '../../../src/stream/attempt-record.js';
import { SingleUseRequest } from '../../../src/stream/single-use-request.js';
import type { ToolHistoryRepair } from '../../../src/stream/tool-history-repair.js';
import { type AttemptPhase, classifyAttemptFailure } from './attempt/attempt-failure.js';
import { EmptyAnswers, emptyResult } from './attempt/empty-answer.js';
import {
  asTheSdkWould,
  endWithErrorPart,
  erroredStream,
  relayRest,
  toError,
} from './attempt/failure-surfacing.js';
import { InBandError, incompleteFinish, missingFinish, readPreamble } from './attempt/preamble.js';
import { StreamAttempt } from './attempt/stream-attempt.js';
import { callTelemetry, observeGuardEvent } from './call-telemetry.js';
import { type Admission, ModelChain } from './models/model-chain.js';
import { modelRef } from './models/model-key.js';
import { GUARD_METADATA_KEY, type Resolved, type StreamGuardEventMap } from './options.js';
import { sentParams } from './prompt-repair.js';
import { EmittedContent } from './recovery/emitted-content.js';
import { type RecoveredCall, recover, type Sink } from './recovery/recovery.js';

/** State of one model call through the guard. Fresh per call; each attempt gets a fresh recorder. */
export class GuardedCall {
  readonly #attempts: AttemptRecord[] = [];
  /** Every error before content, for the SDK-shaped `RetryError` (see `#asTheSdkWould`). */
  readonly #earlyErrors: unknown[] = [];
  /**
   * New requests made on the current model after transient failures (before content, and of streamed recoveries):
   * `maxRetries` bounds them; a model the call fails over to gets its own.
   */
  #retries = 0;
  /** The model the next request goes to, the fallbacks after it, and the params each one gets. */
  readonly #chain: ModelChain;
  /** The caller's signal. */
  readonly #signal: AbortSignal | undefined;
  readonly #emptyAnswers = new EmptyAnswers();
  /** How the call's history was repaired before it was sent (see `prompt-repair.ts`), if it was. */
  readonly #repair: ToolHistoryRepair | undefined;
  /** Its spans and metrics (`call-telemetry.ts`), when recorded. */
  readonly #telemetry: GuardTelemetry | undefined;

  constructor(
    model: LanguageModelV4,
    given: LanguageModelV4CallOptions,
    private readonly options: Resolved,
  ) {
    this.#telemetry = callTelemetry(options);
    const { params, repair } = sentParams(given);
    this.#repair = repair;
    if (repair) this.#emit('tool_history_repaired', { repair });
    this.#chain = new ModelChain(model, params, options.failover, this.#telemetry);
    this.#signal = params.abortSignal;
  }

  // ---- generate (non-streaming calls) ----

  async generate(): Promise<LanguageModelV4GenerateResult> {
    for (let n = 1; ; n++) {
      const recorder = this.#recorder(n, 'generate');
      let admission: Admission | undefined;
      try {
        admission = await this.#chain.admit();
        const { model, params } = this.#chain;
        const send = () => recorder.run(() => model.doGenerate(params));
        const result = await new SingleUseRequest(recorder.request, send).stream();
        recorder.usage = result.usage;
        const empty = emptyResult(result);
        if (empty) throw empty;
        this.#attempts.push(recorder.finish());
        await admission.settle('success');
        return { ...result, providerMetadata: this.#metadata(result.providerMetadata) };
      } catch (error) {
        const delayMs = await this.#earlyFailure(n, recorder, error, admission);
        if (delayMs > 0) await this.options.sleep(delayMs, this.#signal);
      }
    }
  }

  // ---- stream ----

  async stream(): Promise<LanguageModelV4StreamResult> {
    for (let n = 1; ; n++) {
      const recorder = this.#recorder(n, 'stream');
      let admission: Admission | undefined;
      let attempt: StreamAttempt | undefined;
      // The attempt's preamble, held back until it commits: the consumer sees only the winning attempt's.
      const held: Part[] = [];
      let opened: LanguageModelV4StreamResult | undefined;
      try {
        admission = await this.#chain.admit();
        attempt = new StreamAttempt(this.#chain.model, this.#chain.params, this.options, recorder);
        opened = await attempt.open();
        await readPreamble(attempt, held);
        return { ...opened, stream: this.#committed(n, attempt, recorder, held, admission) };
      } catch (caught) {
        const inBand = caught instanceof InBandError ? caught : undefined;
        const error = inBand ? inBand.part.error : caught;
        let delayMs: number;
        try {
          delayMs = await this.#earlyFailure(n, recorder, error, admission);
        } catch (final) {
          if (this.options.reportFailure === undefined) {
            attempt?.stop();
            return { stream: erroredStream(toError(final)) };
          }
          if (!this.#signal?.aborted) this.options.reportFailure(toError(final));
          // The SDK's way: an error part is relayed with the rest of its stream; a thrown error is rethrown.
          if (inBand && opened && attempt && final === error) {
            return { ...opened, stream: relayRest(attempt, [...held, inBand.part]) };
          }
          attempt?.stop();
          throw final;
        }
        attempt?.stop();
        if (delayMs === 0) continue;
        try {
          await this.options.sleep(delayMs, this.#signal);
        } catch (reason) {
          // The caller aborted during the backoff: as plain middleware the stream ends with the reason.
          if (this.options.reportFailure === undefined) return { stream: erroredStream(reason) };
          throw reason;
        }
      }
    }
  }

  /**
   * Records a failure before any output; returns the delay before the next attempt (0: the next model, at once), or
   * throws the error for good. `admission` is the attempt's breaker permit (none when the breaker refused it).
   */
  async #earlyFailure(
    n: number,
    recorder: AttemptRecorder,
    error: unknown,
    admission: Admission | undefined,
  ): Promise<number> {
    const classification = this.#classify(error, 'before content');
    const record = recorder.finish({ error, classification });
    this.#attempts.push(record);
    this.#earlyErrors.push(error);
    await admission?.settle(classification.kind === 'transient' ? 'failure' : 'ignored');
    // An open model breaker is not retried: the next model is tried at once.
    const decision =
      admission === undefined && CircuitOpenError.isInstance(error)
        ? undefined
        : this.#retryDecision(classification);
    if (decision?.retry) {
      this.#retries++;
      this.#emit('stream_retry', { attempt: record, nextAttempt: n + 1, delayMs: decision.delayMs });
      return decision.delayMs;
    }
    if (this.#failOver(record, error, classification)) return 0;
    this.#emit('stream_failed', { attempt: record, attempts: [...this.#attempts], error });
    throw this.#chain.finalError(error, classification, () =>
      asTheSdkWould(this.#earlyErrors, {
        dropIn: this.options.reportFailure !== undefined,
        aborted: this.#signal?.aborted === true,
        maxRetries: this.options.retry.maxRetries,
        exhausted: decision?.reason === 'exhausted',
      }),
    );
  }

  /** Moves the call to the next model when the failure fails over and there is one; the new model's retries start. */
  #failOver(record: AttemptRecord, error: unknown, classification: Classification): boolean {
    if (this.#signal?.aborted) return false;
    const moved = this.#chain.failOver(error, classification);
    if (moved === undefined) return false;
    this.#retries = 0;
    this.#earlyErrors.length = 0;
    this.#emit('stream_failover', { attempt: record, ...moved });
    return true;
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
    admission: Admission,
  ): ReadableStream<Part> {
    const emitted = new EmittedContent();
    // The request the consumer's cancel must reach: the committed attempt, then a streamed recovery.
    const sink: Sink = { attempt, cancelled: false };
    let done = false;
    let finished = false;
    const pass = (controller: ReadableStreamDefaultController<Part>, part: Part) => {
      if (part.type === 'finish') {
        recorder.usage = part.usage;
        // An ending that is no completion is a failure like a cut: recovered, or the call fails with it.
        const incomplete = incompleteFinish(part, emitted.chars);
        if (incomplete) throw incomplete;
        finished = true;
        recorder.charsEmitted = emitted.chars;
        this.#attempts.push(recorder.finish());
        void admission.settle('success');
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
            return this.#afterLateFailure(n, attempt, recorder, emitted, error, controller, sink, admission);
          }
          if (end) {
            done = true;
            attempt.stop();
            controller.close();
          }
        },
        cancel: (reason) => {
          sink.cancelled = true;
          this.#telemetry?.cancelled();
          if (!done) void admission.settle('ignored');
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
    admission: Admission,
  ): Promise<void> {
    const inBand = caught instanceof InBandError ? caught : undefined;
    const error = inBand ? inBand.part.error : caught;
    const classification = this.#classify(error, 'after content');
    const record = recorder.finish({ error, classification });
    this.#attempts.push(record);
    await admission.settle(classification.kind === 'transient' ? 'failure' : 'ignored');
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
    const chain = this.#chain;
    const options = this.options;
    return {
      get model() {
        return chain.model;
      },
      get params() {
        return chain.params;
      },
      get continuation() {
        // A named style is for the primary's server; a fallback of another provider continues as its own does.
        const option = options.continuation;
        return option === 'off' || chain.onPrimaryProvider ? option : 'auto';
      },
      options,
      admit: () => chain.admit(),
      recorder: (n, mode) => this.#recorder(n, mode),
      record: (record) => this.#attempts.push(record),
      classify: (error) => this.#classify(error, 'after content'),
      retryAfter: (n, record, classification) => this.#retryRecovery(n, record, classification),
      failOver: (record, error, classification) => this.#failOver(record, error, classification),
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
      await this.options.sleep(decision.delayMs, this.#signal);
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
    const classification = record.classification ?? { kind: 'permanent', reason: 'unknown' };
    // With a failover behind it, the call fails with every model's failure; else with the error itself.
    const failure = this.#chain.finalError(error, classification, () => error);
    const final = toError(failure);
    this.#emit('stream_failed', { attempt: record, attempts: [...this.#attempts], error: final });
    const report = this.options.reportFailure;
    // The caller's abort (or the SDK's own timeout) is the SDK's to report (`onAbort`), as without the guard.
    if (report === undefined || this.#signal?.aborted) {
      relayFrom?.stop();
      controller.error(final);
      return;
    }
    report(final);
    endWithErrorPart(controller, failure, relayFrom);
  }

  #classify(error: unknown, phase: AttemptPhase): Classification {
    return classifyAttemptFailure(error, phase, this.options, this.#signal, this.#emptyAnswers);
  }

  #recorder(n: number, mode: AttemptMode): AttemptRecorder {
    const model = modelRef(this.#chain.model);
    const telemetry = this.#telemetry?.attempt(n, mode, model);
    const recorder = new AttemptRecorder(n, mode, model, this.options.clock, telemetry);
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
    if (this.#telemetry) observeGuardEvent(this.#telemetry, type, payload);
  }
}
