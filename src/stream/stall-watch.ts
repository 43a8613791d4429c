/**
 * The stall watch of a streamed request: it notices a provider stream that sends nothing for too long. It lives in
 * the core, apart from any framework: it needs only a duration, a clock, a sleep and a callback, so the AI SDK
 * adapter (or any other) wires it to its own reads, and tests drive it with a fake clock and sleep.
 */
import { StreamStalledError } from '../errors/stream-stalled-error.js';
import type { Clock, Sleep } from '../util/time.js';

/** What a {@link StallWatch} needs. */
export interface StallWatchOptions {
  /** How long a pending read may stay pending before it is a stall, in ms. */
  ms: number;
  clock: Clock;
  /** Must reject when its signal aborts: that is how {@link StallWatch.stop} ends the watch. */
  sleep: Sleep;
  /** Called once, with the error to end the stream with, when a read stayed pending for `ms`. */
  onStall: (error: StreamStalledError) => void;
}

/**
 * Calls `onStall` when a read stays pending for `ms`. The clock runs only while a read is pending (the guard
 * reads one at a time): the time the consumer takes between reads never counts. One timer per attempt, re-armed
 * lazily (not per part): a read costs one clock reading and two field writes.
 */
export class StallWatch {
  readonly #stop = new AbortController();
  readonly #ms: number;
  readonly #clock: Clock;
  readonly #sleep: Sleep;
  readonly #onStall: (error: StreamStalledError) => void;
  /** When the pending read was issued; `undefined` while no read is pending. */
  #since: number | undefined;

  constructor({ ms, clock, sleep, onStall }: StallWatchOptions) {
    this.#ms = ms;
    this.#clock = clock;
    this.#sleep = sleep;
    this.#onStall = onStall;
  }

  start(): void {
    // Ends when stopped: the sleep rejects with the stop signal's reason.
    this.#watch().catch(() => {});
  }

  /** A read was issued: the stall timeout counts from now. */
  arm(): void {
    this.#since = this.#clock.now();
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
      const wait = this.#since === undefined ? this.#ms : this.#since + this.#ms - this.#clock.now();
      if (wait <= 0) return this.#onStall(new StreamStalledError({ stallTimeoutMs: this.#ms }));
      const before = this.#clock.now();
      await this.#sleep(wait, this.#stop.signal);
      // A sleep that returns before its time (an instant test sleep) must not starve the event loop: the reads this
      // watch waits for settle in later tasks.
      if (this.#clock.now() - before < wait) await nextTask();
    }
  }
}

/** Resolves in a later task (not a microtask), so I/O and timers run in between. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
