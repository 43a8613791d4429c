import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contextFromEntries, type SessionEntry } from '../../../src/session/entries.js';
import type { SessionEvent } from '../../../src/session/events.js';
import type { SessionMessage } from '../../../src/session/message.js';
import { SessionCore, type TurnAttempt } from '../../../src/session/session-core.js';
import { InMemorySessionStore } from '../../../src/session/store.js';
import { apiError, classify } from './fixtures/core.js';

type Outcome = 'ok' | 'transient' | 'hinted' | 'overflow' | 'permanent' | 'usage-limit';
type Fault = 'none' | 'compact-throws' | 'hook-throws' | 'store-fails' | 'cancel-on-start' | 'abort-on-error';

const turnArb = fc.record({
  outcomes: fc.array(
    fc.record({
      outcome: fc.constantFrom<Outcome>('ok', 'transient', 'hinted', 'overflow', 'permanent', 'usage-limit'),
      stepFirst: fc.boolean(),
    }),
    { maxLength: 6 },
  ),
  fault: fc.constantFrom<Fault>(
    'none',
    'compact-throws',
    'hook-throws',
    'store-fails',
    'cancel-on-start',
    'abort-on-error',
  ),
  failAt: fc.integer({ min: 1, max: 8 }),
});

/** A store that fails (once armed) at its `failAt`-th append from then on. */
class ArmedStore extends InMemorySessionStore {
  countdown = Number.POSITIVE_INFINITY;

  override append(entry: SessionEntry): void {
    if (--this.countdown <= 0) throw Object.assign(new Error('ENOSPC: no space left'), { code: 'ENOSPC' });
    super.append(entry);
  }

  override appendAll(entries: readonly SessionEntry[]): void {
    if (--this.countdown <= 0) throw Object.assign(new Error('ENOSPC: no space left'), { code: 'ENOSPC' });
    super.appendAll(entries);
  }
}

function failure(outcome: Exclude<Outcome, 'ok'>): Error {
  switch (outcome) {
    case 'transient':
      return apiError('503', 'transient');
    case 'hinted':
      return apiError('429', 'transient', 500);
    case 'overflow':
      return apiError('too long', 'overflow');
    case 'permanent':
      return apiError('400', 'permanent');
    case 'usage-limit':
      return Object.assign(apiError('quota', 'permanent'), { reason: 'provider:insufficient_quota' });
  }
}

describe('SessionCore (model-based): whatever fails, a turn leaves the session consistent', () => {
  it('no chain outlives its turn, the next turn has all its retries, and the context equals the store', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(turnArb, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 0, max: 3 }),
        async (turns, maxRetries) => {
          const store = new ArmedStore();
          let fault: Fault = 'none';
          const core: SessionCore<SessionMessage, { text: string }> = new SessionCore({
            store,
            classify: { classify },
            settings: { retry: { maxRetries } },
            clock: { now: () => 0 },
            sleep: async (_ms, signal) => {
              if (signal?.aborted) throw signal.reason;
            },
            compact: (messages) => {
              if (fault === 'compact-throws') throw new Error('compaction failed');
              return messages.slice(-1);
            },
            onUsageLimit: () => {
              if (fault === 'hook-throws') throw new Error('hook failed');
              return true;
            },
            logger: { debug() {}, info() {}, warn() {}, error() {} },
          });
          const events: SessionEvent[] = [];
          core.subscribe((event) => {
            events.push(event);
            if (fault === 'cancel-on-start' && event.type === 'auto_retry_start') core.abortRetry();
            if (fault === 'abort-on-error' && event.type === 'attempt_error') core.abort(new Error('stop'));
          });
          for (const turn of turns) {
            fault = turn.fault;
            store.countdown = fault === 'store-fails' ? turn.failAt : Number.POSITIVE_INFINITY;
            const queue = [...turn.outcomes];
            let attempts = 0;
            const run = async (ctx: TurnAttempt<SessionMessage>) => {
              attempts++;
              const next = queue.shift() ?? { outcome: 'ok' as const, stepFirst: false };
              if (next.stepFirst) ctx.commitStep([{ role: 'assistant', content: `step ${attempts}` }]);
              if (next.outcome !== 'ok') throw failure(next.outcome);
              ctx.commitStep([{ role: 'assistant', content: 'answer' }]);
              return { text: 'answer' };
            };
            const from = events.length;
            await core.runTurn('hi', { role: 'user', content: 'hi' }, run).catch(() => undefined);
            expect(core.isRunning).toBe(false);
            expect(core.isRetrying).toBe(false);
            expect(core.retryAttempt).toBe(0);
            await core.waitForRetry();
            // At most: the first attempt, one compaction, and the retries (each usage-limit switch counts as one).
            expect(attempts).toBeLessThanOrEqual(maxRetries + 2);
            const mine = events.slice(from);
            expect(mine[0]?.type).toBe('turn_start');
            expect(mine.at(-1)?.type).toBe('turn_end');
            let open = 0;
            for (const event of mine) {
              if (event.type === 'auto_retry_start') {
                // Every turn's first retry is retry 1: no count leaks in from an earlier turn.
                expect(event.attempt).toBe(open + 1);
                open = event.attempt;
              } else if (event.type === 'auto_retry_end') {
                expect(event.attempt).toBe(open);
                open = 0;
              }
            }
            expect(open).toBe(0);
            expect(contextFromEntries(store.entries)).toEqual(core.messages);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
