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
import type { StreamStalledError } from '../../src/errors/stream-stalled-error.js';
import { SingleUseRequest } from '../../src/stream/single-use-request.js';
import { StallWatch } from '../../src/stream/stall-watch.js';
import type { Resolved } from './stream-guard.js';

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

  constructor(
    model: LanguageModelV4,
    params: LanguageModelV4CallOptions,
    options: Pick<Resolved, 'stallTimeoutMs' | 'clock'>,
    name: string,
  ) {
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
      this.#request = new SingleUseRequest(name, () => model.doStream({ ...params, abortSignal }));
    } else {
      this.#request = new SingleUseRequest(name, () => model.doStream(params));
    }
  }

  /** Sends the request. The stall watch starts with the response: time to headers is the SDK's to bound. */
  async open(): Promise<LanguageModelV4StreamResult> {
    const result = await this.#request.stream();
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
