import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { abortableSleep } from '../../../src/policy/sleep.js';

describe('abortableSleep', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('resolves after the delay and leaves no timer', async () => {
    const done = vi.fn();
    void abortableSleep(100).then(done);
    await vi.advanceTimersByTimeAsync(99);
    expect(done).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects at once with the signal reason and clears its timer', async () => {
    const controller = new AbortController();
    const p = abortableSleep(10_000, controller.signal);
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(p).rejects.toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects immediately on an already aborted signal', async () => {
    await expect(abortableSleep(10, AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
  });
});
