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
import { type StreamErrorFields, StreamFailedError } from '../../src/errors/stream-failed-error.js';
import { StreamStalledError } from '../../src/errors/stream-stalled-error.js';
import { decideRetry } from '../../src/policy/retry-decision.js';
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

/** Marks a clean stream end that the provider itself reports as incomplete. */
class InterruptedFinish extends Error {
  override readonly name = 'InterruptedFinish';
}

const preambleTypes = new Set<Part['type']>(['stream-start', 'response-metadata', 'raw', 'ping']);

/** State of one model call through the guard. Fresh per call; each attempt gets a fresh recorder. */
export class GuardedCall {
  readonly #attempts: AttemptRecord[] = [];
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
      try {
        const result = await attempt.open();
        const preamble: Part[] = [];
        for (;;) {
          const next = await attempt.read();
          const part = next.done ? undefined : next.value;
          if (part === undefined || !preambleTypes.has(part.type)) {
            if (part?.type === 'error') throw part.error;
            if (part !== undefined) preamble.push(part);
            return { ...result, stream: this.#committed(n, attempt, recorder, preamble, part === undefined) };
          }
          preamble.push(part);
        }
      } catch (error) {
        attempt.stop();
        try {
          await this.#afterEarlyFailure(n, recorder, error);
        } catch (final) {
          return { stream: erroredStream(toError(final)) };
        }
      }
    }
  }

  /** Records a failure before any output; sleeps before the next attempt or throws the error for good. */
  async #afterEarlyFailure(n: number, recorder: AttemptRecorder, error: unknown): Promise<void> {
    const classification = this.#classify(error);
    const record = recorder.finish({ error, classification });
    this.#attempts.push(record);
    const delayMs = this.#retryDelay(n, classification);
    if (delayMs === undefined) {
      this.#emit('stream_failed', { attempt: record, attempts: [...this.#attempts], error });
      throw error;
    }
    this.#emit('stream_retry', { attempt: record, nextAttempt: n + 1, delayMs });
    await this.options.sleep(delayMs, this.params.abortSignal);
  }

  #retryDelay(n: number, classification: Classification): number | undefined {
    const decision = decideRetry({
      retriesDone: n - 1,
      maxRetries: this.options.maxRetries,
      classification,
      backoff: this.options.backoff,
      random: this.options.random,
      maxRetryAfterMs: this.options.maxRetryAfterMs,
    });
    return decision.retry ? decision.delayMs : undefined;
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
              else if (next.value.type === 'error') throw next.value.error;
              else pass(controller, next.value);
            }
          } catch (error) {
            attempt.stop();
            done = true;
            recorder.charsEmitted = emitted.chars;
            return this.#afterLateFailure(n, recorder, emitted, error, controller);
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
    recorder: AttemptRecorder,
    emitted: EmittedContent,
    error: unknown,
    controller: ReadableStreamDefaultController<Part>,
  ): Promise<void> {
    const classification = error instanceof InterruptedFinish ? interrupted : this.#classify(error);
    const record = recorder.finish({ error, classification });
    this.#attempts.push(record);
    if (classification.kind !== 'transient' || !this.options.degrade) {
      this.#fail(record, error, controller);
      return;
    }
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
      this.#fail(failed, generateError, controller);
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

  #fail(record: AttemptRecord, error: unknown, controller: ReadableStreamDefaultController<Part>): void {
    const final = toError(error);
    this.#emit('stream_failed', { attempt: record, attempts: [...this.#attempts], error: final });
    controller.error(final);
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

  #metadata(metadata: SharedV4ProviderMetadata | undefined): SharedV4ProviderMetadata {
    const attempts = this.#attempts.map((a) => ({ ...a })) as unknown as JSONObject[];
    return { ...metadata, [GUARD_METADATA_KEY]: { ...metadata?.[GUARD_METADATA_KEY], attempts } };
  }

  #emit<K extends keyof StreamGuardEventMap>(type: K, payload: StreamGuardEventMap[K]) {
    this.options.emit(type, payload);
  }
}

const interrupted: Classification = { kind: 'transient', reason: 'finish:interrupted' };

function erroredStream(error: unknown): ReadableStream<Part> {
  return new ReadableStream<Part>({ pull: (controller) => controller.error(error) }, { highWaterMark: 0 });
}
