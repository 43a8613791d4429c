import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CooldownError } from '../../../src/errors/cooldown-error.js';
import { checkCoordination } from '../../../src/policy/coordination.js';
import { retryWithOutcome } from '../../../src/policy/retry.js';
import { InMemoryCoordination, SharedCooldowns } from '../../../src/policy/shared-cooldowns.js';
import { createToolPolicy } from '../../../src/policy/tool-policy.js';
import { isolatedTelemetry, silentLogger, unavailable, virtualTime } from './fixtures.js';

const rateLimited = (retryAfterSeconds: number) =>
  Object.assign(new Error('rate limited'), {
    status: 429,
    responseHeaders: { 'retry-after': String(retryAfterSeconds) },
  });

describe('InMemoryCoordination', () => {
  it('waits out a cool-down that fits, synchronously when there is none, and fails fast with CooldownError', async () => {
    const time = virtualTime(0);
    const coordination = new InMemoryCoordination({ clock: time.clock });
    const wait = { maxWaitMs: 5_000, sleep: time.sleep };
    expect(coordination.beforeCall('k', wait)).toBeUndefined();
    await coordination.coolDown('k', 3_000);
    await coordination.beforeCall('k', wait);
    expect(time.clock.now()).toBe(3_000);
    await coordination.coolDown('k', 9_000);
    let caught: unknown;
    try {
      await coordination.beforeCall('k', wait);
    } catch (error) {
      caught = error;
    }
    expect(CooldownError.isInstance(caught)).toBe(true);
    expect(caught).toMatchObject({ key: 'k', retryAfterMs: 9_000, maxWaitMs: 5_000 });
    expect(String(caught)).toMatch(/'k' is cooling down.*again in 9 s.*Try again later/);
  });

  it('property: a call never goes before the longest announced cool-down, and never waits past maxWaitMs', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 10_000 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 0, max: 12_000 }),
        async (cooldowns, maxWaitMs) => {
          const time = virtualTime(0);
          const coordination = new InMemoryCoordination({ clock: time.clock });
          for (const ms of cooldowns) await coordination.coolDown('k', ms);
          const longest = Math.max(...cooldowns);
          const outcome = await Promise.resolve()
            .then(() => coordination.beforeCall('k', { maxWaitMs, sleep: time.sleep }))
            .then(
              () => 'went',
              (error: unknown) => (CooldownError.isInstance(error) ? 'refused' : 'other'),
            );
          if (longest <= maxWaitMs) expect([outcome, time.clock.now()]).toEqual(['went', longest]);
          else expect([outcome, time.clock.now()]).toEqual(['refused', 0]);
        },
      ),
    );
  });

  it('a storage that fails lets the call go, keeps its own cool-downs, and logs', async () => {
    const logger = silentLogger();
    class Broken extends SharedCooldowns {
      protected override sharedRemainingMs(): number {
        throw new Error('storage down');
      }
      protected override shareCooldown(): void {
        throw new Error('storage down');
      }
    }
    const time = virtualTime(0);
    const coordination = new Broken({ clock: time.clock, logger });
    await coordination.beforeCall('k', { maxWaitMs: 0, sleep: time.sleep });
    await coordination.coolDown('k', 1_000);
    await expect(async () =>
      coordination.beforeCall('k', { maxWaitMs: 0, sleep: time.sleep }),
    ).rejects.toMatchObject({
      name: 'CooldownError',
    });
    // Two reads and one announcement failed, each logged.
    expect(logger.warn).toHaveBeenCalledTimes(3);
  });

  it('checkCoordination names the option', () => {
    expect(() => checkCoordination('coordination', {})).toThrow(
      /option 'coordination' must be a coordination/,
    );
    expect(() => checkCoordination('coordination', new InMemoryCoordination())).not.toThrow();
  });
});

describe('retry with a coordination (tool:<name>)', () => {
  it("one caller's 429 retry-after makes the next caller wait instead of calling", async () => {
    const time = virtualTime(0);
    const coordination = new InMemoryCoordination({ clock: time.clock });
    const policy = { coordination, clock: time.clock, sleep: time.sleep, random: () => 0.5, name: 'search' };
    const { telemetry } = isolatedTelemetry();
    let calls = 0;
    const first = await retryWithOutcome(
      () => {
        calls++;
        throw rateLimited(2);
      },
      { ...policy, maxRetries: 0, telemetry },
    );
    expect(first).toMatchObject({ ok: false, decision: 'exhausted' });
    const startedAt: number[] = [];
    const second = await retryWithOutcome(
      () => {
        startedAt.push(time.clock.now());
        return 'ok';
      },
      { ...policy, maxTotalTimeMs: 10_000, telemetry },
    );
    expect(second).toMatchObject({ ok: true });
    expect([calls, startedAt]).toEqual([1, [2_000]]);
  });

  it('fails fast with CooldownError (decision retry_after) when the cool-down exceeds the budget, without calling', async () => {
    const time = virtualTime(0);
    const coordination = new InMemoryCoordination({ clock: time.clock });
    await coordination.coolDown('tool:search', 30_000);
    let calls = 0;
    const outcome = await retryWithOutcome(() => ++calls, {
      coordination,
      clock: time.clock,
      sleep: time.sleep,
      name: 'search',
      telemetry: isolatedTelemetry().telemetry,
    });
    expect(calls).toBe(0);
    expect(outcome).toMatchObject({ ok: false, decision: 'retry_after', retryAfterMs: 30_000 });
    expect(CooldownError.isInstance(!outcome.ok && outcome.error)).toBe(true);
  });

  it('a breaker opened through a coordination is shared as breaker state (no cool-down on top)', async () => {
    const time = virtualTime(0);
    const coordination = new InMemoryCoordination({ clock: time.clock });
    const policy = createToolPolicy('search', {
      autoRetry: false,
      breaker: { failureThreshold: 1, openMs: 5_000 },
      coordination,
      clock: time.clock,
      sleep: time.sleep,
      telemetry: isolatedTelemetry().telemetry,
    });
    await policy.run(() => {
      throw unavailable();
    });
    expect(coordination.breakerStore.get('search')).toMatchObject({ state: 'open', openUntil: 5_000 });
    // Another tool object with the same name and coordination (another wrap, or another process) is open too.
    const other = createToolPolicy('search', { autoRetry: false, coordination, clock: time.clock });
    const outcome = await other.run(() => 'ran');
    expect(outcome).toMatchObject({ ok: false, decision: 'circuit_open' });
    expect(coordination.beforeCall('tool:search', { maxWaitMs: 0, sleep: time.sleep })).toBeUndefined();
  });

  it('a coordination without a breaker store hears of an opened breaker as a cool-down of openMs', async () => {
    const time = virtualTime(0);
    const coordination = new (class extends SharedCooldowns {})({ clock: time.clock });
    const policy = createToolPolicy('search', {
      autoRetry: false,
      breaker: { failureThreshold: 1, openMs: 5_000 },
      coordination,
      clock: time.clock,
      telemetry: isolatedTelemetry().telemetry,
    });
    await policy.run(() => {
      throw unavailable();
    });
    await expect(async () =>
      coordination.beforeCall('tool:search', { maxWaitMs: 0, sleep: time.sleep }),
    ).rejects.toMatchObject({ retryAfterMs: 5_000 });
  });
});
