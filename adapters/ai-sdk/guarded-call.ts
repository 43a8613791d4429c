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
  LanguageModelV4Usage,
  LanguageModelV4StreamPart as Part,
  SharedV4ProviderMetadata,
} from '@ai-sdk/provider';
import { RetryError } from 'ai';
import { classifyError } from '../../src/classify/classify.js';
import type { Classification } from '../../src/classify/types.js';
import { type StreamErrorFields, StreamFailedError } from '../../src/errors/stream-failed-error.js';
import { StreamStalledError } from '../../src/errors/stream-stalled-error.js';
import { decideRetry, type RetryDecision } from '../../src/policy/retry-decision.js';
import { type AttemptMode, type AttemptRecord, AttemptRecorder } from '../../src/stream/attempt-record.js';
import { SingleUseRequest } from '../../src/stream/single-use-request.js';
import { EmittedContent } from './emitted-content.js';
import { StreamAttempt } from './stream-attempt.js';
import { GUARD_METADATA_KEY, type Resolved, type StreamGuardEventMap } from './stream-guard.js';

/** The in-band error payload of a provider stream (`Symbol.for('vercel.ai.providerStreamError')`). */
function isProviderStreamError(error: unknown): error is StreamErrorFields {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as Record<symbol, unknown>)[Symbol.for('vercel.ai.providerStreamError')] === true
  );
}

/** What a guarded stream errors with: Errors unchanged; in-band payloads as a {@link StreamFailedError}. */
function toError(error: unknown): unknown {
  return isProviderStreamError(error) ? new StreamFailedError(error) : error;
}

/** The SDK's own rendering of an error in its `RetryError` messages (`getErrorMessage` of `@ai-sdk/provider`). */
function sdkErrorMessage(error: unknown): string {
  if (error == null) return 'unknown error';
  if (typeof error === 'string') return error;
  if (error instanceof Error) return error.toString();
  return JSON.stringify(error);
}

/** A provider's `error` part, thrown inside the guard so the part itself can be relayed if nothing recovers. */
class InBandError {
  constructor(readonly part: Extract<Part, { type: 'error' }>) {}
}

/** Marks a clean stream end that the provider itself reports as incomplete. */
class InterruptedFinish extends Error {
  override readonly name = 'InterruptedFinish';
}

const preambleTypes = new Set<Part['type']>(['stream-start', 'response-metadata', 'raw', 'ping']);

/** State of one model call through the guard. Fresh per call; each attempt gets a fresh recorder. */
export class GuardedCall {
  readonly #attempts: AttemptRecord[] = [];
  /** Every error before output, for the SDK-shaped `RetryError` (see `#asTheSdkWould`). */
  readonly #earlyErrors: unknown[] = [];
  readonly #label: string;

  constructor(
    private readonly model: LanguageModelV4,
    private readonly params: LanguageModelV4CallOptions,
    private readonly options: Resolved,
  ) {
    this.#label = `${model.provider}:${model.modelId}`;
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
      const preamble: Part[] = [];
      let opened: LanguageModelV4StreamResult | undefined;
      try {
        opened = await attempt.open();
        for (;;) {
          const next = await attempt.read();
          const part = next.done ? undefined : next.value;
          if (part === undefined || !preambleTypes.has(part.type)) {
            if (part?.type === 'error') throw new InBandError(part);
            if (part !== undefined) preamble.push(part);
            return { ...opened, stream: this.#committed(n, attempt, recorder, preamble, part === undefined) };
          }
          preamble.push(part);
        }
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
          if (inBand && opened)
            return { ...opened, stream: this.#relayRest(attempt, [...preamble, inBand.part]) };
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
    const errors = this.#earlyErrors;
    const aborted = this.params.abortSignal?.aborted === true;
    if (
      this.options.reportFailure === undefined ||
      aborted ||
      this.options.maxRetries === 0 ||
      errors.length === 1
    ) {
      return error;
    }
    const text = sdkErrorMessage(error);
    return exhausted
      ? new RetryError({
          message: `Failed after ${errors.length} attempts. Last error: ${text}`,
          reason: 'maxRetriesExceeded',
          errors: [...errors],
        })
      : new RetryError({
          message: `Failed after ${errors.length} attempts with non-retryable error: '${text}'`,
          reason: 'errorNotRetryable',
          errors: [...errors],
        });
  }

  /** Sleeps before the next attempt, or throws the error for good (non-streaming calls). */
  async #afterEarlyFailure(n: number, recorder: AttemptRecorder, error: unknown): Promise<void> {
    await this.options.sleep(this.#earlyFailure(n, recorder, error), this.params.abortSignal);
  }

  /** `head`, then whatever the attempt's provider stream still sends (its finish after an error part). */
  #relayRest(attempt: StreamAttempt, head: Part[]): ReadableStream<Part> {
    return new ReadableStream<Part>(
      {
        pull: async (controller) => {
          for (const part of head.splice(0)) controller.enqueue(part);
          try {
            const next = await attempt.read();
            if (!next.done) return controller.enqueue(next.value);
          } catch {
            // The provider stream broke after reporting its error: the error part already says what happened.
          }
          attempt.stop();
          controller.close();
        },
        cancel: (reason) => attempt.cancel(reason),
      },
      { highWaterMark: 0 },
    );
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
   * The consumer's stream once an attempt produced content. One pull reads on while the consumer keeps up and
   * returns as soon as a part waits in the queue, so each read starts with an empty queue: an error never drops
   * a part the consumer has not read. Nothing is allocated per part beyond what the provider sends.
   */
  #committed(
    n: number,
    attempt: StreamAttempt,
    recorder: AttemptRecorder,
    head: Part[],
    ended: boolean,
  ): ReadableStream<Part> {
    const emitted = new EmittedContent();
    let done = false;
    const pass = (controller: ReadableStreamDefaultController<Part>, part: Part) => {
      if (part.type === 'finish') {
        // Without recovery, an interrupted finish passes through as the provider reported it.
        if (part.finishReason.unified === 'interrupted' && emitted.chars > 0 && this.options.degrade) {
          throw new InterruptedFinish(`The provider ended the stream early (finish reason 'interrupted').`);
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
          // The provider stream may have ended with the parts read before committing.
          let end = ended;
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
    const classification = error instanceof InterruptedFinish ? interrupted : this.#classify(error);
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
    controller.enqueue({ type: 'error', error });
    if (relayFrom !== undefined) {
      void this.#drainInto(relayFrom, controller);
      return;
    }
    // No provider finish follows (a broken stream, a failed recovery): end the call as the SDK expects a call to end.
    controller.enqueue({
      type: 'finish',
      finishReason: { unified: 'error', raw: undefined },
      usage: unknownUsage,
    });
    controller.close();
  }

  /** Relays the rest of a failed attempt's provider stream (after its error part), then closes. */
  async #drainInto(attempt: StreamAttempt, controller: ReadableStreamDefaultController<Part>): Promise<void> {
    try {
      for (let next = await attempt.read(); !next.done; next = await attempt.read())
        controller.enqueue(next.value);
    } catch {
      // The provider stream broke after reporting its error: the error part already says what happened.
    }
    attempt.stop();
    controller.close();
  }

  #classify(error: unknown): Classification {
    // A stall is ours and always recoverable, whatever the caller set for unknown errors.
    if (StreamStalledError.isInstance(error) && !this.params.abortSignal?.aborted) {
      return { kind: 'transient', reason: 'stall' };
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

/** The usage of a call whose provider never reported it. */
const unknownUsage: LanguageModelV4Usage = {
  inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};

const interrupted: Classification = { kind: 'transient', reason: 'finish:interrupted' };

function erroredStream(error: unknown): ReadableStream<Part> {
  return new ReadableStream<Part>({ pull: (controller) => controller.error(error) }, { highWaterMark: 0 });
}
