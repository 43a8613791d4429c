import type {
  JSONObject,
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4Middleware,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
  SharedV4ProviderMetadata,
} from '@ai-sdk/provider';
import { classifyError } from '../../src/classify/classify.js';
import type { Classification, ClassifyOverrides } from '../../src/classify/types.js';
import { type StreamErrorFields, StreamFailedError } from '../../src/errors/stream-failed-error.js';
import { StreamStalledError } from '../../src/errors/stream-stalled-error.js';
import type { Emitter } from '../../src/observe/emitter.js';
import { type BackoffOptions, backoffDelay } from '../../src/policy/backoff.js';
import { abortableSleep } from '../../src/policy/sleep.js';
import { type AttemptMode, type AttemptRecord, AttemptRecorder } from '../../src/stream/attempt-record.js';
import { reconcile } from '../../src/stream/reconcile.js';
import { SingleUseRequest } from '../../src/stream/single-use-request.js';
import { type Clock, type Random, type Sleep, systemClock, systemRandom } from '../../src/util/time.js';
import { resetPart } from './reset-part.js';

/**
 * Events of the stream guard. Each carries the record of the attempt it is about. A type alias, not an interface:
 * it satisfies `EventMap` without an index signature, so a misspelled event name does not compile.
 */
export type StreamGuardEventMap = {
  /** A failure before any content: a new streamed request follows after `delayMs`. */
  stream_retry: { attempt: AttemptRecord; nextAttempt: number; delayMs: number };
  /** A transient failure after content: one non-streaming request follows (never a second stream). */
  stream_degraded: { attempt: AttemptRecord; charsEmitted: number };
  /** The call failed for good; `error` is what the stream ends with. */
  stream_failed: { attempt: AttemptRecord; attempts: AttemptRecord[]; error: unknown };
};

/** Options of {@link streamGuard}. */
export interface StreamGuardOptions {
  /** New requests after a transient failure before any content was emitted (default 2). */
  maxStreamRetries?: number;
  /** After content, recover a transient failure with one non-streaming request (default `true`). */
  degrade?: boolean;
  /**
   * Abort an attempt whose stream sends nothing for this long and recover it (default: off). Only the time a read
   * from the provider is pending counts: a consumer that pauses between parts is never a stall. Keep it below the
   * SDK's `timeout.chunkMs`: the SDK's timer aborts the whole call, which the guard cannot recover.
   */
  stallTimeoutMs?: number;
  /** Backoff before a new request (default `{ initialDelayMs: 1000, multiplier: 2, maxDelayMs: 30000, jitter: 0.1 }`). */
  backoff?: Partial<BackoffOptions>;
  /**
   * A server's retry-after longer than this ends the retries instead of waiting (default 60 000 ms); the same
   * meaning as the session's `retry.maxDelayMs`.
   */
  maxRetryAfterMs?: number;
  /** Overrides for the shared classifier (`classifyError`). */
  classify?: ClassifyOverrides;
  /** Receives `stream_retry`, `stream_degraded` and `stream_failed`. */
  events?: Emitter<StreamGuardEventMap>;
  /** Injected for tests (defaults: the system clock, `abortableSleep`, `Math.random`). */
  clock?: Clock;
  sleep?: Sleep;
  random?: Random;
}

/** The key under which the guard writes its attempt records into `providerMetadata`. */
export const GUARD_METADATA_KEY = 'graceful-ai';

const defaultBackoff: BackoffOptions = {
  initialDelayMs: 1000,
  multiplier: 2,
  maxDelayMs: 30_000,
  jitter: 0.1,
};

type Part = LanguageModelV4StreamPart;
type Resolved = Required<Omit<StreamGuardOptions, 'events' | 'classify' | 'stallTimeoutMs' | 'backoff'>> &
  Pick<StreamGuardOptions, 'events' | 'classify' | 'stallTimeoutMs'> & { backoff: BackoffOptions };

/**
 * A LanguageModelV4 middleware that recovers failed model calls without ever re-streaming a spent request:
 * - before the first content part, a transient failure (thrown, rejected, `error` part, in-band provider error,
 *   stall) starts a NEW streamed request after backoff, up to `maxStreamRetries`; only the winning attempt's
 *   preamble (`stream-start`, `response-metadata`) reaches the consumer;
 * - after content, a transient failure degrades to ONE `doGenerate` with the same params, reconciled with what
 *   was emitted: the remainder only, or a `graceful-ai.reset` part then the complete answer;
 * - anything else (permanent, overflow, abort) errors the stream with the original error, so `result.text` rejects.
 * Attempt records land on the finish part's `providerMetadata['graceful-ai'].attempts`.
 *
 * @example wrapLanguageModel({ model: openai('gpt-4o'), middleware: streamGuard() })
 */
export function streamGuard(options: StreamGuardOptions = {}): LanguageModelV4Middleware {
  const resolved: Resolved = {
    maxStreamRetries: options.maxStreamRetries ?? 2,
    degrade: options.degrade ?? true,
    stallTimeoutMs: options.stallTimeoutMs,
    backoff: { ...defaultBackoff, ...options.backoff },
    maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
    classify: options.classify,
    events: options.events,
    clock: options.clock ?? systemClock,
    sleep: options.sleep ?? abortableSleep,
    random: options.random ?? systemRandom,
  };
  return {
    specificationVersion: 'v4',
    wrapStream: ({ model, params }) => new GuardedCall(model, params, resolved).stream(),
    wrapGenerate: ({ model, params }) => new GuardedCall(model, params, resolved).generate(),
  };
}

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
class GuardedCall {
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
    if (classification.kind !== 'transient' || n > this.options.maxStreamRetries) return undefined;
    const hint = classification.retryAfterMs;
    if (hint !== undefined) return hint <= this.options.maxRetryAfterMs ? hint : undefined;
    return backoffDelay(n, this.options.backoff, this.options.random);
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
    this.options.events?.emit(type, payload);
  }
}

const interrupted: Classification = { kind: 'transient', reason: 'finish:interrupted' };

function erroredStream(error: unknown): ReadableStream<Part> {
  return new ReadableStream<Part>({ pull: (controller) => controller.error(error) }, { highWaterMark: 0 });
}

/**
 * One streamed request with the guard's own abort signal (so a stall aborts this request only, not the call)
 * and an optional stall watch over its reads.
 */
class StreamAttempt {
  readonly #request: SingleUseRequest<LanguageModelV4StreamResult>;
  readonly #abort: AbortController | undefined;
  #reader: ReadableStreamDefaultReader<Part> | undefined;
  #stall: StallWatch | undefined;
  #stalled: StreamStalledError | undefined;

  constructor(model: LanguageModelV4, params: LanguageModelV4CallOptions, options: Resolved, name: string) {
    const stallTimeoutMs = options.stallTimeoutMs;
    if (stallTimeoutMs !== undefined) {
      this.#abort = new AbortController();
      const signals = [this.#abort.signal, ...(params.abortSignal ? [params.abortSignal] : [])];
      const abortSignal = AbortSignal.any(signals);
      this.#stall = new StallWatch(stallTimeoutMs, options, (error) => this.#onStall(error));
      this.#request = new SingleUseRequest(name, () => model.doStream({ ...params, abortSignal }));
    } else {
      this.#request = new SingleUseRequest(name, () => model.doStream(params));
    }
  }

  /** Sends the request. The stall watch starts with the response: time to headers is the SDK's to bound. */
  async open(): Promise<LanguageModelV4StreamResult> {
    const result = await this.#request.stream();
    this.#reader = result.stream.getReader();
    this.#stall?.start();
    return result;
  }

  /**
   * The next read of the provider stream. Rejects with {@link StreamStalledError} on a stall. Only the time a
   * read is pending counts towards a stall: a consumer that stops reading is not the provider stalling.
   */
  read(): Promise<ReadableStreamReadResult<Part>> {
    if (this.#stall === undefined) return this.#reader!.read();
    this.#stall.arm();
    return this.#reader!.read().then(this.#afterRead, this.#afterFailedRead);
  }

  // Bound once per attempt, so a watched read costs one `then` and no closure.
  readonly #afterRead = (next: ReadableStreamReadResult<Part>): ReadableStreamReadResult<Part> => {
    // A stall cancels the reader, which ends the pending read as if the stream were done.
    if (this.#stalled !== undefined) throw this.#stalled;
    this.#stall!.disarm();
    return next;
  };

  readonly #afterFailedRead = (error: unknown): never => {
    this.#stall!.disarm();
    throw this.#stalled ?? error;
  };

  /** Aborts this request only (not the call) and ends the pending read, which then rejects with `error`. */
  #onStall(error: StreamStalledError): void {
    this.#stalled = error;
    this.#abort?.abort(error);
    this.#reader?.cancel(error).catch(() => {});
  }

  /** Ends the attempt: stops the stall watch and releases the provider stream. */
  stop(): void {
    this.#stall?.stop();
    this.#reader?.cancel().catch(() => {});
  }

  cancel(reason: unknown): Promise<void> {
    this.#stall?.stop();
    return this.#reader?.cancel(reason) ?? Promise.resolve();
  }
}

/**
 * Calls `onStall` when a read stays pending for `ms`. The clock runs only while a read is pending (the guard
 * reads one at a time): the time the consumer takes between reads never counts. One timer per attempt, re-armed
 * lazily (not per part): a read costs one clock reading and two field writes.
 */
class StallWatch {
  readonly #stop = new AbortController();
  /** When the pending read was issued; `undefined` while no read is pending. */
  #since: number | undefined;

  constructor(
    private readonly ms: number,
    private readonly options: Resolved,
    private readonly onStall: (error: StreamStalledError) => void,
  ) {}

  start(): void {
    // Ends when stopped: the sleep rejects with the stop signal's reason.
    this.#watch().catch(() => {});
  }

  /** A read was issued: the stall timeout counts from now. */
  arm(): void {
    this.#since = this.options.clock.now();
  }

  /** The read settled: nothing counts until the next read. */
  disarm(): void {
    this.#since = undefined;
  }

  stop(): void {
    this.#stop.abort();
  }

  async #watch(): Promise<void> {
    for (;;) {
      // Unarmed, wake again after `ms`: a read armed meanwhile is then due no earlier than this wake-up.
      const wait = this.#since === undefined ? this.ms : this.#since + this.ms - this.options.clock.now();
      if (wait <= 0) return this.onStall(new StreamStalledError(this.ms));
      await this.options.sleep(wait, this.#stop.signal);
    }
  }
}

/**
 * What the consumer has seen of the current model call: text and reasoning per block, open blocks and tool
 * calls. It knows how to complete that output with a full non-streamed answer.
 */
class EmittedContent {
  chars = 0;
  #text = '';
  #reasoning = '';
  readonly #textIds: string[] = [];
  readonly #reasoningIds: string[] = [];
  readonly #openText = new Set<string>();
  readonly #openReasoning = new Set<string>();
  readonly #openToolInputs = new Set<string>();
  readonly #toolCalls = new Set<string>();

  /** Records a part on its way to the consumer. */
  track(part: Part): void {
    switch (part.type) {
      case 'text-start':
        this.#textIds.push(part.id);
        this.#openText.add(part.id);
        return;
      case 'text-delta':
        this.#text += part.delta;
        this.chars += part.delta.length;
        return;
      case 'text-end':
        this.#openText.delete(part.id);
        return;
      case 'reasoning-start':
        this.#reasoningIds.push(part.id);
        this.#openReasoning.add(part.id);
        return;
      case 'reasoning-delta':
        this.#reasoning += part.delta;
        this.chars += part.delta.length;
        return;
      case 'reasoning-end':
        this.#openReasoning.delete(part.id);
        return;
      case 'tool-input-start':
        this.#openToolInputs.add(part.id);
        return;
      case 'tool-input-end':
        this.#openToolInputs.delete(part.id);
        return;
      case 'tool-call':
        this.#toolCalls.add(toolCallKey(part.toolName, part.input));
        return;
    }
  }

  /**
   * The parts that turn what was emitted into `result`'s complete answer: the remainder only when the answer
   * begins with what was emitted, else a reset part and the whole answer. Tool calls already emitted (same
   * tool, same input) are never emitted again.
   */
  completeWith(result: LanguageModelV4GenerateResult, attempt: number): Part[] {
    const text = joined(result, 'text');
    const reasoning = joined(result, 'reasoning');
    const textPlan = reconcile(this.#text, text);
    const reasoningPlan = reconcile(this.#reasoning, reasoning);
    const reset = textPlan.kind === 'reset' || reasoningPlan.kind === 'reset';
    const parts: Part[] = [];
    const ids = { n: 0, next: (kind: string) => `graceful-ai-${attempt}-${kind}-${ids.n++}` };

    if (reset) {
      parts.push(...this.#closeOpen());
      parts.push(
        resetPart({
          textIds: this.#textIds,
          reasoningIds: this.#reasoningIds,
          toolInputIds: [...this.#openToolInputs],
          discardedChars: this.chars,
        }),
      );
      parts.push(...block('reasoning', ids.next('reasoning'), reasoning, true));
      parts.push(...block('text', ids.next('text'), text, true));
    } else {
      parts.push(
        ...this.#continue('reasoning', reasoningPlan.kind === 'continue' ? reasoningPlan.remainder : ''),
      );
      parts.push(...this.#continue('text', textPlan.kind === 'continue' ? textPlan.remainder : '', ids.next));
      parts.push(...this.#closeOpen());
    }
    for (const content of result.content) {
      if (content.type === 'text' || content.type === 'reasoning') continue;
      if (content.type === 'tool-call' && this.#toolCalls.has(toolCallKey(content.toolName, content.input)))
        continue;
      parts.push(content as Part);
    }
    return parts;
  }

  /** The remainder appended to the last open block of `kind`, or a new block when none is open. */
  #continue(kind: 'text' | 'reasoning', remainder: string, nextId?: (kind: string) => string): Part[] {
    if (remainder === '') return [];
    const open = kind === 'text' ? this.#openText : this.#openReasoning;
    const last = [...open].at(-1);
    if (last !== undefined) return [{ type: `${kind}-delta`, id: last, delta: remainder }];
    return block(kind, nextId?.(kind) ?? `graceful-ai-${kind}`, remainder, true);
  }

  /** Ends every block the failed stream left open, so the consumer's parts stay well-formed. */
  #closeOpen(): Part[] {
    const parts: Part[] = [];
    for (const id of this.#openReasoning) parts.push({ type: 'reasoning-end', id });
    for (const id of this.#openText) parts.push({ type: 'text-end', id });
    this.#openReasoning.clear();
    this.#openText.clear();
    return parts;
  }
}

function block(kind: 'text' | 'reasoning', id: string, text: string, end: boolean): Part[] {
  if (text === '') return [];
  const parts: Part[] = [
    { type: `${kind}-start`, id },
    { type: `${kind}-delta`, id, delta: text },
  ];
  if (end) parts.push({ type: `${kind}-end`, id });
  return parts;
}

function joined(result: LanguageModelV4GenerateResult, type: 'text' | 'reasoning'): string {
  let text = '';
  for (const part of result.content) if (part.type === type) text += part.text;
  return text;
}

/** Identity of a tool call across requests (ids differ per request): the tool and its input, JSON-normalised. */
function toolCallKey(toolName: string, input: string): string {
  try {
    return `${toolName}\u0000${JSON.stringify(JSON.parse(input))}`;
  } catch {
    return `${toolName}\u0000${input}`;
  }
}
