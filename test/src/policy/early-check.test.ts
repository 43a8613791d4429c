import { describe, expect, it, vi } from 'vitest';
import type { BreakerStore } from '../../../src/policy/breaker-store.js';
import { CircuitBreaker } from '../../../src/policy/circuit-breaker.js';
import { retryWithOutcome } from '../../../src/policy/retry.js';
import { SharedCooldowns } from '../../../src/policy/shared-cooldowns.js';
import { asyncBreakerStore, isolatedTelemetry, virtualTime } from './fixtures.js';

/** Shared cool-downs answered asynchronously, logging each read as `cooldown`; one runs until `until`. */
class LoggedCooldowns extends SharedCooldowns {
  constructor(
    readonly log: string[],
    readonly clock: { now(): number },
    public until = 0,
    override readonly breakerStore?: BreakerStore,
  ) {
    super();
  }
  protected override async sharedRemainingMs(): Promise<number> {
    this.log.push('cooldown');
    return Math.max(0, this.until - this.clock.now());
  }
}

function setup(remainingMs = 0) {
  const time = virtualTime(1_000);
  const breakerStore = asyncBreakerStore();
  // The breaker is shared through the coordination, so an opened breaker starts no cool-down of its own.
  const coordination = new LoggedCooldowns(
    breakerStore.log,
    time.clock,
    time.clock.now() + remainingMs,
    breakerStore.store,
  );
  const breaker = new CircuitBreaker('search', {
    store: breakerStore.store,
    clock: time.clock,
    failureThreshold: 1,
    successThreshold: 1,
    openMs: 30_000,
  });
  const sleep = vi.fn(time.sleep);
  const { telemetry } = isolatedTelemetry();
  const run = (fn: () => unknown) =>
    retryWithOutcome(fn, { breaker, coordination, clock: time.clock, sleep, telemetry, maxRetries: 0 });
  return { time, breakerStore, breaker, coordination, sleep, run, telemetry };
}

describe('the checks before an attempt, with an asynchronous breaker store', () => {
  it('reads the cool-down while the admission is under way (one round trip, not two)', async () => {
    const { breakerStore, run } = setup();
    breakerStore.hold();
    const fn = vi.fn(() => 'ok');
    const outcome = run(fn);
    await Promise.resolve();
    expect(breakerStore.log).toEqual(['breaker', 'cooldown']);
    expect(fn).not.toHaveBeenCalled();
    breakerStore.release();
    await expect(outcome).resolves.toMatchObject({ ok: true, value: 'ok' });
  });

  it('waits out a running cool-down only once the breaker admitted the call', async () => {
    const { breakerStore, run, sleep } = setup(2_000);
    breakerStore.hold();
    const outcome = run(() => 'ok');
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(sleep).not.toHaveBeenCalled();
    breakerStore.release();
    await expect(outcome).resolves.toMatchObject({ ok: true });
    expect(sleep).toHaveBeenCalledWith(2_000, undefined);
  });

  it('does not wait out a cool-down at all when the breaker rejects: the call fails fast as circuit_open', async () => {
    const { run, sleep, coordination, time } = setup();
    await run(() => Promise.reject(Object.assign(new Error('down'), { status: 503 })));
    coordination.until = time.clock.now() + 2_000;
    const fn = vi.fn();
    await expect(run(fn)).resolves.toMatchObject({ ok: false, decision: 'circuit_open' });
    expect(fn).not.toHaveBeenCalled();
    await new Promise((resolve) => setImmediate(resolve));
    expect(sleep).not.toHaveBeenCalled();
  });

  it('gives the trial slot back when the cool-down is longer than the call may wait', async () => {
    const { run, time, breakerStore } = setup();
    await run(() => Promise.reject(Object.assign(new Error('down'), { status: 503 })));
    time.advance(30_000);
    const coordination = new LoggedCooldowns([], time.clock, time.clock.now() + 600_000);
    const { telemetry } = isolatedTelemetry();
    const breaker = new CircuitBreaker('search', {
      store: breakerStore.store,
      clock: time.clock,
      openMs: 30_000,
    });
    const outcome = await retryWithOutcome(() => 'ok', {
      breaker,
      coordination,
      clock: time.clock,
      telemetry,
    });
    expect(outcome).toMatchObject({ ok: false, decision: 'retry_after' });
    expect(breakerStore.inner.get('search')).toMatchObject({ state: 'half_open', trialStartedAt: null });
  });
});
