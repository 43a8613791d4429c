import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Classification } from '../../../src/classify/types.js';
import { decideRetry, type RetryDecisionInput } from '../../../src/policy/retry-decision.js';

const transient = (retryAfterMs?: number): Classification => ({
  kind: 'transient',
  reason: 'status:503',
  ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
});

const config = {
  maxRetries: 3,
  initialDelayMs: 100,
  multiplier: 2,
  maxDelayMs: 30_000,
  jitter: 0,
  maxRetryAfterMs: 60_000,
};

/** The input with `over` laid over it; a config field in `over` changes the config. */
const input = (
  over: Partial<Omit<RetryDecisionInput, 'config'>> & Partial<typeof config> = {},
): RetryDecisionInput => {
  const {
    retriesDone = 0,
    classification = transient(),
    random = () => 0.5,
    remainingMs,
    ...configOver
  } = over;
  return {
    retriesDone,
    classification,
    random,
    config: { ...config, ...configOver },
    ...(remainingMs === undefined ? {} : { remainingMs }),
  };
};

describe('decideRetry: the one retry rule', () => {
  it('retries only transient failures', () => {
    for (const kind of ['permanent', 'overflow', 'abort'] as const) {
      expect(decideRetry(input({ classification: { kind, reason: 'x' } }))).toEqual({
        retry: false,
        reason: 'permanent',
      });
    }
  });

  it('backs off initialDelayMs × multiplier^(n−1) without a hint, and stops after maxRetries', () => {
    const delays = [0, 1, 2].map((retriesDone) => decideRetry(input({ retriesDone })));
    expect(delays).toEqual([100, 200, 400].map((delayMs) => ({ retry: true, delayMs, source: 'backoff' })));
    expect(decideRetry(input({ retriesDone: 3 }))).toEqual({ retry: false, reason: 'exhausted' });
    expect(decideRetry(input({ maxRetries: 0 }))).toEqual({ retry: false, reason: 'exhausted' });
  });

  it("uses the server's retry-after exactly, shorter or longer than the backoff", () => {
    expect(decideRetry(input({ classification: transient(7) }))).toEqual({
      retry: true,
      delayMs: 7,
      source: 'retry-after',
    });
    expect(decideRetry(input({ classification: transient(5_000) }))).toMatchObject({ delayMs: 5_000 });
  });

  it('stops at once, keeping the hint, when the server asks for more than maxRetryAfterMs', () => {
    expect(decideRetry(input({ classification: transient(60_001) }))).toEqual({
      retry: false,
      reason: 'retry_after',
      retryAfterMs: 60_001,
    });
    expect(decideRetry(input({ classification: transient(60_000) }))).toMatchObject({ retry: true });
  });

  it('stops when the delay does not fit the remaining budget', () => {
    expect(decideRetry(input({ remainingMs: 100 }))).toEqual({ retry: false, reason: 'budget' });
    expect(decideRetry(input({ remainingMs: 101 }))).toMatchObject({ retry: true, delayMs: 100 });
    expect(decideRetry(input({ classification: transient(500), remainingMs: 400 }))).toEqual({
      retry: false,
      reason: 'retry_after',
      retryAfterMs: 500,
    });
  });

  it('a negative hint (a date in the past) means retry now', () => {
    expect(decideRetry(input({ classification: transient(-50) }))).toMatchObject({ retry: true, delayMs: 0 });
  });

  it('property: never more than maxRetries retries; every delay is within [0, max(maxDelayMs, maxRetryAfterMs)]', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 50 }),
        fc.integer({ min: 0, max: 60 }),
        fc.option(fc.integer({ min: -1_000, max: 200_000 }), { nil: undefined }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (maxRetries, retriesDone, hint, jitter, r) => {
          const decision = decideRetry(
            input({
              maxRetries,
              retriesDone,
              classification: transient(hint),
              jitter,
              random: () => r,
            }),
          );
          if (retriesDone >= maxRetries) return !decision.retry && decision.reason === 'exhausted';
          if (!decision.retry)
            return hint !== undefined && hint > 60_000 && decision.reason === 'retry_after';
          return decision.delayMs >= 0 && decision.delayMs <= 60_000;
        },
      ),
    );
  });
});
