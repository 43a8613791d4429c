/**
 * The stall watch of a streamed request: it notices a provider stream that sends nothing for too long. It lives in
 * the core, apart from any framework: it needs only a duration, a clock, timers and a callback, so the AI SDK
 * adapter (or any other) wires it to its own reads, and tests drive it with a fake clock and fake timers.
 */
import { StreamStalledError } from '../errors/stream-stalled-error.js';
import { type Clock, systemTimers, type TimerHandle, type Timers } from '../util/time.js';

/** What a {@link StallWatch} needs. */
export interface StallWatchOptions {
  /** How long a pending read may stay pending before it is a stall, in ms. */
  ms: number;
  clock: Clock;
  /** Default: the global `setTimeout`/`clearTimeout`. */
  timers?: Timers;
  /** Called once, with the error to end the stream with, when a read stayed pending for `ms`. */
  onStall: (error: StreamStalledError) => void;
}

/**
 * Calls `onStall` when a read stays pending for `ms`. The clock runs only while a read is pending (the guard reads
 * one at a time): the time the consumer takes between reads never counts. At most one timer, re-armed lazily (not per
 * part): a read costs one clock reading, two field writes and a switch of the timer's hold on the process.
 *
 * No timer of a watch keeps the process alive unless a read is pending (someone awaits the provider): between reads
 * the timer is `unref`'d, and a timer that fires with no read pending is not renewed (the next read starts one). So
 * a result whose consumer stopped reading, or that was dropped, holds the process for no time and no timer at all
 * after `ms`.
 */
export class StallWatch {
  readonly #ms: number;
  readonly #clock: Clock;
  readonly #timers: Timers;
  readonly #onStall: (error: StreamStalledError) => void;
  /** When the pending read was issued; `undefined` while no read is pending. */
  #since: number | undefined;
  #timer: TimerHandle | undefined;
  #stopped = false;

  constructor({ ms, clock, timers = systemTimers, onStall }: StallWatchOptions) {
    this.#ms = ms;
    this.#clock = clock;
    this.#timers = timers;
    this.#onStall = onStall;
  }

  /** A read was issued: the stall timeout counts from now. */
  arm(): void {
    if (this.#stopped) return;
    this.#since = this.#clock.now();
    if (this.#timer === undefined) this.#timer = this.#timers.set(this.#wake, this.#ms);
    else this.#timer.ref?.();
  }

  /** The read settled: nothing counts until the next read. */
  disarm(): void {
    this.#since = undefined;
    this.#timer?.unref?.();
  }

  /** Ends the watch: its timer is cleared, and no read arms it again. */
  stop(): void {
    this.#stopped = true;
    this.#since = undefined;
    if (this.#timer !== undefined) this.#timers.clear(this.#timer);
    this.#timer = undefined;
  }

  // Bound once: a renewed timer allocates no closure.
  readonly #wake = (): void => {
    this.#timer = undefined;
    // No read pending: no timer until the next one. A read armed since the timer started is due no earlier.
    if (this.#stopped || this.#since === undefined) return;
    const wait = this.#since + this.#ms - this.#clock.now();
    if (wait > 0) {
      this.#timer = this.#timers.set(this.#wake, wait);
      return;
    }
    this.#stopped = true;
    this.#onStall(new StreamStalledError({ stallTimeoutMs: this.#ms }));
  };
}
