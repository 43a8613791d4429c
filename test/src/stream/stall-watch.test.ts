import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StreamStalledError } from '../../../src/errors/stream-stalled-error.js';
import { StallWatch } from '../../../src/stream/stall-watch.js';
import type { TimerHandle, Timers } from '../../../src/util/time.js';

interface FakeTimer extends TimerHandle {
  dueAt: number;
  ms: number;
  refed: boolean;
  fire: () => void;
}

/** A StallWatch on a fake clock and fake timers that record their hold on the process (ref/unref). */
function harness(ms = 100) {
  let now = 0;
  const live = new Set<FakeTimer>();
  const waits: number[] = [];
  const timers: Timers = {
    set(callback, wait) {
      waits.push(wait);
      const timer: FakeTimer = {
        dueAt: now + wait,
        ms: wait,
        refed: true,
        fire: callback,
        ref: () => {
          timer.refed = true;
        },
        unref: () => {
          timer.refed = false;
        },
      };
      live.add(timer);
      return timer;
    },
    clear: (timer) => live.delete(timer as FakeTimer),
  };
  const stalls: StreamStalledError[] = [];
  const watch = new StallWatch({ ms, clock: { now: () => now }, timers, onStall: (e) => stalls.push(e) });
  const due = () => [...live].sort((a, b) => a.dueAt - b.dueAt)[0];
  return {
    watch,
    stalls,
    waits,
    live: () => live.size,
    /** Whether some timer holds the process (Node: a `ref`'d timer). */
    holds: () => [...live].some((t) => t.refed),
    /** Moves the clock on by `by` ms, firing every timer due on the way. */
    advance(by: number) {
      const until = now + by;
      for (let next = due(); next !== undefined && next.dueAt <= until; next = due()) {
        now = next.dueAt;
        live.delete(next);
        next.fire();
      }
      now = until;
    },
  };
}

describe('StallWatch', () => {
  it('never fires while disarmed, however long the wait, and has no timer at all (a consumer pausing between reads)', () => {
    const h = harness(100);
    h.advance(10_000);
    expect(h.stalls).toEqual([]);
    expect(h.live()).toBe(0);
    h.watch.arm();
    h.advance(50);
    h.watch.disarm();
    h.advance(10_000);
    expect(h.stalls).toEqual([]);
    expect(h.live()).toBe(0);
    expect(h.waits).toEqual([100]); // one timer, not renewed once no read was pending
  });

  it('fires onStall with a StreamStalledError once a read stays armed for ms, then ends', () => {
    const h = harness(100);
    h.watch.arm(); // at t = 0: due at 100
    h.advance(40);
    h.watch.disarm();
    h.watch.arm(); // at t = 40: due at 140; the timer of t = 0 wakes at 100 and sleeps the 40 ms left
    h.advance(60);
    expect(h.stalls).toEqual([]);
    expect(h.waits).toEqual([100, 40]);
    h.advance(39);
    expect(h.stalls).toEqual([]);
    h.advance(1);
    expect(h.stalls).toHaveLength(1);
    expect(StreamStalledError.isInstance(h.stalls[0])).toBe(true);
    expect(h.stalls[0]!.stallTimeoutMs).toBe(100);
    expect(h.live()).toBe(0);
    h.watch.arm(); // ended: no new timer
    h.advance(1_000);
    expect(h.stalls).toHaveLength(1);
    expect(h.live()).toBe(0);
  });

  it('a read that settles in time (disarm) does not fire; the next armed read counts from its own start', () => {
    const h = harness(100);
    h.watch.arm(); // at t = 0
    h.advance(90);
    h.watch.disarm(); // settled at t = 90
    h.advance(10); // t = 100: the timer wakes with nothing pending and is not renewed
    expect(h.live()).toBe(0);
    h.advance(30);
    h.watch.arm(); // at t = 130: a new timer, due at 230
    h.advance(70); // t = 200
    h.advance(20);
    h.watch.disarm(); // settled at t = 220, in time
    h.watch.arm(); // the next read at t = 220: due at 320
    h.advance(10); // t = 230: wakes, sleeps the 90 ms left
    expect(h.stalls).toEqual([]);
    expect(h.waits).toEqual([100, 100, 90]);
    h.advance(90); // t = 320
    expect(h.stalls).toHaveLength(1);
    expect(h.live()).toBe(0);
  });

  it('holds the process only while a read is pending: unref between reads, ref again on the next read', () => {
    const h = harness(100);
    h.watch.arm();
    expect(h.holds()).toBe(true);
    h.watch.disarm();
    expect(h.holds()).toBe(false);
    expect(h.live()).toBe(1);
    h.watch.arm();
    expect(h.holds()).toBe(true);
    expect(h.waits).toEqual([100]); // the same timer, not a new one per read
  });

  it('stop ends the watch cleanly: the timer is cleared, no stall, no further timer', () => {
    const h = harness(100);
    h.watch.arm();
    h.watch.stop();
    expect(h.live()).toBe(0);
    h.watch.arm();
    h.advance(1_000);
    expect(h.stalls).toEqual([]);
    expect(h.live()).toBe(0);
    expect(h.waits).toEqual([100]);
  });

  it('property: fires exactly when some read stayed pending for ms; holds the process only while a read is pending', () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('read' as const), pendingFor: fc.integer({ min: 0, max: 150 }) }),
      fc.record({ kind: fc.constant('pause' as const), ms: fc.integer({ min: 0, max: 500 }) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const h = harness(100);
        let stalledAt: number | undefined;
        steps.forEach((s, i) => {
          if (stalledAt !== undefined) return;
          if (s.kind === 'pause') {
            h.advance(s.ms);
            expect(h.holds()).toBe(false);
            return;
          }
          h.watch.arm();
          expect(h.holds()).toBe(true);
          h.advance(Math.min(s.pendingFor, 100));
          if (s.pendingFor >= 100) stalledAt = i;
          else h.watch.disarm();
          expect(h.holds()).toBe(false);
        });
        expect(h.stalls).toHaveLength(stalledAt === undefined ? 0 : 1);
        h.watch.stop();
        expect(h.live()).toBe(0);
      }),
    );
  });
});
