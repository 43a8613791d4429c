import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TurnDeadlineError } from '../../../src/errors/turn-deadline-error.js';
import { TurnDeadline } from '../../../src/policy/turn-deadline.js';
import { isolatedTelemetry } from './fixtures.js';

describe('TurnDeadline', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('keeps finished results, abandons running calls at the deadline and skips later ones', async () => {
    const { telemetry, seen } = isolatedTelemetry();
    const onExpire = vi.fn();
    const deadline = new TurnDeadline({ timeoutMs: 1_000, telemetry, onExpire });
    await expect(deadline.run('fast#1', 'fast', async () => 'done')).resolves.toBe('done');
    let signal: AbortSignal | undefined;
    const slow = deadline.run('slow#2', 'slow', (s) => {
      signal = s;
      return new Promise(() => {}); // ignores its signal
    });
    const slowError = slow.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1_000);
    const error = await slowError;
    expect(TurnDeadlineError.isInstance(error) && error.phase).toBe('timed_out');
    expect(String(error)).toMatch(/Tool 'slow' was stopped.*ran out of time/);
    expect(signal!.aborted).toBe(true);
    expect(onExpire).toHaveBeenCalledOnce();

    const never = vi.fn();
    const skipped = await deadline.run('late#3', 'late', never).catch((e: unknown) => e);
    expect(never).not.toHaveBeenCalled();
    expect(TurnDeadlineError.isInstance(skipped) && skipped.phase).toBe('skipped');

    const report = deadline.close();
    expect(report).toEqual({
      expired: true,
      completed: ['fast#1'],
      timedOut: ['slow#2'],
      skipped: ['late#3'],
    });
    expect(seen.filter((e) => e.type === 'turn_deadline')).toEqual([
      {
        type: 'turn_deadline',
        timeoutMs: 1_000,
        completed: ['fast#1'],
        timedOut: ['slow#2'],
        skipped: ['late#3'],
      },
    ]);
  });

  it('a tool error before the deadline passes through and counts as completed', async () => {
    const deadline = new TurnDeadline({ timeoutMs: 1_000, telemetry: isolatedTelemetry().telemetry });
    const boom = new Error('boom');
    await expect(deadline.run('a#1', 'a', () => Promise.reject(boom))).rejects.toBe(boom);
    expect(deadline.close()).toMatchObject({ expired: false, completed: ['a#1'] });
  });

  it('close() before the deadline leaves no timer and emits nothing', async () => {
    const { telemetry, seen } = isolatedTelemetry();
    const deadline = new TurnDeadline({ telemetry });
    expect(vi.getTimerCount()).toBe(1);
    deadline.close();
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(0);
    expect(seen).toEqual([]);
  });

  it('its default timer never keeps the process alive (unref)', () => {
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    const deadline = new TurnDeadline({ timeoutMs: 5_000, telemetry: isolatedTelemetry().telemetry });
    const timer = setTimeoutSpy.mock.results.at(-1)!.value as NodeJS.Timeout;
    expect(setTimeoutSpy.mock.calls.at(-1)![1]).toBe(5_000);
    expect(timer.hasRef()).toBe(false);
    deadline.close();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('defaults to 300 s', () => {
    const deadline = new TurnDeadline();
    expect(deadline.timeoutMs).toBe(300_000);
    deadline.close();
  });
});
