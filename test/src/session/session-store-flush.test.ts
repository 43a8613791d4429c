/**
 * A store that writes in the background (a remote one, as `RedisSessionStore`): `append` accepts at once and `flush`
 * reports what the store refused. The session awaits it before each attempt, after each step and before the turn
 * settles, so a refused write fails the turn that made it.
 */
import { describe, expect, it } from 'vitest';
import { SessionStoreError } from '../../../src/errors/session-errors.js';
import { contextFromEntries, type SessionEntry } from '../../../src/session/entries.js';
import type { SessionMessage } from '../../../src/session/message.js';
import type { TurnAttempt } from '../../../src/session/session-core.js';
import { BackgroundStore } from './fixtures/background-store.js';
import { apiError, setup } from './fixtures/core.js';

const isAssistant = (text: string) => (e: SessionEntry) =>
  e.type === 'message' && e.message.role === 'assistant' && e.message.content === text;

async function rejection(promise: Promise<unknown>): Promise<SessionStoreError> {
  const error = await promise.catch((e: unknown) => e);
  expect(SessionStoreError.isInstance(error), String(error)).toBe(true);
  return error as SessionStoreError;
}

describe('a store that writes in the background', () => {
  it('a refused last step fails the turn that made it, not the next one; the context is what the store kept', async () => {
    const store = new BackgroundStore(isAssistant('lost'));
    const s = setup([{ text: 'lost' }], { store });
    const error = await rejection(s.prompt('one'));
    expect(error.entryType).toBe('message');
    expect(error.cause).toMatchObject({ code: 'LEASE_LOST' });
    expect(s.core.messages).toEqual([{ role: 'user', content: 'one' }]);
    expect(contextFromEntries(store.sent)).toEqual(s.core.messages);
    expect(s.events.at(-1)).toMatchObject({
      type: 'turn_end',
      success: false,
      error: { name: 'SessionStoreError' },
    });
  });

  it('a successful turn settles only once the store holds all of it', async () => {
    const store = new BackgroundStore(() => false);
    const s = setup([{ text: 'kept' }], { store });
    await expect(s.prompt('one')).resolves.toEqual({ text: 'kept' });
    expect(store.sent).toEqual(store.entries);
    expect(contextFromEntries(store.sent)).toEqual(s.core.messages);
  });

  it('a refused user message fails the turn before any request', async () => {
    const store = new BackgroundStore(() => true);
    const s = setup([{ text: 'never' }], { store });
    const error = await rejection(s.prompt('hi'));
    expect(error.entryType).toBe('message');
    expect(s.run).not.toHaveBeenCalled();
    expect(s.core.messages).toEqual([]);
  });

  it('a refused step fails the turn even when the runner swallows the rejection, and aborts the attempt', async () => {
    const store = new BackgroundStore(isAssistant('step 1'));
    const s = setup([], { store });
    let signal: AbortSignal | undefined;
    let secondStepRan = false;
    const run = async (ctx: TurnAttempt<SessionMessage>) => {
      signal = ctx.signal;
      ctx.commitStep([{ role: 'assistant', content: 'step 1' }]);
      await ctx.flush().catch(() => {});
      if (!ctx.signal.aborted) secondStepRan = true;
      return { text: 'an answer nobody saved' };
    };
    const error = await rejection(s.core.runTurn('hi', { role: 'user', content: 'hi' }, run));
    expect(signal?.reason).toBe(error);
    expect(secondStepRan).toBe(false);
    expect(s.core.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it.each(['error', 'auto_retry_start'])(
    'a refused %s entry stops the retry before its request, named after it',
    async (type) => {
      const store = new BackgroundStore((e) => e.type === type);
      const s = setup([apiError('503', 'transient'), { text: 'never asked' }], { store });
      const error = await rejection(s.prompt('hi'));
      expect(error.entryType).toBe(type);
      expect(s.run).toHaveBeenCalledTimes(1);
      // The retry chain that started ends with the turn.
      expect(s.core.isRetrying).toBe(false);
      expect(s.core.retryAttempt).toBe(0);
    },
  );

  it('a failure before the refusal (the attempt itself) still reports the store: the store failure wins', async () => {
    const store = new BackgroundStore((e) => e.type === 'error');
    const s = setup([apiError('bad request', 'permanent')], { store });
    const error = await rejection(s.prompt('hi'));
    expect(error.entryType).toBe('error');
  });

  it('flushes: one before each attempt, one per step the runner asks for, one at the end', async () => {
    const store = new BackgroundStore(() => false);
    const s = setup([apiError('503', 'transient'), { text: 'ok' }], { store });
    await s.prompt('hi');
    // Attempt 1, attempt 2 (after the error and retry entries), the end of the turn.
    expect(store.flushes).toBe(3);
    expect(store.sent).toEqual(store.entries);
  });
});
