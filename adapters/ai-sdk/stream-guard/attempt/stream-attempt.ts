/**
 * One streamed request of a guarded model call. It owns what belongs to a single attempt: its own abort signal
 * (so a stall aborts this request only, never the whole call), its reader, and its stall watch. The retry and
 * recovery decisions across attempts are `GuardedCall`'s.
 */
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4StreamResult,
  LanguageModelV4StreamPart as Part,
} from '@ai-sdk/provider';
import type { StreamStalledError } from '../../../../src/errors/stream-stalled-error.js';
import type { AttemptRecorder } from '../../../../src/stream/attempt-record.js';
import { SingleUseRequest } from '../../../../src/stream/single-use-request.js';
import { StallWatch } from '../../../../src/stream/stall-watch.js';
import type { Clock } from '../../../../src/util/time.js';

/** What an attempt needs of the guard's options. */
export interface AttemptOptions {
  /** The stall timeout, in ms (`undefined`: no stall watch). */
  stallTimeoutMs: number | undefined;
  clock: Clock;
}

/**
 * One streamed request with the guard's own abort signal (so a stall aborts this request only, not the call)
 * and an optional stall watch over its reads.
 */
export class StreamAttempt {
  readonly #request: SingleUseRequest<LanguageModelV4StreamResult>;
  readonly #abort: AbortController | undefined;
  #reader: ReadableStreamDefaultReader<Part> | undefined;
  #stall: StallWatch | undefined;
  #stalled: StreamStalledError | undefined;
  /** Ends a pending `open` when the stall watch fires during it. */
  #rejectOpen: ((error: StreamStalledError) => void) | undefined;

  constructor(
    model: LanguageModelV4,
    params: LanguageModelV4CallOptions,
    options: AttemptOptions,
    recorder: Pick<AttemptRecorder, 'request' | 'run'>,
  ) {
    const name = recorder.request;
    const stallTimeoutMs = options.stallTimeoutMs;
    if (stallTimeoutMs !== undefined) {
      this.#abort = new AbortController();
      const signals = [this.#abort.signal, ...(params.abortSignal ? [params.abortSignal] : [])];
      const abortSignal = AbortSignal.any(signals);
      this.#stall = new StallWatch({
        ms: stallTimeoutMs,
        clock: options.clock,
        onStall: (e) => this.#onStall(e),
      });
      this.#request = new SingleUseRequest(name, () =>
        recorder.run(() => model.doStream({ ...params, abortSignal })),
      );
    } else {
      this.#request = new SingleUseRequest(name, () => recorder.run(() => model.doStream(params)));
    }
  }

  /**
   * Sends the request. The stall watch covers the wait for `doStream` too: providers read ahead before they return
   * (`@ai-sdk/openai` until the first output chunk), so a stream that stalls right after its first chunk would
   * otherwise never return, and no read would ever be watched.
   */
  async open(): Promise<LanguageModelV4StreamResult> {
    const opening = this.#request.stream();
    const stall = this.#stall;
    if (stall === undefined) return this.#opened(await opening);
    stall.arm();
    const stalled = new Promise<never>((_, reject) => {
      this.#rejectOpen = reject;
    });
    try {
      return this.#opened(await Promise.race([opening, stalled]));
    } catch (error) {
      // A stall aborted the request: whatever `doStream` still does (resolve late, reject with the abort) is spent.
      if (this.#stalled !== undefined)
        Promise.resolve(opening).then(
          (late) => late.stream.cancel().catch(() => {}),
          () => {},
        );
      throw error;
    } finally {
      this.#rejectOpen = undefined;
      stall.disarm();
    }
  }

  #opened(result: LanguageModelV4StreamResult): LanguageModelV4StreamResult {
    this.#reader = result.stream.getReader();
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
    this.#rejectOpen?.(error);
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
