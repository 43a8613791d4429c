import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToolTimeoutError } from '../../../src/errors/tool-timeout-error.js';
import { withTimeout } from '../../../src/policy/timeout.js';

describe('withTimeout', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('abandons a call that ignores its signal at the limit with ToolTimeoutError', async () => {
    let signal: AbortSignal | undefined;
    const promise = withTimeout(
      (s) => {
        signal = s;
        return new Promise(() => {});
      },
      { timeoutMs: 250, toolName: 'slow' },
    );
    const rejected = vi.fn();
    promise.catch(rejected);
    await vi.advanceTimersByTimeAsync(249);
    expect(rejected).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    const error = rejected.mock.calls[0]![0];
    expect(ToolTimeoutError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ toolName: 'slow', timeoutMs: 250 });
    expect(String(error)).toContain("Tool 'slow' did not finish within 250 ms");
    expect(signal!.reason).toBe(error);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("a caller's abort rejects with the caller's reason, not a timeout, and removes its listener", async () => {
    const controller = new AbortController();
    const remove = vi.spyOn(controller.signal, 'removeEventListener');
    const promise = withTimeout(() => new Promise(() => {}), { timeoutMs: 1_000, signal: controller.signal });
    controller.abort('mine');
    await expect(promise).rejects.toBe('mine');
    expect(remove).toHaveBeenCalledWith('abort', expect.any(Function));
    expect(vi.getTimerCount()).toBe(0);
  });

  it('resolves with the value and clears its timer and listener', async () => {
    const controller = new AbortController();
    const remove = vi.spyOn(controller.signal, 'removeEventListener');
    await expect(
      withTimeout(async () => 'ok', { timeoutMs: 1_000, signal: controller.signal }),
    ).resolves.toBe('ok');
    expect(remove).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('passes a synchronous throw through as a rejection', async () => {
    const boom = new Error('boom');
    await expect(
      withTimeout(
        () => {
          throw boom;
        },
        { timeoutMs: 10 },
      ),
    ).rejects.toBe(boom);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects at once on an already aborted signal without calling fn', async () => {
    const fn = vi.fn();
    await expect(withTimeout(fn, { signal: AbortSignal.abort('gone') })).rejects.toBe('gone');
    expect(fn).not.toHaveBeenCalled();
  });
});
