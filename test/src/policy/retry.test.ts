import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CircuitOpenError } from '../../../src/errors/circuit-open-error.js';
import { ToolTimeoutError } from '../../../src/errors/tool-timeout-error.js';
import { TurnTrace } from '../../../src/observe/trace.js';
import { CircuitBreaker } from '../../../src/policy/circuit-breaker.js';
import { retry, retryWithOutcome } from '../../../src/policy/retry.js';
import { badRequest, isolatedTelemetry, unavailable, virtualTime } from './fixtures.js';

const mid = () => 0.5;

describe('retry: delays and attempts', () => {
  it('retries transient errors with 100, 200, 400, 800 ms at the jitter midpoint, then gives up after 5 attempts', async () => {
    const { telemetry, delays } = isolatedTelemetry();
    const time = virtualTime();
    const errors = [1, 2, 3, 4, 5].map((n) => unavailable(`down ${n}`));
    const fn = vi.fn(({ attempt }: { attempt: number }) => Promise.reject(errors[attempt - 1]));
    await expect(retry(fn, { ...time, random: mid, telemetry })).rejects.toBe(errors[4]);
    expect(fn).toHaveBeenCalledTimes(5);
    expect(delays()).toEqual([100, 200, 400, 800]);
  });

  it.each([
    [0, [90, 180, 360, 720]],
    [1 - 2 ** -53, [110, 220, 440, 880]],
  ])('random() = %d gives the jitter extreme %j', async (r, expected) => {
    const { telemetry, delays } = isolatedTelemetry();
    await retry(() => Promise.reject(unavailable()), { ...virtualTime(), random: () => r, telemetry }).catch(
      () => {},
    );
    for (const [i, d] of delays().entries()) expect(d).toBeCloseTo(expected[i]!, 6);
  });

  it('returns the value once an attempt succeeds, passing the attempt number and a signal', async () => {
    const seen: number[] = [];
    const value = await retry(
      ({ attempt, signal }) => {
        seen.push(attempt);
        expect(signal).toBeInstanceOf(AbortSignal);
        return attempt < 3 ? Promise.reject(unavailable()) : Promise.resolve('ok');
      },
      { ...virtualTime(), random: mid, telemetry: isolatedTelemetry().telemetry },
    );
    expect(value).toBe('ok');
    expect(seen).toEqual([1, 2, 3]);
  });

  it('never retries a permanent error', async () => {
    const fn = vi.fn(() => Promise.reject(badRequest()));
    const outcome = await retryWithOutcome(fn, {
      ...virtualTime(),
      telemetry: isolatedTelemetry().telemetry,
    });
    expect(fn).toHaveBeenCalledTimes(1);
    expect(outcome).toMatchObject({ ok: false, decision: 'permanent', attempts: 1 });
  });

  it('uses an injected classifier', async () => {
    const fn = vi.fn(() => Promise.reject(badRequest()));
    await retry(fn, {
      ...virtualTime(),
      classify: () => ({ kind: 'transient', reason: 'test' }),
      maxRetries: 2,
      telemetry: isolatedTelemetry().telemetry,
    }).catch(() => {});
    expect(fn).toHaveBeenCalledTimes(3);
  });
});

describe('retry: total budget', () => {
  it('starts no attempt after maxTotalTimeMs', async () => {
    const time = virtualTime();
    const starts: number[] = [];
    const outcome = await retryWithOutcome(
      () => {
        starts.push(time.clock.now());
        time.advance(300);
        return Promise.reject(unavailable());
      },
      { ...time, random: mid, telemetry: isolatedTelemetry().telemetry },
    );
    // 0 ▸ 300 + 100 ▸ 700 + 200 ▸ 1200 + 400 ▸ 1900 + 800 = 2700 > 2000: stop.
    expect(starts).toEqual([0, 400, 900, 1600]);
    expect(outcome).toMatchObject({ ok: false, decision: 'budget', attempts: 4 });
  });

  it('honours a retry-after hint that fits the budget', async () => {
    const { telemetry, delays } = isolatedTelemetry();
    await retry(() => Promise.reject(unavailable()), {
      ...virtualTime(),
      random: mid,
      maxRetries: 1,
      classify: () => ({ kind: 'transient', reason: 'status:429', retryAfterMs: 700 }),
      telemetry,
    }).catch(() => {});
    expect(delays()).toEqual([700]);
  });

  it('uses a retry-after hint shorter than the backoff exactly (one rule with the stream guard and the session)', async () => {
    const { telemetry, delays } = isolatedTelemetry();
    await retry(() => Promise.reject(unavailable()), {
      ...virtualTime(),
      random: mid,
      maxRetries: 1,
      classify: () => ({ kind: 'transient', reason: 'status:429', retryAfterMs: 10 }),
      telemetry,
    }).catch(() => {});
    expect(delays()).toEqual([10]);
  });

  it('stops at once when the hint exceeds maxRetryAfterMs, even with budget left', async () => {
    const fn = vi.fn(() => Promise.reject(unavailable()));
    const outcome = await retryWithOutcome(fn, {
      ...virtualTime(),
      maxTotalTimeMs: Number.POSITIVE_INFINITY,
      maxRetryAfterMs: 1_000,
      classify: () => ({ kind: 'transient', reason: 'status:429', retryAfterMs: 1_001 }),
    });
    expect(fn).toHaveBeenCalledTimes(1);
    expect(outcome).toMatchObject({ ok: false, decision: 'retry_after', retryAfterMs: 1_001 });
  });

  it('stops and keeps the hint when the retry-after is longer than what remains', async () => {
    const fn = vi.fn(() => Promise.reject(unavailable()));
    const outcome = await retryWithOutcome(fn, {
      ...virtualTime(),
      classify: () => ({ kind: 'transient', reason: 'status:429', retryAfterMs: 5_000 }),
      telemetry: isolatedTelemetry().telemetry,
    });
    expect(fn).toHaveBeenCalledTimes(1);
    expect(outcome).toMatchObject({ ok: false, decision: 'retry_after', retryAfterMs: 5_000 });
  });

  it('property: every delay is within ±jitter of its base and under the cap; no attempt starts past the budget', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          initialDelayMs: fc.integer({ min: 0, max: 1_000 }),
          multiplier: fc.double({ min: 1, max: 4, noNaN: true }),
          maxDelayMs: fc.integer({ min: 0, max: 3_000 }),
          jitter: fc.double({ min: 0, max: 0.99, noNaN: true }),
          maxTotalTimeMs: fc.integer({ min: 0, max: 10_000 }),
          maxRetries: fc.integer({ min: 0, max: 7 }),
        }),
        fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), {
          minLength: 8,
          maxLength: 8,
        }),
        fc.array(fc.integer({ min: 0, max: 2_000 }), { minLength: 8, maxLength: 8 }),
        async (policy, randoms, durations) => {
          const time = virtualTime();
          const { telemetry, seen } = isolatedTelemetry();
          const starts: number[] = [];
          let r = 0;
          await retryWithOutcome(
            ({ attempt }) => {
              starts.push(time.clock.now());
              time.advance(durations[attempt - 1]!);
              return Promise.reject(unavailable());
            },
            { ...policy, ...time, random: () => randoms[r++]!, telemetry },
          );
          expect(starts.length).toBeLessThanOrEqual(policy.maxRetries + 1);
          for (const start of starts.slice(1)) expect(start).toBeLessThan(policy.maxTotalTimeMs);
          for (const event of seen) {
            if (event.type !== 'tool_retry') continue;
            const base = policy.initialDelayMs * policy.multiplier ** (event.attempt - 1);
            expect(event.delayMs).toBeLessThanOrEqual(policy.maxDelayMs);
            expect(event.delayMs).toBeLessThanOrEqual(base * (1 + policy.jitter) + 1e-9);
            expect(event.delayMs).toBeGreaterThanOrEqual(
              Math.min(policy.maxDelayMs, base * (1 - policy.jitter)) - 1e-9,
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('property: at the default ±10% jitter every delay is within 10% of 100 × 2^(n−1)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), {
          minLength: 4,
          maxLength: 4,
        }),
        async (randoms) => {
          const { telemetry, delays } = isolatedTelemetry();
          let r = 0;
          await retryWithOutcome(() => Promise.reject(unavailable()), {
            ...virtualTime(),
            maxTotalTimeMs: Number.POSITIVE_INFINITY,
            random: () => randoms[r++]!,
            telemetry,
          });
          delays().forEach((d, i) => {
            const base = 100 * 2 ** i;
            expect(Math.abs(d - base)).toBeLessThanOrEqual(base * 0.1 + 1e-9);
          });
          expect(delays()).toHaveLength(4);
        },
      ),
    );
  });
});

describe('retry: aborts and timeouts (fake timers)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('an abort during the backoff sleep rejects at once with the reason, and no further attempt starts', async () => {
    const controller = new AbortController();
    const fn = vi.fn(() => Promise.reject(unavailable()));
    const promise = retry(fn, {
      signal: controller.signal,
      random: mid,
      telemetry: isolatedTelemetry().telemetry,
    });
    const settled = vi.fn();
    promise.catch(settled);
    await vi.advanceTimersByTimeAsync(50);
    expect(fn).toHaveBeenCalledTimes(1);
    const reason = new Error('user stopped');
    controller.abort(reason);
    await expect(promise).rejects.toBe(reason);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('cuts off an attempt that ignores its signal at timeoutMs, then retries it', async () => {
    const signals: AbortSignal[] = [];
    const fn = vi.fn(({ signal }: { signal: AbortSignal }) => {
      signals.push(signal);
      return fn.mock.calls.length === 1 ? new Promise<string>(() => {}) : Promise.resolve('second');
    });
    const promise = retry(fn, { timeoutMs: 500, random: mid, telemetry: isolatedTelemetry().telemetry });
    await vi.advanceTimersByTimeAsync(500);
    expect(signals[0]!.aborted).toBe(true);
    expect(ToolTimeoutError.isInstance(signals[0]!.reason)).toBe(true);
    await vi.advanceTimersByTimeAsync(100);
    await expect(promise).resolves.toBe('second');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('caps each attempt timeout at what remains of the budget', async () => {
    const { telemetry, seen } = isolatedTelemetry();
    const promise = retryWithOutcome(() => new Promise(() => {}), {
      timeoutMs: 1_000,
      maxTotalTimeMs: 1_500,
      random: mid,
      telemetry,
    });
    await vi.advanceTimersByTimeAsync(1_500);
    const outcome = await promise;
    const timeouts = seen.flatMap((e) => (e.type === 'tool_timeout' ? [e.timeoutMs] : []));
    // Attempt 1 at 0 ms (1000), backoff 100, attempt 2 at 1100 ms with 400 ms left.
    expect(timeouts).toEqual([1_000, 400]);
    expect(outcome).toMatchObject({ ok: false, decision: 'budget', attempts: 2 });
    expect(ToolTimeoutError.isInstance(outcome.ok ? undefined : outcome.error)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("a caller's abort during an attempt is not a timeout and is not retried", async () => {
    const controller = new AbortController();
    const fn = vi.fn(() => new Promise(() => {}));
    const { telemetry, seen } = isolatedTelemetry();
    const promise = retryWithOutcome(fn, { signal: controller.signal, timeoutMs: 1_000, telemetry });
    await vi.advanceTimersByTimeAsync(10);
    controller.abort('stop');
    const outcome = await promise;
    expect(outcome).toMatchObject({ ok: false, decision: 'abort', error: 'stop' });
    expect(fn).toHaveBeenCalledTimes(1);
    expect(seen.some((e) => e.type === 'tool_timeout')).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('leaves no timer behind after a success with a timeout', async () => {
    await retry(() => Promise.resolve(1), { timeoutMs: 1_000, telemetry: isolatedTelemetry().telemetry });
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('retry: safe re-execution (idempotent, keepOwnError)', () => {
  const coded = (code: string) => Object.assign(new Error(`connect ${code}`), { code });
  const setup = () => {
    const time = virtualTime();
    const sinks = isolatedTelemetry(new TurnTrace());
    return { time, sinks, policy: { ...time, random: mid, telemetry: sinks.telemetry } };
  };

  it('generic use is unchanged: without `idempotent`, a plain Error is retried to the end', async () => {
    const { policy } = setup();
    const errors = [1, 2, 3, 4, 5].map((n) => new Error(`odd ${n}`));
    const fn = vi.fn(({ attempt }: { attempt: number }) => Promise.reject(errors[attempt - 1]));
    await expect(retry(fn, policy)).rejects.toBe(errors[4]);
    expect(fn).toHaveBeenCalledTimes(5);
  });

  it('idempotent: false stops after one attempt of a plain Error with `not_idempotent`, reported', async () => {
    const { policy, sinks } = setup();
    const error = new Error('mail server said goodbye after DATA');
    const fn = vi.fn(() => Promise.reject(error));
    const outcome = await retryWithOutcome(fn, { ...policy, idempotent: false, name: 'send_email' });
    expect(fn).toHaveBeenCalledTimes(1);
    expect(outcome).toEqual({
      ok: false,
      error,
      classification: expect.objectContaining({ kind: 'transient', reason: 'unknown' }),
      decision: 'not_idempotent',
      attempts: 1,
    });
    expect(sinks.seen.map((e) => e.type)).toEqual(['tool_failed']);
    expect(sinks.seen[0]).toMatchObject({ toolName: 'send_email', decision: 'not_idempotent', error });
    expect(sinks.telemetry.trace?.entries.at(-1)).toMatchObject({
      event_type: 'tool_failed',
      decision: 'give_up:not_idempotent',
      retry_count: 0,
    });
    expect(sinks.metrics.snapshot().send_email).toMatchObject({ error_count: 1, retry_count: 0 });
  });

  it.each([
    ['a refused connection', () => coded('ECONNREFUSED')],
    ['an unresolved host', () => coded('ENOTFOUND')],
    ['a 503', () => unavailable()],
    ['a 429', () => Object.assign(new Error('slow down'), { status: 429 })],
  ])('idempotent: false still retries %s (proof the call never took effect)', async (_name, make) => {
    const { policy } = setup();
    const fn = vi.fn(() => Promise.reject(make()));
    const outcome = await retryWithOutcome(fn, { ...policy, idempotent: false });
    expect(fn).toHaveBeenCalledTimes(5);
    expect(outcome).toMatchObject({ decision: 'exhausted', attempts: 5 });
  });

  it('idempotent: false retries a refused connection, then stops at a reset', async () => {
    const { policy } = setup();
    const reset = coded('ECONNRESET');
    const fn = vi.fn(({ attempt }: { attempt: number }) =>
      Promise.reject(attempt === 1 ? coded('ECONNREFUSED') : reset),
    );
    const outcome = await retryWithOutcome(fn, { ...policy, idempotent: false });
    expect(fn).toHaveBeenCalledTimes(2);
    expect(outcome).toMatchObject({ error: reset, decision: 'not_idempotent', attempts: 2 });
  });

  it('`not_idempotent` only when a retry was due: permanent, exhausted and retry_after keep their decisions', async () => {
    const { policy } = setup();
    expect(
      await retryWithOutcome(() => Promise.reject(badRequest()), { ...policy, idempotent: false }),
    ).toMatchObject({ decision: 'permanent', attempts: 1 });
    expect(
      await retryWithOutcome(() => Promise.reject(new Error('x')), {
        ...policy,
        idempotent: false,
        maxRetries: 0,
      }),
    ).toMatchObject({ decision: 'exhausted', attempts: 1 });
    const later = Object.assign(new Error('busy'), { headers: { 'retry-after': '90' } });
    expect(
      await retryWithOutcome(() => Promise.reject(later), { ...policy, idempotent: false }),
    ).toMatchObject({ decision: 'retry_after', retryAfterMs: 90_000, attempts: 1 });
  });

  it('keepOwnError: a failure that opens the breaker is returned itself (decision circuit_open)', async () => {
    const { policy, time } = setup();
    const breaker = new CircuitBreaker('mailer', { failureThreshold: 1, clock: time.clock });
    const error = new Error('smtp down');
    const fn = vi.fn(() => Promise.reject(error));
    const own = await retryWithOutcome(fn, { ...policy, breaker, keepOwnError: true });
    expect(fn).toHaveBeenCalledTimes(1);
    expect(own).toMatchObject({ ok: false, error, decision: 'circuit_open', retryAfterMs: 30_000 });
    // Without it, the same stop reports a CircuitOpenError caused by that failure.
    const other = new CircuitBreaker('mailer2', { failureThreshold: 1, clock: time.clock });
    const replaced = await retryWithOutcome(() => Promise.reject(error), { ...policy, breaker: other });
    expect(replaced.ok || CircuitOpenError.isInstance(replaced.error)).toBe(true);
    expect(replaced.ok ? undefined : (replaced.error as Error).cause).toBe(error);
  });

  it('keepOwnError: a breaker opened by another call during the backoff does not replace the own error', async () => {
    const time = virtualTime();
    const breaker = new CircuitBreaker('mailer', { failureThreshold: 2, clock: time.clock });
    const error = new Error('smtp down');
    const fn = vi.fn(() => Promise.reject(error));
    // While this call waits to retry, another call fails and opens the circuit.
    const sleep = async (ms: number) => {
      time.advance(ms);
      await breaker.record(await breaker.acquire(), 'failure');
    };
    const { telemetry } = isolatedTelemetry();
    const outcome = await retryWithOutcome(fn, {
      ...time,
      sleep,
      random: mid,
      telemetry,
      breaker,
      keepOwnError: true,
    });
    expect(fn).toHaveBeenCalledTimes(1);
    expect(outcome).toMatchObject({ ok: false, error, decision: 'circuit_open', attempts: 1 });
  });

  it('checks both switches', async () => {
    await expect(retryWithOutcome(() => 1, { idempotent: 'yes' as never })).rejects.toThrow(
      /'idempotent' must be true or false/,
    );
    await expect(retryWithOutcome(() => 1, { keepOwnError: 1 as never })).rejects.toThrow(
      /'keepOwnError' must be true or false/,
    );
  });
});
