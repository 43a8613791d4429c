import { describe, expect, it } from 'vitest';
import { SessionStoreError } from '../../../src/errors/session-errors.js';
import { contextFromEntries, type SessionEntry } from '../../../src/session/entries.js';
import type { SessionMessage } from '../../../src/session/message.js';
import type { TurnAttempt } from '../../../src/session/session-core.js';
import { InMemorySessionStore, type SessionStore } from '../../../src/session/store.js';
import { apiError, setup } from './fixtures/core.js';
import { fsError } from './fixtures/session-files.js';

/** An in-memory store whose appends fail with ENOSPC while `fails(entry)` says so. */
class FailingStore extends InMemorySessionStore {
  constructor(public fails: (entry: SessionEntry) => boolean) {
    super();
  }

  override append(entry: SessionEntry): void {
    if (this.fails(entry)) throw fsError('ENOSPC');
    super.append(entry);
  }

  override appendAll(entries: readonly SessionEntry[]): void {
    if (entries.some(this.fails)) throw fsError('ENOSPC');
    super.appendAll(entries);
  }
}

const toolCall: SessionMessage = { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 't1' }] };
const toolResult: SessionMessage = { role: 'tool', content: [{ type: 'tool-result', toolCallId: 't1' }] };

async function rejection(promise: Promise<unknown>): Promise<SessionStoreError> {
  const error = await promise.catch((e: unknown) => e);
  expect(SessionStoreError.isInstance(error), String(error)).toBe(true);
  return error as SessionStoreError;
}

describe('a store that fails during a turn fails the turn', () => {
  it('a step the store cannot save fails the turn even when the runner swallows the throw (the SDK does)', async () => {
    const store = new FailingStore((e) => e.type === 'message' && e.message.role === 'tool');
    const s = setup([], { store });
    let signal: AbortSignal | undefined;
    const run = async (ctx: TurnAttempt<SessionMessage>) => {
      signal = ctx.signal;
      try {
        ctx.commitStep([toolCall, toolResult]);
      } catch {
        // The AI SDK catches and drops what `onStepEnd` throws.
      }
      return { text: 'the answer nobody saved' };
    };
    const error = await rejection(s.core.runTurn('hi', { role: 'user', content: 'hi' }, run));
    expect(error.entryType).toBe('message');
    expect((error.cause as NodeJS.ErrnoException).code).toBe('ENOSPC');
    expect(error.message).toMatch(
      /could not save a message entry \(ENOSPC: simulated, write\), so the turn was stopped/,
    );
    // The attempt was aborted with it, so a runner that keeps going stops at its next step.
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBe(error);
    // The step is in neither: the context equals what the store would restore.
    expect(s.core.messages).toEqual([{ role: 'user', content: 'hi' }]);
    expect(contextFromEntries(store.entries)).toEqual(s.core.messages);
    expect(s.events.at(-1)).toMatchObject({
      type: 'turn_end',
      success: false,
      error: { name: 'SessionStoreError' },
    });
  });

  it('the next turn tries the store again', async () => {
    let full = true;
    const store = new FailingStore((e) => full && e.type === 'message' && e.message.role === 'assistant');
    const s = setup([{ text: 'lost' }, { text: 'kept' }], { store });
    await rejection(s.prompt('one'));
    full = false;
    await expect(s.prompt('two')).resolves.toEqual({ text: 'kept' });
    expect(s.core.messages.map((m) => m.content)).toEqual(['one', 'two', 'kept']);
    expect(contextFromEntries(store.entries)).toEqual(s.core.messages);
  });

  it('a store that cannot save the user message fails the turn before any attempt', async () => {
    const store = new FailingStore(() => true);
    const s = setup([{ text: 'never' }], { store });
    await rejection(s.prompt('hi'));
    expect(s.run).not.toHaveBeenCalled();
    expect(s.core.messages).toEqual([]);
  });

  it('a store without appendAll: the messages saved before the failure join the context, the rest do not', async () => {
    let appended = 0;
    const store: SessionStore = {
      entries: [],
      append(entry) {
        if (++appended === 3) throw fsError('ENOSPC');
        (this.entries as SessionEntry[]).push(entry);
      },
      close() {},
    };
    const s = setup([], { store });
    const run = async (ctx: TurnAttempt<SessionMessage>) => {
      ctx.commitStep([toolCall, toolResult]);
      return { text: '' };
    };
    await rejection(s.core.runTurn('hi', { role: 'user', content: 'hi' }, run));
    expect(s.core.messages).toEqual([{ role: 'user', content: 'hi' }, toolCall]);
    expect(contextFromEntries(store.entries)).toEqual(s.core.messages);
  });

  it.each(['error', 'auto_retry_start', 'auto_retry_end', 'compaction'])(
    'a store failing on a %s entry fails the turn, ends the chain for listeners, and resets the lifecycle',
    async (type) => {
      const store = new FailingStore((e) => e.type === type);
      const s = setup([apiError('503', 'transient'), apiError('too long', 'overflow'), { text: 'ok' }], {
        store,
        compact: (messages) => messages,
      });
      const error = await rejection(s.prompt('hi'));
      expect(error.entryType).toBe(type);
      expect(s.core.isRetrying).toBe(false);
      expect(s.core.retryAttempt).toBe(0);
      await expect(s.core.waitForRetry()).resolves.toBeUndefined();
      const starts = s.events.filter((e) => e.type === 'auto_retry_start').length;
      const ends = s.events.filter((e) => e.type === 'auto_retry_end').length;
      expect(ends).toBe(starts > 0 ? 1 : 0);
      expect(s.events.at(-1)).toMatchObject({ type: 'turn_end', success: false });
      expect(contextFromEntries(store.entries)).toEqual(s.core.messages);
    },
  );
});
