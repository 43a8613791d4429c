import { describe, expect, it, vi } from 'vitest';
import { ContextOverflowError } from '../../../src/errors/context-overflow-error.js';
import {
  RetryCancelledError,
  RetryDelayTooLongError,
  RetryExhaustedError,
  SessionBusyError,
} from '../../../src/errors/session-errors.js';
import type { SessionMessage } from '../../../src/session/message.js';
import type { TurnAttempt } from '../../../src/session/session-core.js';
import { apiError, setup } from './fixtures/core.js';

describe('SessionCore retry lifecycle', () => {
  it('retries transient errors with exact 2 s, 4 s backoff and emits start/end in order', async () => {
    const s = setup([apiError('503 a', 'transient'), apiError('503 b', 'transient'), { text: 'ok' }]);
    await expect(s.prompt('hi')).resolves.toEqual({ text: 'ok' });
    expect(s.sleeps).toEqual([2000, 4000]);
    expect(s.retryEvents()).toEqual([
      {
        type: 'auto_retry_start',
        attempt: 1,
        maxRetries: 3,
        delayMs: 2000,
        errorMessage: '503 a',
      },
      {
        type: 'auto_retry_start',
        attempt: 2,
        maxRetries: 3,
        delayMs: 4000,
        errorMessage: '503 b',
      },
      { type: 'auto_retry_end', success: true, attempt: 2 },
    ]);
    expect(s.core.retryAttempt).toBe(0);
    expect(s.events.map((e) => e.type)).toEqual([
      'turn_start',
      'message',
      'attempt_error',
      'auto_retry_start',
      'attempt_error',
      'auto_retry_start',
      'message',
      'auto_retry_end',
      'turn_end',
    ]);
  });

  it('fails with "Retry failed after 3 attempts" on exhaustion and resets the counter', async () => {
    const s = setup([1, 2, 3, 4].map((n) => apiError(`overloaded ${n}`, 'transient')));
    const error = await s.prompt('hi').catch((e: unknown) => e);
    expect(RetryExhaustedError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe('Retry failed after 3 attempts: overloaded 4');
    expect(s.sleeps).toEqual([2000, 4000, 8000]);
    expect(s.retryEvents().at(-1)).toEqual({
      type: 'auto_retry_end',
      success: false,
      attempt: 3,
      finalError: 'Retry failed after 3 attempts: overloaded 4',
    });
    expect(s.core.retryAttempt).toBe(0);
    expect(s.events.at(-1)).toMatchObject({ type: 'turn_end', success: false });
  });

  it('a later error starts a new chain from attempt 1', async () => {
    const s = setup([apiError('x', 'transient'), { text: 'a' }, apiError('y', 'transient'), { text: 'b' }]);
    await s.prompt('one');
    await s.prompt('two');
    expect(
      s
        .retryEvents()
        .filter((e) => e.type === 'auto_retry_start')
        .map((e) => 'attempt' in e && e.attempt),
    ).toEqual([1, 1]);
  });

  it('uses the server delay instead of the backoff', async () => {
    const s = setup([apiError('429', 'transient', 1500), { text: 'ok' }]);
    await s.prompt('hi');
    expect(s.sleeps).toEqual([1500]);
  });

  it('fails at once when the server delay exceeds maxDelayMs', async () => {
    const s = setup([apiError('429 slow down', 'transient', 120_000)]);
    const error = await s.prompt('hi').catch((e: unknown) => e);
    expect(RetryDelayTooLongError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(
      // 0.1's `maxDelayMs` alone still bounds the server's delay; the message names the 0.2 setting.
      'wait 2m before retrying, which exceeds retry.maxRetryAfterMs (1m)',
    );
    expect(s.sleeps).toEqual([]);
    expect(s.retryEvents()).toEqual([]);
  });

  it('caps the computed backoff at maxDelayMs', async () => {
    const s = setup([apiError('a', 'transient'), apiError('b', 'transient'), { text: 'ok' }], {
      settings: { retry: { initialDelayMs: 1000, maxDelayMs: 1500 } },
    });
    await s.prompt('hi');
    expect(s.sleeps).toEqual([1000, 1500]);
  });

  it('classifies unrecognised errors as permanent (the session passes unknown: permanent)', async () => {
    const s = setup([new Error('something odd happened')]);
    await expect(s.prompt('hi')).rejects.toThrow('something odd happened');
    expect(s.events.find((e) => e.type === 'attempt_error')).toMatchObject({
      kind: 'permanent',
      reason: 'unknown',
    });
    expect(s.run).toHaveBeenCalledTimes(1);
  });

  it('does not retry permanent or abort errors, nor anything when disabled', async () => {
    const s = setup([apiError('400 bad', 'permanent')]);
    await expect(s.prompt('hi')).rejects.toThrow('400 bad');
    const d = setup([apiError('503', 'transient')], { settings: { retry: { enabled: false } } });
    expect(d.core.autoRetryEnabled).toBe(false);
    await expect(d.prompt('hi')).rejects.toThrow('503');
    expect(s.retryEvents()).toEqual([]);
    expect(d.retryEvents()).toEqual([]);
  });

  it('setAutoRetryEnabled(false) stops the next retry', async () => {
    const s = setup([apiError('a', 'transient'), apiError('b', 'transient')]);
    s.core.subscribe((e) => {
      if (e.type === 'auto_retry_start') s.core.setAutoRetryEnabled(false);
    });
    await expect(s.prompt('hi')).rejects.toThrow('b');
    expect(s.retryEvents().at(-1)).toEqual({
      type: 'auto_retry_end',
      success: false,
      attempt: 1,
      finalError: 'b',
    });
  });

  it('a permanent error ending a chain ends it with success false', async () => {
    const s = setup([apiError('503', 'transient'), apiError('401 bad key', 'permanent')]);
    await expect(s.prompt('hi')).rejects.toThrow('401 bad key');
    expect(s.retryEvents().at(-1)).toEqual({
      type: 'auto_retry_end',
      success: false,
      attempt: 1,
      finalError: '401 bad key',
    });
  });

  it('abortRetry() during the sleep ends the chain with "Retry cancelled" and rejects prompt()', async () => {
    vi.useFakeTimers();
    try {
      const s = setup([apiError('503', 'transient')], { sleep: undefined });
      const settled = s.prompt('hi').catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(500);
      expect(s.core.isRetrying).toBe(true);
      s.core.abortRetry();
      const error = await settled;
      expect(RetryCancelledError.isInstance(error)).toBe(true);
      expect(s.retryEvents().at(-1)).toEqual({
        type: 'auto_retry_end',
        success: false,
        attempt: 1,
        finalError: 'Retry cancelled',
      });
      expect(s.core.isRetrying).toBe(false);
      expect(s.run).toHaveBeenCalledTimes(1);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('prompt() settles only after the chain, and waitForRetry() resolves with it', async () => {
    vi.useFakeTimers();
    try {
      const s = setup([apiError('503', 'transient'), { text: 'ok' }], { sleep: undefined });
      let settled = false;
      const done = s.prompt('hi').then(() => {
        settled = true;
      });
      await vi.advanceTimersByTimeAsync(0);
      const chain = s.core.waitForRetry();
      await vi.advanceTimersByTimeAsync(1999);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await done;
      await chain;
      expect(settled).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('abort() cancels a running attempt: classified abort, never retried', async () => {
    const s = setup([]);
    const run = async (ctx: TurnAttempt<SessionMessage>) =>
      new Promise<{ text: string }>((_, reject) => {
        ctx.signal.addEventListener('abort', () => reject(apiError('socket closed', 'transient')));
      });
    const turn = s.core.runTurn('hi', { role: 'user', content: 'hi' }, run);
    s.core.abort();
    await expect(turn).rejects.toThrow('socket closed');
    expect(s.events.find((e) => e.type === 'attempt_error')).toMatchObject({ kind: 'abort' });
    expect(s.retryEvents()).toEqual([]);
  });

  it('rejects a second prompt() while one runs, and accepts one afterwards', async () => {
    const s = setup([{ text: 'a' }, { text: 'b' }]);
    const first = s.prompt('one');
    await expect(s.prompt('two')).rejects.toSatisfy(SessionBusyError.isInstance);
    await first;
    await expect(s.prompt('three')).resolves.toEqual({ text: 'b' });
  });

  it('a throwing listener never breaks the session', async () => {
    const s = setup([apiError('503', 'transient'), { text: 'ok' }], {
      logger: { debug() {}, info() {}, warn() {}, error() {} },
    });
    s.core.subscribe(() => {
      throw new Error('listener bug');
    });
    await expect(s.prompt('hi')).resolves.toEqual({ text: 'ok' });
  });
});

describe('SessionCore context across retries and overflow', () => {
  it('keeps committed steps, drops failed partial output from the context but keeps it in the history', async () => {
    const s = setup([]);
    let calls = 0;
    const run = async (ctx: TurnAttempt<SessionMessage>) => {
      calls++;
      if (calls === 1) {
        ctx.commitStep([
          { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 't1' }] },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 't1' }] },
        ]);
        ctx.discardStep([{ role: 'assistant', content: 'Partial' }]);
        throw apiError('stream cut', 'transient');
      }
      expect(ctx.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
      return { text: 'done' };
    };
    await s.core.runTurn('hi', { role: 'user', content: 'hi' }, run);
    expect(s.core.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    const error = s.core.store.entries.find((e) => e.type === 'error');
    expect(error).toMatchObject({ kind: 'transient', partial: [{ role: 'assistant', content: 'Partial' }] });
  });

  it('compacts once on overflow and continues; a second overflow fails with the overflow error', async () => {
    const compact = vi.fn((messages: readonly SessionMessage[]) => messages.slice(-1));
    const s = setup([apiError('too long', 'overflow'), { text: 'ok' }], { compact });
    await s.prompt('hi');
    expect(compact).toHaveBeenCalledTimes(1);
    expect(s.events.filter((e) => e.type.startsWith('compaction'))).toEqual([
      { type: 'compaction_start', messageCount: 1, errorMessage: 'too long' },
      { type: 'compaction_end', messageCount: 1, removedCount: 0 },
    ]);
    expect(s.retryEvents()).toEqual([]);

    const again = setup([apiError('too long 1', 'overflow'), apiError('too long 2', 'overflow')], {
      compact,
    });
    const error = await again.prompt('hi').catch((e: unknown) => e);
    expect(ContextOverflowError.isInstance(error)).toBe(true);
    expect((error as Error).cause).toMatchObject({ message: 'too long 2' });
  });

  it('usage limit: a hook that switched retries at once; one that did not lets the turn fail', async () => {
    const limit = () =>
      Object.assign(new Error('insufficient_quota'), {
        kind: 'permanent' as const,
        reason: 'provider:insufficient_quota',
      });
    const hook = vi.fn(() => true);
    const s = setup([limit(), { text: 'ok' }], { onUsageLimit: hook });
    await s.prompt('hi');
    expect(hook).toHaveBeenCalledTimes(1);
    expect(s.sleeps).toEqual([]);
    expect(s.retryEvents()[0]).toMatchObject({ type: 'auto_retry_start', attempt: 1, delayMs: 0 });

    const no = setup([limit()], { onUsageLimit: () => false });
    await expect(no.prompt('hi')).rejects.toThrow('insufficient_quota');
    const other = setup([apiError('400 bad request', 'permanent')], { onUsageLimit: hook });
    await expect(other.prompt('hi')).rejects.toThrow('400 bad request');
    expect(hook).toHaveBeenCalledTimes(1);

    const slow = setup([apiError('429 reset in 1h', 'transient', 3_600_000), { text: 'ok' }], {
      onUsageLimit: () => true,
    });
    await expect(slow.prompt('hi')).resolves.toEqual({ text: 'ok' });
    expect(slow.sleeps).toEqual([]);
  });
});

describe('session settings', () => {
  it('rejects bad retry settings at construction, naming the option', () => {
    expect(() => setup([], { settings: { retry: { maxRetries: -1 } } })).toThrow(
      /settings\.retry\.maxRetries/,
    );
    expect(() => setup([], { settings: { retry: { initialDelayMs: Number.NaN } } })).toThrow(
      /settings\.retry\.initialDelayMs/,
    );
  });

  it('maxRetries 0 fails at once with the error itself, no chain', async () => {
    const s = setup([apiError('503', 'transient')], { settings: { retry: { maxRetries: 0 } } });
    await expect(s.prompt('hi')).rejects.toThrow(/^503$/);
    expect(s.retryEvents()).toEqual([]);
  });
});
