import { describe, expect, it } from 'vitest';
import type { BreakerStore } from '../../../src/policy/breaker-store.js';
import { CircuitBreaker } from '../../../src/policy/circuit-breaker.js';
import { retryWithOutcome } from '../../../src/policy/retry.js';
import { asyncBreakerStore, isolatedTelemetry, unavailable, virtualTime } from './fixtures.js';

const afterCaller = () => new Promise((resolve) => setImmediate(resolve));

function setup(store?: BreakerStore) {
  const time = virtualTime(1_000);
  const shared = asyncBreakerStore();
  const breaker = new CircuitBreaker('search', {
    store: store ?? shared.store,
    clock: time.clock,
    failureThreshold: 3,
    successThreshold: 1,
    openMs: 30_000,
  });
  const isolated = isolatedTelemetry();
  const run = (fn: () => unknown) =>
    retryWithOutcome(fn, {
      breaker,
      clock: time.clock,
      sleep: time.sleep,
      telemetry: isolated.telemetry,
      maxRetries: 0,
    });
  return { time, shared, breaker, run, ...isolated };
}

describe('recording a success in the breaker', () => {
  it('with an asynchronous store, a call admitted while CLOSED returns first and is recorded right after', async () => {
    const { run, shared } = setup();
    await run(() => Promise.reject(unavailable()));
    await run(() => Promise.reject(unavailable()));
    expect(shared.inner.get('search')).toMatchObject({ state: 'closed', failures: 2 });
    await expect(run(() => 'ok')).resolves.toMatchObject({ ok: true, value: 'ok' });
    expect(shared.inner.get('search')).toMatchObject({ failures: 2 });
    await afterCaller();
    expect(shared.inner.get('search')).toMatchObject({ state: 'closed', failures: 0 });
    // The reset counted: two more failures do not open the circuit.
    await run(() => Promise.reject(unavailable()));
    await run(() => Promise.reject(unavailable()));
    expect(shared.inner.get('search')).toMatchObject({ state: 'closed', failures: 2 });
  });

  it("awaits a trial's success, which closes the circuit before the call returns", async () => {
    const { run, shared, time, seen } = setup();
    for (let i = 0; i < 3; i++) await run(() => Promise.reject(unavailable()));
    time.advance(30_000);
    await expect(run(() => 'ok')).resolves.toMatchObject({ ok: true });
    expect(shared.inner.get('search')).toMatchObject({ state: 'closed' });
    expect(seen.filter((e) => e.type === 'circuit_state').map((e) => `${e.from}>${e.to}`)).toEqual([
      'closed>open',
      'open>half_open',
      'half_open>closed',
    ]);
  });

  it('with a synchronous store, the success is recorded before the call returns', async () => {
    const { run, breaker } = setup(asyncBreakerStore().inner);
    await run(() => Promise.reject(unavailable()));
    await run(() => 'ok');
    await run(() => Promise.reject(unavailable()));
    await run(() => Promise.reject(unavailable()));
    expect(await breaker.state()).toBe('closed');
  });

  it('logs a record that fails after the call returned', async () => {
    let updates = 0;
    const failing: BreakerStore = {
      async update(_key, change) {
        if (++updates > 1) throw new Error('store down');
        return change(undefined).result;
      },
    };
    const { run, logger } = setup(failing);
    await expect(run(() => 'ok')).resolves.toMatchObject({ ok: true });
    await afterCaller();
    await Promise.resolve();
    expect(logger.warn).toHaveBeenCalledWith(
      expect.stringMatching(/could not record a success of tool 'search'.*failure count was not reset/),
      expect.objectContaining({ error: expect.objectContaining({ message: 'store down' }) }),
    );
  });
});
