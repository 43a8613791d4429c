import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SessionEventMap } from '../../../src/session/events.js';
import { RetryLifecycle } from '../../../src/session/retry-lifecycle.js';
import { defaultRetrySettings } from '../../../src/session/settings.js';

type RetryEvent =
  | ({ type: 'auto_retry_start' } & SessionEventMap['auto_retry_start'])
  | ({ type: 'auto_retry_end' } & SessionEventMap['auto_retry_end']);

/** What happens after an attempt: it succeeds, fails transiently (maybe cancelled in its sleep), or fails for good. */
const outcome = fc.constantFrom('success', 'transient', 'transient-cancelled', 'permanent');

describe('RetryLifecycle (model-based)', () => {
  it('keeps chains well-formed for any sequence of outcomes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(outcome, { maxLength: 40 }),
        fc.integer({ min: 0, max: 5 }),
        async (outcomes, maxRetries) => {
          const events: RetryEvent[] = [];
          let cancelNext = false;
          const lifecycle = new RetryLifecycle({
            settings: () => ({ ...defaultRetrySettings, maxRetries }),
            emit: (type, payload) => events.push({ type, ...payload } as RetryEvent),
            sleep: async (_ms, signal) => {
              if (cancelNext) lifecycle.abortRetry();
              if (signal?.aborted) throw signal.reason;
            },
          });
          for (const o of outcomes) {
            const before = lifecycle.attempt;
            if (o === 'success') {
              lifecycle.succeeded();
              expect(lifecycle.attempt).toBe(0);
            } else if (o === 'permanent') {
              lifecycle.fail(new Error('permanent'));
              expect(lifecycle.attempt).toBe(0);
            } else {
              cancelNext = o === 'transient-cancelled';
              const decision = await lifecycle.retry(new Error('transient'));
              if (decision.retry) expect(lifecycle.attempt).toBe(before + 1);
              else expect(lifecycle.attempt).toBe(0);
            }
            expect(lifecycle.attempt).toBeLessThanOrEqual(maxRetries);
            expect(lifecycle.isRetrying).toBe(lifecycle.attempt > 0);
          }
          // Every chain: starts 1, 2, … k, then exactly one end carrying k.
          let open = 0;
          for (const event of events) {
            if (event.type === 'auto_retry_start') {
              expect(event.attempt).toBe(open + 1);
              expect(event.delayMs).toBe(Math.min(60_000, 2000 * 2 ** (event.attempt - 1)));
              open = event.attempt;
            } else {
              expect(open).toBeGreaterThan(0);
              expect(event.attempt).toBe(open);
              open = 0;
            }
          }
          expect(open).toBe(lifecycle.attempt);
        },
      ),
      { numRuns: 300 },
    );
  });
});
