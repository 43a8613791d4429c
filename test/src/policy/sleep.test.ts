import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { abortableSleep, createSleep } from '../../../src/policy/sleep.js';

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

  it('with unref, the timer does not keep Node alive; without it, it does', () => {
    const spy = vi.spyOn(globalThis, 'setTimeout');
    const controller = new AbortController();
    void createSleep({ unref: true })(1000, controller.signal).catch(() => {});
    expect((spy.mock.results.at(-1)!.value as NodeJS.Timeout).hasRef()).toBe(false);
    void abortableSleep(1000, controller.signal).catch(() => {});
    expect((spy.mock.results.at(-1)!.value as NodeJS.Timeout).hasRef()).toBe(true);
    controller.abort();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('removes its abort listener once the timer fires', async () => {
    const controller = new AbortController();
    const remove = vi.spyOn(controller.signal, 'removeEventListener');
    const sleeping = createSleep({ unref: true })(50, controller.signal);
    await vi.advanceTimersByTimeAsync(50);
    await sleeping;
    expect(remove).toHaveBeenCalledWith('abort', expect.any(Function));
  });
});
