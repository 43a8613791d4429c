import { describe, expect, it } from 'vitest';
import { StreamStalledError } from '../../../src/errors/stream-stalled-error.js';
import { StallWatch } from '../../../src/stream/stall-watch.js';
import type { Sleep } from '../../../src/util/time.js';

/** Lets the watch's loop run to its next sleep (microtasks only: no real timer). */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

/** A StallWatch on a fake clock and a fake sleep that the test ends by hand. */
function harness(ms = 100) {
  let now = 0;
  const waits: number[] = [];
  let pending: { dueAt: number; signal: AbortSignal | undefined; resolve: () => void } | undefined;
  const sleep: Sleep = (wait, signal) =>
    new Promise<void>((resolve, reject) => {
      waits.push(wait);
      if (signal?.aborted) return reject(signal.reason);
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      pending = { dueAt: now + wait, signal, resolve };
    });
  const stalls: StreamStalledError[] = [];
  const watch = new StallWatch({
    ms,
    clock: { now: () => now },
    sleep,
    onStall: (error) => stalls.push(error),
  });
  return {
    watch,
    stalls,
    waits,
    pending: () => pending,
    /** Moves the clock on by `by` ms, short of the pending sleep's end. */
    advance(by: number) {
      now += by;
    },
    /** Ends the pending sleep: the clock moves on to the time it was due. */
    async elapse() {
      const sleeping = pending!;
      pending = undefined;
      now = sleeping.dueAt;
      sleeping.resolve();
      await settle();
    },
  };
}

describe('StallWatch', () => {
  it('never fires while disarmed, however long the wait (a consumer pausing between reads)', async () => {
    const h = harness(100);
    h.watch.start();
    await settle();
    for (let i = 0; i < 5; i++) await h.elapse();
    expect(h.stalls).toEqual([]);
    expect(h.waits).toEqual([100, 100, 100, 100, 100, 100]);
    h.watch.stop();
  });

  it('fires onStall with a StreamStalledError once a read stays armed for ms, then ends', async () => {
    const h = harness(100);
    h.watch.start();
    await settle();
    h.advance(40);
    h.watch.arm(); // at t = 40: due at 140
    await h.elapse(); // t = 100: armed for 60 ms only; sleeps the 40 ms left
    expect(h.stalls).toEqual([]);
    expect(h.waits.at(-1)).toBe(40);
    await h.elapse(); // t = 140
    expect(h.stalls).toHaveLength(1);
    expect(StreamStalledError.isInstance(h.stalls[0])).toBe(true);
    expect(h.stalls[0]!.stallTimeoutMs).toBe(100);
    expect(h.pending()).toBeUndefined();
  });

  it('a read that settles in time (disarm) does not fire; the next armed read counts from its own start', async () => {
    const h = harness(100);
    h.watch.start();
    await settle();
    h.watch.arm(); // at t = 0
    h.advance(90);
    h.watch.disarm(); // settled at t = 90
    await h.elapse(); // t = 100: nothing pending, so a full new wait
    expect(h.stalls).toEqual([]);
    expect(h.waits.at(-1)).toBe(100);
    h.advance(30);
    h.watch.arm(); // at t = 130: due at 230
    await h.elapse(); // t = 200
    expect(h.stalls).toEqual([]);
    expect(h.waits.at(-1)).toBe(30);
    h.advance(20);
    h.watch.disarm(); // settled at t = 220, in time
    h.watch.arm(); // the next read at t = 220: due at 320
    await h.elapse(); // t = 230
    expect(h.stalls).toEqual([]);
    expect(h.waits.at(-1)).toBe(90);
    await h.elapse(); // t = 320
    expect(h.stalls).toHaveLength(1);
    expect(h.pending()).toBeUndefined();
  });

  it('stop ends the watch cleanly: the pending sleep is aborted, no stall, no further sleep', async () => {
    const h = harness(100);
    h.watch.start();
    await settle();
    h.watch.arm();
    const sleeping = h.pending()!;
    h.watch.stop();
    await settle();
    expect(sleeping.signal?.aborted).toBe(true);
    h.advance(1_000);
    await settle();
    expect(h.stalls).toEqual([]);
    expect(h.waits).toEqual([100]);
  });
});

describe('StallWatch with a sleep that returns at once', () => {
  it('does not starve the event loop: a read settling in a later task is seen before the stall', async () => {
    // An instant test sleep (as `streamGuard({ sleep: async () => {} })` injects) on the real clock: without a task
    // boundary between wake-ups the watch would spin on microtasks and the timer below could never fire.
    // The sleep gives up after 10,000 calls, so a regression fails this test instead of hanging it.
    let sleeps = 0;
    const stalls: StreamStalledError[] = [];
    const watch = new StallWatch({
      ms: 60_000,
      clock: { now: () => Date.now() },
      sleep: async () => {
        if (++sleeps > 10_000) throw new Error('spinning');
      },
      onStall: (error) => stalls.push(error),
    });
    watch.start();
    watch.arm();
    await new Promise((resolve) => setTimeout(resolve, 5));
    watch.disarm();
    watch.stop();
    expect(stalls).toEqual([]);
    expect(sleeps).toBeLessThan(1_000);
  });
});
