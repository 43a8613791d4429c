/**
 * One model call through the stream guard: the retry loop before content, the single degraded `doGenerate` after
 * content (reconciled by {@link EmittedContent}), the attempt records in `providerMetadata` and the guard's events.
 * Kept apart from `stream-guard.ts`, which holds only the public options and the middleware factory.
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
import { classifyError } from '../../src/classify/classify.js';
import type { Classification } from '../../src/classify/types.js';
import { StreamInterruptedError } from '../../src/errors/stream-interrupted-error.js';
import { StreamStalledError } from '../../src/errors/stream-stalled-error.js';
import { decideRetry, type RetryDecision } from '../../src/policy/retry-decision.js';
import { type AttemptMode, type AttemptRecord, AttemptRecorder } from '../../src/stream/attempt-record.js';
import { SingleUseRequest } from '../../src/stream/single-use-request.js';
import { EmittedContent } from './emitted-content.js';
import { endWithErrorPart, erroredStream, relayRest, sdkRetryError, toError } from './failure-surfacing.js';
import { InBandError, readPreamble } from './preamble.js';
import { withoutDiscardedMessages } from './reset-part.js';
import { StreamAttempt } from './stream-attempt.js';
import { GUARD_METADATA_KEY, type Resolved, type StreamGuardEventMap } from './stream-guard.js';

/** State of one model call through the guard. Fresh per call; each attempt gets a fresh recorder. */
export class GuardedCall {
  readonly #attempts: AttemptRecord[] = [];
  /** Every error before content, for the SDK-shaped `RetryError` (see `#asTheSdkWould`). */
  readonly #earlyErrors: unknown[] = [];
  readonly #label: string;

  private readonly params: LanguageModelV4CallOptions;

  constructor(
    private readonly model: LanguageModelV4,
    params: LanguageModelV4CallOptions,
    private readonly options: Resolved,
  ) {
    this.#label = `${model.provider}:${model.modelId}`;
    const prompt = withoutDiscardedMessages(params.prompt);
    this.params = prompt === params.prompt ? params : { ...params, prompt };
  }

  // ---- generate (non-streaming calls) ----

  async generate(): Promise<LanguageModelV4GenerateResult> {
    for (let n = 1; ; n++) {
      const recorder = this.#recorder(n, 'generate');
      try {
        const request = new SingleUseRequest(recorder.request, () => this.model.doGenerate(this.params));
        const result = await request.stream();
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
    const classification = this.#classify(error);
    const record = recorder.finish({ error, classification });
    this.#attempts.push(record);
    this.#earlyErrors.push(error);
    const decision = this.#retryDecision(n, classification);
    if (!decision.retry) {
      this.#emit('stream_failed', { attempt: record, attempts: [...this.#attempts], error });
      throw this.#asTheSdkWould(error, decision.reason === 'exhausted');
    }
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
      this.params.abortSignal?.aborted === true ||
      this.options.maxRetries === 0 ||
      this.#earlyErrors.length === 1;
    return single ? error : sdkRetryError(this.#earlyErrors, exhausted);
  }

  /** Sleeps before the next attempt, or throws the error for good (non-streaming calls). */
  async #afterEarlyFailure(n: number, recorder: AttemptRecorder, error: unknown): Promise<void> {
    await this.options.sleep(this.#earlyFailure(n, recorder, error), this.params.abortSignal);
  }

  #retryDecision(n: number, classification: Classification): RetryDecision {
    return decideRetry({
      retriesDone: n - 1,
      maxRetries: this.options.maxRetries,
      classification,
      backoff: this.options.backoff,
      random: this.options.random,
      maxRetryAfterMs: this.options.maxRetryAfterMs,
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
    let done = false;
    const pass = (controller: ReadableStreamDefaultController<Part>, part: Part) => {
      if (part.type === 'finish') {
        // Without recovery, an interrupted finish passes through as the provider reported it.
        if (part.finishReason.unified === 'interrupted' && this.options.degrade) {
          throw new StreamInterruptedError({ ending: 'interrupted', charsEmitted: emitted.chars });
        }
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
              if (next.done) end = true;
              else if (next.value.type === 'error') throw new InBandError(next.value);
              else pass(controller, next.value);
            }
          } catch (error) {
            done = true;
            recorder.charsEmitted = emitted.chars;
            return this.#afterLateFailure(n, attempt, recorder, emitted, error, controller);
          }
          if (end) {
            done = true;
            attempt.stop();
            controller.close();
          }
        },
        cancel: (reason) => attempt.cancel(reason),
      },
      { highWaterMark: 1 },
    );
  }

  /** A failure after content: degrade to one `doGenerate` and reconcile, or end the stream with the error. */
  async #afterLateFailure(
    n: number,
    attempt: StreamAttempt,
    recorder: AttemptRecorder,
    emitted: EmittedContent,
    caught: unknown,
    controller: ReadableStreamDefaultController<Part>,
  ): Promise<void> {
    const inBand = caught instanceof InBandError ? caught : undefined;
    const error = inBand ? inBand.part.error : caught;
    const classification = this.#classify(error);
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
    const generator = this.#recorder(n + 1, 'generate');
    let result: LanguageModelV4GenerateResult;
    try {
      const request = new SingleUseRequest(generator.request, () => this.model.doGenerate(this.params));
      result = await request.stream();
    } catch (generateError) {
      const failed = generator.finish({
        error: generateError,
        classification: this.#classify(generateError),
      });
      this.#attempts.push(failed);
      this.#fail(failed, generateError, controller, undefined);
      return;
    }
    for (const part of emitted.completeWith(result, n + 1)) {
      generator.charsEmitted +=
        part.type === 'text-delta' || part.type === 'reasoning-delta' ? part.delta.length : 0;
      controller.enqueue(part);
    }
    this.#attempts.push(generator.finish());
    controller.enqueue({
      type: 'finish',
      usage: result.usage,
      finishReason: result.finishReason,
      providerMetadata: this.#metadata(result.providerMetadata),
    });
    controller.close();
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

  #classify(error: unknown): Classification {
    // A stall or a clean but incomplete end is ours to recover, whatever the caller set for unknown errors.
    if (!this.params.abortSignal?.aborted) {
      if (StreamStalledError.isInstance(error)) return { kind: 'transient', reason: 'stall' };
      if (StreamInterruptedError.isInstance(error)) {
        return {
          kind: 'transient',
          reason: error.ending === 'interrupted' ? 'finish:interrupted' : 'finish:missing',
        };
      }
    }
    return classifyError(error, {
      ...this.options.classify,
      signal: this.params.abortSignal,
      clock: this.options.clock,
    });
  }

  #recorder(n: number, mode: AttemptMode): AttemptRecorder {
    return new AttemptRecorder(n, mode, `${mode} attempt ${n} (${this.#label})`, this.options.clock);
  }

  #metadata(metadata: SharedV4ProviderMetadata | undefined): SharedV4ProviderMetadata | undefined {
    // A clean first attempt is what the SDK alone would have returned: nothing to add.
    if (this.#attempts.length === 1 && this.#attempts[0]?.error === undefined) return metadata;
    const attempts = this.#attempts.map((a) => ({ ...a })) as unknown as JSONObject[];
    return { ...metadata, [GUARD_METADATA_KEY]: { ...metadata?.[GUARD_METADATA_KEY], attempts } };
  }

  #emit<K extends keyof StreamGuardEventMap>(type: K, payload: StreamGuardEventMap[K]) {
    this.options.emit(type, payload);
  }
}
