import { describe, expect, it, vi } from 'vitest';
import { CircuitOpenError } from '../../../src/errors/circuit-open-error.js';
import { TurnTrace } from '../../../src/observe/trace.js';
import { type BreakerStore, InMemoryBreakerStore } from '../../../src/policy/breaker-store.js';
import { createToolPolicy } from '../../../src/policy/tool-policy.js';
import { badRequest, isolatedTelemetry, unavailable, virtualTime } from './fixtures.js';

function policy(options: Parameters<typeof createToolPolicy>[1] = {}) {
  const time = virtualTime();
  const sinks = isolatedTelemetry();
  const p = createToolPolicy('weather', {
    ...time,
    random: () => 0.5,
    telemetry: sinks.telemetry,
    ...options,
  });
  return { p, time, ...sinks };
}

describe('createToolPolicy: breaker counts attempts', () => {
  it('stops retrying when a failed attempt opens the breaker and returns CircuitOpenError caused by it', async () => {
    const { p, metrics } = policy({ breaker: { failureThreshold: 3 } });
    const errors: Error[] = [];
    const fn = vi.fn(() => {
      const error = unavailable(`down ${errors.length}`);
      errors.push(error);
      return Promise.reject(error);
    });
    const outcome = await p.run(fn);
    expect(fn).toHaveBeenCalledTimes(3);
    expect(outcome).toMatchObject({ ok: false, decision: 'circuit_open', attempts: 3, retryAfterMs: 30_000 });
    const error = outcome.ok ? undefined : outcome.error;
    expect(CircuitOpenError.isInstance(error) && error.cause).toBe(errors[2]);
    expect(metrics.snapshot().weather).toMatchObject({
      error_count: 3,
      transient_error_count: 3,
      retry_count: 2,
      circuit_breaker_opens: 1,
    });
  });

  it("when the last allowed attempt opens the breaker, the call ends with the tool's own error", async () => {
    const { p } = policy();
    const last = unavailable('fifth');
    let n = 0;
    const outcome = await p.run(() => Promise.reject(++n === 5 ? last : unavailable()));
    expect(outcome).toMatchObject({ ok: false, decision: 'exhausted', attempts: 5, error: last });
    expect(await p.breaker!.state()).toBe('open');
  });

  it('later calls fail fast without running the tool, then a trial runs after openMs', async () => {
    const { p, time } = policy({ breaker: { failureThreshold: 1 } });
    await p.run(() => Promise.reject(unavailable()));
    const fn = vi.fn(async () => 'ok');
    const rejected = await p.run(fn);
    expect(fn).not.toHaveBeenCalled();
    expect(rejected).toMatchObject({ ok: false, decision: 'circuit_open', attempts: 0 });
    time.advance(30_000);
    await expect(p.run(fn)).resolves.toMatchObject({ ok: true, value: 'ok' });
  });

  it("permanent errors and the caller's aborts never open the breaker", async () => {
    const { p } = policy({ breaker: { failureThreshold: 1 } });
    for (let i = 0; i < 5; i++) await p.run(() => Promise.reject(badRequest()));
    const controller = new AbortController();
    await p.run(
      () => {
        controller.abort('stop');
        return Promise.reject(unavailable());
      },
      { signal: controller.signal },
    );
    expect(await p.breaker!.state()).toBe('closed');
  });

  it('breaker: false and autoRetry: false give one bare attempt', async () => {
    const { p } = policy({ breaker: false, autoRetry: false });
    const fn = vi.fn(() => Promise.reject(unavailable()));
    for (let i = 0; i < 10; i++)
      expect(await p.run(fn)).toMatchObject({ decision: 'exhausted', attempts: 1 });
    expect(fn).toHaveBeenCalledTimes(10);
    expect(p.breaker).toBeUndefined();
  });
});

describe('createToolPolicy: classification overrides', () => {
  it('treatAsPermanent turns a transient status into a permanent one', async () => {
    const { p } = policy({ treatAsPermanent: [503] });
    const fn = vi.fn(() => Promise.reject(unavailable()));
    expect(await p.run(fn)).toMatchObject({ decision: 'permanent' });
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('treatAsTransient turns a permanent status into a retried one', async () => {
    // Idempotent: what is tested is the classification (retried at all), not the safety of re-running.
    const { p } = policy({ treatAsTransient: [400], breaker: false, idempotent: true });
    const fn = vi.fn(() => Promise.reject(badRequest()));
    expect(await p.run(fn)).toMatchObject({ decision: 'exhausted', attempts: 5 });
  });

  it('a classify hook wins, and unknown: permanent stops retrying unrecognised errors', async () => {
    const hooked = policy({ classify: () => 'permanent' });
    expect(await hooked.p.run(() => Promise.reject(unavailable()))).toMatchObject({ decision: 'permanent' });
    const strict = policy({ unknown: 'permanent' });
    const fn = vi.fn(() => Promise.reject(new Error('something odd')));
    expect(await strict.p.run(fn)).toMatchObject({ decision: 'permanent' });
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('unknown errors are transient by default (retried)', async () => {
    const { p } = policy({ breaker: false, idempotent: true });
    const fn = vi.fn(() => Promise.reject(new Error('something odd')));
    expect(await p.run(fn)).toMatchObject({ decision: 'exhausted', attempts: 5 });
  });
});

describe('createToolPolicy: fallback', () => {
  it('answers with the fallback after a permanent failure and says which tool answered', async () => {
    const { p, seen } = policy();
    const outcome = await p.run(() => Promise.reject(badRequest()), {
      fallback: { name: 'weather_backup', run: async () => 'sunny' },
    });
    expect(outcome).toEqual({ ok: true, value: 'sunny', attempts: 1, answeredBy: 'weather_backup' });
    expect(seen.find((e) => e.type === 'fallback_used')).toMatchObject({
      toolName: 'weather',
      fallback: 'weather_backup',
    });
  });

  it('answers with the fallback when the circuit is open, never after an abort', async () => {
    const { p } = policy({ breaker: { failureThreshold: 1 } });
    const fallback = { name: 'backup', run: vi.fn(async () => 'b') };
    expect(await p.run(() => Promise.reject(unavailable()), { fallback })).toMatchObject({
      answeredBy: 'backup',
    });
    expect(await p.run(() => 'never', { fallback })).toMatchObject({ answeredBy: 'backup' });
    const aborted = await p.run(() => 'x', { signal: AbortSignal.abort('stop'), fallback });
    expect(aborted).toMatchObject({ ok: false, decision: 'abort' });
    expect(fallback.run).toHaveBeenCalledTimes(2);
  });

  it('keeps the primary failure when the fallback fails too', async () => {
    const { p } = policy();
    const primary = badRequest();
    const outcome = await p.run(() => Promise.reject(primary), {
      fallback: { name: 'b', run: () => Promise.reject(new Error('also down')) },
    });
    expect(outcome).toMatchObject({ ok: false, error: primary });
  });
});

describe('createToolPolicy: validation and observability', () => {
  it.each([
    [{ autoRetry: { maxRetries: -1 } }, 'autoRetry.maxRetries'],
    [{ autoRetry: { maxRetries: 1.5 } }, 'autoRetry.maxRetries'],
    [{ autoRetry: { initialDelayMs: -1 } }, 'autoRetry.initialDelayMs'],
    [{ autoRetry: { maxDelayMs: Number.NaN } }, 'autoRetry.maxDelayMs'],
    [{ autoRetry: { jitter: 1.5 } }, 'autoRetry.jitter'],
    [{ autoRetry: { jitter: -0.1 } }, 'autoRetry.jitter'],
    [{ autoRetry: { multiplier: 0.5 } }, 'autoRetry.multiplier'],
    [{ autoRetry: { maxTotalTimeMs: -5 } }, 'autoRetry.maxTotalTimeMs'],
    [{ timeoutMs: 0 }, 'timeoutMs'],
    [{ breaker: { failureThreshold: 0 } }, 'breaker.failureThreshold'],
    [{ breaker: { successThreshold: 1.5 } }, 'breaker.successThreshold'],
    [{ breaker: { openMs: Number.NaN } }, 'breaker.openMs'],
  ])('rejects %j at wrap time with a RangeError naming %s', (options, name) => {
    expect(() => createToolPolicy('t', options)).toThrow(RangeError);
    expect(() => createToolPolicy('t', options)).toThrow(`'${name}'`);
  });

  it('logs each retry at warn as "Tool \'<name>\' failed (attempt k/n), retrying in X.Xs: <error>"', async () => {
    const { p, logger } = policy({ breaker: false, autoRetry: { maxRetries: 1 } });
    await p.run(() => Promise.reject(unavailable('upstream 503')));
    expect(logger.warn).toHaveBeenCalledWith(
      "Tool 'weather' failed (attempt 1/2), retrying in 0.1s: upstream 503",
      expect.anything(),
    );
  });

  it('a throwing listener never changes the outcome', async () => {
    const { p, events } = policy({ breaker: { failureThreshold: 2 } });
    events.subscribe(() => {
      throw new Error('bad listener');
    });
    let n = 0;
    const outcome = await p.run(() => (++n < 2 ? Promise.reject(unavailable()) : Promise.resolve('ok')));
    expect(outcome).toEqual({ ok: true, value: 'ok', attempts: 2 });
  });

  it('records every decision into the turn trace, JSON-serialisable', async () => {
    const trace = new TurnTrace();
    const { p, telemetry } = policy({ breaker: { failureThreshold: 2 } });
    await p.run(() => Promise.reject(unavailable()), { telemetry: telemetry.withTrace(trace) });
    const json = JSON.parse(JSON.stringify(trace));
    expect(
      json.entries.map((e: { event_type: string; decision: string }) => `${e.event_type}:${e.decision}`),
    ).toEqual(['tool_retry:retry', 'circuit_state:open', 'tool_failed:give_up:circuit_open']);
    expect(json.entries[0]).toMatchObject({
      toolName: 'weather',
      error: 'Error: service unavailable',
      classification: { kind: 'transient' },
      circuit_breaker_state: 'closed',
      // Retries made before this decision: the first retry is decided after the first attempt.
      retry_count: 0,
    });
  });
});

describe('createToolPolicy: the first attempt starts synchronously', () => {
  // The AI SDK adapter relies on it: a tool returning an async iterable must be answered with one in the same tick.
  it.each([
    ['breaker and retry', {}],
    // The virtual sleep ends at once; a timer that never fires keeps this attempt alive.
    ['a timeout', { timeoutMs: 1_000, sleep: () => new Promise<void>(() => {}) }],
    ['every layer off', { autoRetry: false as const, breaker: false as const }],
  ])('with %s', async (_, options) => {
    const { p } = policy(options);
    const fn = vi.fn(() => 'ok');
    const outcome = p.run(fn, { signal: new AbortController().signal });
    expect(fn).toHaveBeenCalledTimes(1);
    await expect(outcome).resolves.toMatchObject({ ok: true, value: 'ok' });
  });

  it('but only after an asynchronous breaker store has admitted it', async () => {
    const store = new InMemoryBreakerStore();
    const asyncStore: BreakerStore = { update: async (key, change) => store.update(key, change) };
    const { p } = policy({ breaker: { store: asyncStore } });
    const fn = vi.fn(() => 'ok');
    const outcome = p.run(fn);
    expect(fn).not.toHaveBeenCalled();
    await expect(outcome).resolves.toMatchObject({ ok: true, value: 'ok' });
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('an open circuit (in-memory store) rejects without calling the function', async () => {
    const { p } = policy({ breaker: { failureThreshold: 1 }, autoRetry: false });
    await p.run(() => Promise.reject(unavailable()));
    const fn = vi.fn(() => 'ok');
    await expect(p.run(fn)).resolves.toMatchObject({ ok: false, decision: 'circuit_open' });
    expect(fn).not.toHaveBeenCalled();
  });
});

describe('createToolPolicy: safe re-execution', () => {
  it('a tool is not idempotent by default: a plain Error is tried once (`not_idempotent`)', async () => {
    const { p, seen } = policy({ breaker: false });
    const fn = vi.fn(() => Promise.reject(new Error('mail server said goodbye')));
    expect(await p.run(fn)).toMatchObject({ ok: false, decision: 'not_idempotent', attempts: 1 });
    expect(fn).toHaveBeenCalledTimes(1);
    expect(seen.filter((e) => e.type === 'tool_retry')).toEqual([]);
  });

  it('idempotent: true retries it; a 503 is retried either way', async () => {
    const declared = policy({ breaker: false, idempotent: true });
    const odd = vi.fn(() => Promise.reject(new Error('something odd')));
    expect(await declared.p.run(odd)).toMatchObject({ decision: 'exhausted', attempts: 5 });
    const plain = policy({ breaker: false });
    const down = vi.fn(() => Promise.reject(unavailable()));
    expect(await plain.p.run(down)).toMatchObject({ decision: 'exhausted', attempts: 5 });
  });

  it('a failure that opens the breaker of a non-idempotent tool is reported as itself, not as the open circuit', async () => {
    const { p } = policy({ breaker: { failureThreshold: 1 } });
    const error = new Error('mail server said goodbye');
    expect(await p.run(() => Promise.reject(error))).toMatchObject({ error, decision: 'not_idempotent' });
    expect(await p.run(() => 'never')).toMatchObject({ decision: 'circuit_open' });
  });

  it('keepOwnError (per call) keeps the own error when a retry would have met the open circuit', async () => {
    const { p } = policy({ breaker: { failureThreshold: 1 }, idempotent: true });
    const error = new Error('smtp down');
    const outcome = await p.run(() => Promise.reject(error), { keepOwnError: true });
    expect(outcome).toMatchObject({ ok: false, error, decision: 'circuit_open' });
  });

  it('a fallback answers after `not_idempotent`', async () => {
    const { p, seen } = policy({ breaker: false });
    const fallback = { name: 'queue_email', run: vi.fn(async () => 'queued') };
    const fn = vi.fn(() => Promise.reject(new Error('mail server said goodbye')));
    expect(await p.run(fn, { fallback })).toMatchObject({
      ok: true,
      value: 'queued',
      answeredBy: 'queue_email',
    });
    expect(fn).toHaveBeenCalledTimes(1);
    expect(seen.find((e) => e.type === 'tool_failed')).toMatchObject({ decision: 'not_idempotent' });
  });

  it('rejects a non-boolean idempotent with a TypeError naming it', () => {
    expect(() => createToolPolicy('t', { idempotent: 'yes' as never })).toThrow(TypeError);
    expect(() => createToolPolicy('t', { idempotent: 1 as never })).toThrow("'idempotent'");
  });
});
