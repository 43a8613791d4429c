import { describe, expect, it, vi } from 'vitest';
import { RetryCancelledError, RetryDelayTooLongError } from '../../../src/errors/session-errors.js';
import type { SessionMessage } from '../../../src/session/message.js';
import { apiError, setup } from './fixtures/core.js';

const usageLimit = () =>
  Object.assign(new Error('insufficient_quota'), {
    kind: 'permanent' as const,
    reason: 'provider:insufficient_quota',
  });

/** After a turn: no chain open, counters reset, `waitForRetry()` settled, and every chain started was ended. */
async function expectLifecycleEnded(s: ReturnType<typeof setup>) {
  expect(s.core.isRetrying).toBe(false);
  expect(s.core.retryAttempt).toBe(0);
  await expect(s.core.waitForRetry()).resolves.toBeUndefined();
  let open = 0;
  for (const event of s.events) {
    if (event.type === 'auto_retry_start') open = event.attempt;
    if (event.type === 'auto_retry_end') open = 0;
    if (event.type === 'turn_end') expect(open, 'a chain outlived its turn').toBe(0);
  }
}

/** The next turn gets every retry it is allowed: three transient failures, then the answer. */
async function expectFullRetriesNextTurn(
  s: ReturnType<typeof setup>,
  outcomes: ({ text: string } | Error)[],
) {
  outcomes.push(apiError('a', 'transient'), apiError('b', 'transient'), apiError('c', 'transient'), {
    text: 'recovered',
  });
  await expect(s.prompt('again')).resolves.toEqual({ text: 'recovered' });
  const attempts = s.events.flatMap((e) => (e.type === 'auto_retry_start' ? [e.attempt] : []));
  expect(attempts.slice(-3)).toEqual([1, 2, 3]);
}

describe('a turn ends its retry chain whatever throws', () => {
  it('a compaction strategy that throws: auto_retry_end, isRetrying false, and the next turn has all its retries', async () => {
    const outcomes: ({ text: string } | Error)[] = [
      apiError('503', 'transient'),
      apiError('too long', 'overflow'),
    ];
    const s = setup(outcomes, {
      compact: () => {
        throw new Error('summariser down');
      },
    });
    await expect(s.prompt('hi')).rejects.toThrow('summariser down');
    expect(s.retryEvents().at(-1)).toEqual({
      type: 'auto_retry_end',
      success: false,
      attempt: 1,
      finalError: 'summariser down',
    });
    await expectLifecycleEnded(s);
    await expectFullRetriesNextTurn(s, outcomes);
  });

  it('an onUsageLimit hook that throws ends the chain the same way', async () => {
    const outcomes: ({ text: string } | Error)[] = [apiError('503', 'transient'), usageLimit()];
    const s = setup(outcomes, {
      onUsageLimit: async () => {
        throw new Error('billing API down');
      },
    });
    await expect(s.prompt('hi')).rejects.toThrow('billing API down');
    expect(s.retryEvents().at(-1)).toMatchObject({ type: 'auto_retry_end', success: false, attempt: 1 });
    await expectLifecycleEnded(s);
    await expectFullRetriesNextTurn(s, outcomes);
  });

  it('abort() during a compaction that honours the signal: the turn fails with the reason, the chain ends', async () => {
    const reason = new Error('user pressed esc');
    const outcomes: ({ text: string } | Error)[] = [
      apiError('503', 'transient'),
      apiError('too long', 'overflow'),
    ];
    const s = setup(outcomes, {
      compact: (_messages, { signal }) =>
        new Promise<SessionMessage[]>((_, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason)),
        ),
    });
    s.core.subscribe((e) => {
      // Once the strategy runs (it is called right after this event).
      if (e.type === 'compaction_start') queueMicrotask(() => s.core.abort(reason));
    });
    await expect(s.prompt('hi')).rejects.toBe(reason);
    await expectLifecycleEnded(s);
    await expectFullRetriesNextTurn(s, outcomes);
  });

  it('abort() during a compaction that ignores the signal: the result is not applied, the turn fails with the reason', async () => {
    const reason = new Error('stop');
    const s = setup([apiError('too long', 'overflow')], {
      compact: async (messages) => {
        s.core.abort(reason);
        return messages.slice(-1);
      },
    });
    await s.core.runTurn('first', { role: 'user', content: 'first' }, async (ctx) => {
      ctx.commitStep([{ role: 'assistant', content: 'a1' }]);
      return { text: 'a1' };
    });
    const before = [...s.core.messages];
    await expect(s.prompt('hi')).rejects.toBe(reason);
    expect(s.core.messages).toEqual([...before, { role: 'user', content: 'hi' }]);
    expect(s.core.store.entries.some((e) => e.type === 'compaction')).toBe(false);
  });

  it('abort() from a compaction_start listener: the strategy is not even called', async () => {
    const reason = new Error('stop');
    const compact = vi.fn((messages: readonly SessionMessage[]) => messages);
    const s = setup([apiError('too long', 'overflow')], { compact });
    s.core.subscribe((e) => {
      if (e.type === 'compaction_start') s.core.abort(reason);
    });
    await expect(s.prompt('hi')).rejects.toBe(reason);
    expect(compact).not.toHaveBeenCalled();
  });

  it('abort() while the usage-limit hook runs: the turn ends with the reason when the hook returns, no retry', async () => {
    const reason = new Error('stop');
    const s = setup([usageLimit(), { text: 'never' }], {
      onUsageLimit: () => {
        s.core.abort(reason);
        return true;
      },
    });
    await expect(s.prompt('hi')).rejects.toBe(reason);
    expect(s.run).toHaveBeenCalledTimes(1);
    expect(s.retryEvents()).toEqual([]);
  });
});

describe('abortRetry() and abort() at any moment between attempts', () => {
  it('abortRetry() from an auto_retry_start listener cancels the retry before any sleep', async () => {
    const s = setup([apiError('503', 'transient'), { text: 'never' }]);
    s.core.subscribe((e) => {
      if (e.type === 'auto_retry_start') s.core.abortRetry();
    });
    const error = await s.prompt('hi').catch((e: unknown) => e);
    expect(RetryCancelledError.isInstance(error)).toBe(true);
    expect((error as Error).cause).toMatchObject({ message: '503' });
    expect(s.sleeps).toEqual([]);
    expect(s.run).toHaveBeenCalledTimes(1);
    expect(s.retryEvents()).toEqual([
      expect.objectContaining({ type: 'auto_retry_start', attempt: 1 }),
      { type: 'auto_retry_end', success: false, attempt: 1, finalError: 'Retry cancelled' },
    ]);
    await expectLifecycleEnded(s);
  });

  it('abortRetry() from an auto_retry_start listener works for an immediate (usage-limit) retry too', async () => {
    const s = setup([usageLimit(), { text: 'never' }], { onUsageLimit: () => true });
    s.core.subscribe((e) => {
      if (e.type === 'auto_retry_start') s.core.abortRetry();
    });
    await expect(s.prompt('hi')).rejects.toSatisfy(RetryCancelledError.isInstance);
    expect(s.run).toHaveBeenCalledTimes(1);
  });

  it('abortRetry() from an attempt_error listener cancels the retry before it is announced', async () => {
    const s = setup([apiError('503', 'transient'), { text: 'never' }]);
    s.core.subscribe((e) => {
      if (e.type === 'attempt_error') s.core.abortRetry();
    });
    await expect(s.prompt('hi')).rejects.toSatisfy(RetryCancelledError.isInstance);
    expect(s.retryEvents()).toEqual([]);
    expect(s.run).toHaveBeenCalledTimes(1);
    // A permanent error is not a retry to cancel: the turn fails with the error itself.
    const p = setup([apiError('401', 'permanent')]);
    p.core.subscribe((e) => {
      if (e.type === 'attempt_error') p.core.abortRetry();
    });
    await expect(p.prompt('hi')).rejects.toThrow(/^401$/);
  });

  it('abortRetry() while the usage-limit hook runs cancels the immediate retry', async () => {
    const s = setup([usageLimit(), { text: 'never' }], {
      onUsageLimit: () => {
        s.core.abortRetry();
        return true;
      },
    });
    await expect(s.prompt('hi')).rejects.toSatisfy(RetryCancelledError.isInstance);
    expect(s.run).toHaveBeenCalledTimes(1);
  });

  it('abortRetry() while an attempt runs does nothing (it cancels no later retry)', async () => {
    const s = setup([]);
    let calls = 0;
    const run = async () => {
      calls++;
      if (calls === 1) {
        s.core.abortRetry();
        throw apiError('503', 'transient');
      }
      return { text: 'ok' };
    };
    await expect(s.core.runTurn('hi', { role: 'user', content: 'hi' }, run)).resolves.toEqual({ text: 'ok' });
  });

  it('abort(reason) during the backoff sleep rejects with that reason, not RetryCancelledError, leaving no timer', async () => {
    vi.useFakeTimers();
    try {
      const reason = new Error('shutting down');
      const s = setup([apiError('503', 'transient')], { sleep: undefined });
      const settled = s.prompt('hi').catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(500);
      expect(s.core.isRetrying).toBe(true);
      s.core.abort(reason);
      expect(await settled).toBe(reason);
      expect(s.retryEvents().at(-1)).toEqual({
        type: 'auto_retry_end',
        success: false,
        attempt: 1,
        finalError: 'shutting down',
      });
      expect(vi.getTimerCount()).toBe(0);
      await expectLifecycleEnded(s);
    } finally {
      vi.useRealTimers();
    }
  });

  it('abort() without a reason during the sleep rejects with an AbortError', async () => {
    const s = setup([apiError('503', 'transient')]);
    s.core.subscribe((e) => {
      if (e.type === 'auto_retry_start') s.core.abort();
    });
    const error = await s.prompt('hi').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('AbortError');
  });

  it('abort(reason) from an attempt_error listener ends the turn with the reason, no retry', async () => {
    const reason = new Error('enough');
    const s = setup([apiError('503', 'transient'), { text: 'never' }]);
    s.core.subscribe((e) => {
      if (e.type === 'attempt_error') s.core.abort(reason);
    });
    await expect(s.prompt('hi')).rejects.toBe(reason);
    expect(s.run).toHaveBeenCalledTimes(1);
  });
});

describe('retry.maxDelayMs caps the backoff; retry.maxRetryAfterMs bounds the server delay (0.2)', () => {
  it('a server delay above maxDelayMs but within maxRetryAfterMs is waited exactly', async () => {
    const s = setup([apiError('429', 'transient', 30_000), { text: 'ok' }], {
      settings: { retry: { maxDelayMs: 5_000, maxRetryAfterMs: 60_000 } },
    });
    await s.prompt('hi');
    expect(s.sleeps).toEqual([30_000]);
  });

  it('a server delay above maxRetryAfterMs fails at once; the backoff stays capped by maxDelayMs', async () => {
    const slow = setup([apiError('429', 'transient', 30_000)], {
      settings: { retry: { maxRetryAfterMs: 10_000 } },
    });
    const error = await slow.prompt('hi').catch((e: unknown) => e);
    expect(error).toMatchObject({ retryAfterMs: 30_000, maxRetryAfterMs: 10_000 });
    const capped = setup([apiError('a', 'transient'), apiError('b', 'transient'), { text: 'ok' }], {
      settings: { retry: { initialDelayMs: 4_000, maxDelayMs: 5_000, maxRetryAfterMs: 10_000 } },
    });
    await capped.prompt('hi');
    expect(capped.sleeps).toEqual([4_000, 5_000]);
  });

  it('maxRetryAfterMs bounds the server delay, whether given at the start or set later (updateSettings)', async () => {
    const given = setup([apiError('429', 'transient', 30_000)], {
      settings: { retry: { maxRetryAfterMs: 5_000 } },
    });
    expect(RetryDelayTooLongError.isInstance(await given.prompt('hi').catch((e: unknown) => e))).toBe(true);
    const later = setup([apiError('429', 'transient', 30_000)]);
    later.core.updateSettings({ retry: { maxRetryAfterMs: 5_000 } });
    const error = await later.prompt('hi').catch((e: unknown) => e);
    expect(error).toMatchObject({ retryAfterMs: 30_000, maxRetryAfterMs: 5_000 });
  });

  it('a live change above 2^31−1 ms is refused like the option', () => {
    const s = setup([]);
    expect(() => s.core.updateSettings({ retry: { maxRetryAfterMs: 30 * 24 * 3600 * 1000 } })).toThrow(
      RangeError,
    );
    expect(() => s.core.updateSettings({ retry: { initialDelayMs: 2 ** 31 } })).toThrow(
      /settings\.retry\.initialDelayMs/,
    );
  });
});
