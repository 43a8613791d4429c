import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisBreakerStore } from '../../../adapters/redis/breaker-store.js';
import { CircuitOpenError } from '../../../src/errors/circuit-open-error.js';
import type { CircuitListener } from '../../../src/observe/circuit-changes.js';
import { getToolMetrics, resetToolMetrics } from '../../../src/observe/metrics.js';
import { type CircuitState, onToolEvent } from '../../../src/observe/tool-events.js';
import { type BreakerStore, InMemoryBreakerStore } from '../../../src/policy/breaker-store.js';
import { type BreakerOutcome, CircuitBreaker } from '../../../src/policy/circuit-breaker.js';
import { clientKinds, connect, type TestClient } from '../../redis/clients.js';
import { describeWithRedis } from '../../redis/describe-with-redis.js';
import { isolatedTelemetry, virtualTime } from './fixtures.js';

type Options = { failureThreshold?: number; successThreshold?: number; openMs?: number };

function setupWith(store: BreakerStore, options: Options = {}) {
  const time = virtualTime(1_000);
  const { telemetry, seen } = isolatedTelemetry();
  const breaker = new CircuitBreaker('search', { ...options, clock: time.clock, store });
  const call = async (outcome: BreakerOutcome) => {
    const permit = await breaker.acquire(telemetry);
    return breaker.record(permit, outcome, telemetry);
  };
  const transitions = () => seen.flatMap((e) => (e.type === 'circuit_state' ? [`${e.from}>${e.to}`] : []));
  return { time, breaker, call, telemetry, transitions, store };
}

/**
 * The breaker's whole contract, run on a store: the in-memory one, and Redis (`RedisBreakerStore`, each test under
 * its own key prefix) with each supported client (node-redis, ioredis, @upstash/redis). The semantics must be identical.
 */
function breakerContract(newStore: () => BreakerStore, modelRuns: number) {
  const setup = (options: Options = {}) => setupWith(newStore(), options);
  it('opens on exactly the 5th consecutive transient failure', async () => {
    const { call } = setup();
    for (let i = 1; i <= 4; i++) expect(await call('failure')).toBe('closed');
    expect(await call('failure')).toBe('open');
  });

  it('does not open on fail-success-fail patterns', async () => {
    const { call } = setup();
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 4; i++) await call('failure');
      expect(await call('success')).toBe('closed');
    }
  });

  it('never opens on ignored outcomes (permanent errors, aborts), and they do not reset the count', async () => {
    const { call } = setup();
    for (let i = 0; i < 20; i++) expect(await call('ignored')).toBe('closed');
    for (let i = 0; i < 4; i++) await call('failure');
    await call('ignored');
    expect(await call('failure')).toBe('open');
  });

  it('rejects at once while OPEN with CircuitOpenError and the time left', async () => {
    const { call, breaker, time, telemetry } = setup();
    for (let i = 0; i < 5; i++) await call('failure');
    time.advance(10_000);
    const error = await breaker.acquire(telemetry).catch((e: unknown) => e);
    expect(CircuitOpenError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ toolName: 'search', retryAfterMs: 20_000, reopensAt: 31_000 });
    expect(String(error)).toMatch(
      /temporarily unavailable after repeated failures \(circuit open\); it can be called again in 20 s\./,
    );
  });

  it('HALF_OPEN after openMs admits one trial and rejects the rest at once with a hint', async () => {
    const { call, breaker, time, telemetry, transitions } = setup();
    for (let i = 0; i < 5; i++) await call('failure');
    time.advance(30_000);
    const trial = await breaker.acquire(telemetry);
    expect(trial.trial).toBe(true);
    for (let i = 0; i < 3; i++) {
      const error = await breaker.acquire(telemetry).catch((e: unknown) => e);
      expect(CircuitOpenError.isInstance(error) && error.retryAfterMs > 0).toBe(true);
    }
    expect(transitions()).toEqual(['closed>open', 'open>half_open']);
  });

  it('closes after exactly 2 consecutive successful trials', async () => {
    const { call, time, transitions } = setup();
    for (let i = 0; i < 5; i++) await call('failure');
    time.advance(30_000);
    expect(await call('success')).toBe('half_open');
    expect(await call('success')).toBe('closed');
    expect(transitions()).toEqual(['closed>open', 'open>half_open', 'half_open>closed']);
  });

  it('a failed trial reopens with a fresh openMs', async () => {
    const { call, breaker, time, telemetry } = setup();
    for (let i = 0; i < 5; i++) await call('failure');
    time.advance(30_000);
    expect(await call('failure')).toBe('open');
    time.advance(29_999);
    await expect(breaker.acquire(telemetry)).rejects.toMatchObject({ retryAfterMs: 1 });
    time.advance(1);
    await expect(breaker.acquire(telemetry)).resolves.toEqual({ trial: true });
  });

  it('an ignored outcome during a trial frees the slot without closing or opening', async () => {
    const { call, breaker, time, telemetry } = setup();
    for (let i = 0; i < 5; i++) await call('failure');
    time.advance(30_000);
    expect(await call('ignored')).toBe('half_open');
    await expect(breaker.acquire(telemetry)).resolves.toEqual({ trial: true });
  });

  it('a late result of a call admitted while CLOSED does not count in HALF_OPEN', async () => {
    const { breaker, call, time, telemetry } = setup({ failureThreshold: 1 });
    const late = await breaker.acquire(telemetry);
    await call('failure');
    time.advance(30_000);
    await breaker.acquire(telemetry);
    expect(await breaker.record(late, 'success', telemetry)).toBe('half_open');
  });

  it('a hung trial holds the slot for at most openMs', async () => {
    const { call, breaker, time, telemetry } = setup();
    for (let i = 0; i < 5; i++) await call('failure');
    time.advance(30_000);
    await breaker.acquire(telemetry);
    time.advance(29_999);
    await expect(breaker.acquire(telemetry)).rejects.toMatchObject({ retryAfterMs: 1 });
    time.advance(1);
    await expect(breaker.acquire(telemetry)).resolves.toEqual({ trial: true });
  });

  it('uses configured thresholds', async () => {
    const { call, time } = setup({ failureThreshold: 2, successThreshold: 1, openMs: 5 });
    await call('failure');
    expect(await call('failure')).toBe('open');
    time.advance(5);
    expect(await call('success')).toBe('closed');
  });

  it('model-based: matches a reference state machine for any sequence of calls, hung calls and waits', async () => {
    type Op = { kind: 'call'; outcome: BreakerOutcome } | { kind: 'wait'; ms: number } | { kind: 'hang' };
    const op: fc.Arbitrary<Op> = fc.oneof(
      {
        arbitrary: fc.record({
          kind: fc.constant('call' as const),
          outcome: fc.constantFrom<BreakerOutcome>('success', 'failure', 'ignored'),
        }),
        weight: 6,
      },
      {
        arbitrary: fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 40 }) }),
        weight: 3,
      },
      { arbitrary: fc.record({ kind: fc.constant('hang' as const) }), weight: 2 },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 20, maxLength: 80 }), async (ops) => {
        const { breaker, time, telemetry } = setup({ failureThreshold: 3, successThreshold: 2, openMs: 30 });
        const model = { state: 'closed' as CircuitState, failures: 0, successes: 0, openUntil: 0 };
        let trialStart: number | null = null;
        const open = (now: number) => {
          Object.assign(model, { state: 'open', failures: 0, successes: 0, openUntil: now + 30 });
          trialStart = null;
        };
        for (const o of ops) {
          const now = time.clock.now();
          if (o.kind === 'wait') {
            time.advance(o.ms);
            continue;
          }
          let trial = false;
          let admitted = model.state === 'closed';
          if (model.state === 'open' ? now >= model.openUntil : model.state === 'half_open') {
            // A hung trial holds the slot for at most openMs.
            if (model.state === 'open' || trialStart === null || now - trialStart >= 30) {
              model.state = 'half_open';
              trialStart = now;
              admitted = trial = true;
            }
          }
          const permit = await breaker.acquire(telemetry).catch((e: unknown) => {
            expect(CircuitOpenError.isInstance(e)).toBe(true);
            return undefined;
          });
          expect(permit).toEqual(admitted ? { trial } : undefined);
          if (!permit || o.kind === 'hang') continue;
          if (model.state === 'closed') {
            if (o.outcome === 'success') model.failures = 0;
            if (o.outcome === 'failure' && ++model.failures >= 3) open(now);
          } else if (o.outcome === 'failure') open(now);
          else {
            trialStart = null;
            if (o.outcome === 'success' && ++model.successes >= 2)
              Object.assign(model, { state: 'closed', successes: 0 });
          }
          expect(await breaker.record(permit, o.outcome, telemetry)).toBe(model.state);
        }
      }),
      { numRuns: modelRuns },
    );
    // Over HTTP (@upstash/redis) every command is a request: 150 runs take about 6 s on an idle machine, more on a busy one.
  }, 120_000);
}

describe('CircuitBreaker (in-memory store)', () => breakerContract(() => new InMemoryBreakerStore(), 500));

describe('CircuitBreaker: who hears its transitions', () => {
  const openAndTry = async (
    breaker: CircuitBreaker,
    time: ReturnType<typeof virtualTime>,
    listener?: CircuitListener,
  ) => {
    await breaker.record(await breaker.acquire(listener), 'failure', listener);
    time.advance(30_000);
    await breaker.record(await breaker.admit(listener), 'success', listener);
  };

  it('without a listener: the process-wide `circuit_state` events and `circuit_breaker_opens`, as a tool reports them', async () => {
    resetToolMetrics();
    const seen: string[] = [];
    const unsubscribe = onToolEvent((e) => {
      if (e.type === 'circuit_state') seen.push(`${e.toolName}:${e.from}>${e.to}`);
    });
    try {
      const time = virtualTime(1_000);
      const breaker = new CircuitBreaker('standalone', {
        failureThreshold: 1,
        successThreshold: 1,
        clock: time.clock,
      });
      await openAndTry(breaker, time);
      expect(seen).toEqual([
        'standalone:closed>open',
        'standalone:open>half_open',
        'standalone:half_open>closed',
      ]);
      expect(getToolMetrics().standalone?.circuit_breaker_opens).toBe(1);
    } finally {
      unsubscribe();
      resetToolMetrics();
    }
  });

  it('with a listener (any object with `circuitChanged`): only the listener, nothing process-wide', async () => {
    resetToolMetrics();
    const processWide: unknown[] = [];
    const unsubscribe = onToolEvent((e) => processWide.push(e));
    try {
      const heard: string[] = [];
      const listener: CircuitListener = {
        circuitChanged: ({ from, to }) => void heard.push(`${from}>${to}`),
      };
      const time = virtualTime(1_000);
      const breaker = new CircuitBreaker('own', {
        failureThreshold: 1,
        successThreshold: 1,
        clock: time.clock,
      });
      await openAndTry(breaker, time, listener);
      expect(heard).toEqual(['closed>open', 'open>half_open', 'half_open>closed']);
      expect(processWide).toEqual([]);
      expect(getToolMetrics()).toEqual({});
    } finally {
      unsubscribe();
    }
  });
});

for (const kind of clientKinds) {
  describeWithRedis(`CircuitBreaker (RedisBreakerStore, ${kind})`, (server) => {
    let client: TestClient | undefined;
    let n = 0;
    beforeAll(async () => {
      client = await connect(kind, server().url);
    });
    afterAll(async () => {
      await client?.quit();
    });
    const warnings: string[] = [];
    const logger = { ...console, warn: (message: string) => void warnings.push(message) };
    breakerContract(
      () => new RedisBreakerStore(client!.client, { prefix: `test:${kind}:${n++}:`, logger }),
      150,
    );

    it('keeps the state in Redis (never fell back to local state)', async () => {
      const store = new RedisBreakerStore(client!.client, { prefix: `test:${kind}:${n++}:`, logger });
      const { call } = setupWith(store, { failureThreshold: 1 });
      await call('failure');
      expect(await store.get('search')).toMatchObject({ state: 'open', openUntil: 31_000 });
      expect(warnings).toEqual([]);
    });
  });
}
