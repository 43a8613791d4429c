/**
 * Every numeric option of the core's public functions and classes is checked where it is given: a number outside
 * its rule is a `RangeError`, anything else a `TypeError`, and the message names the option with its prefix
 * (`autoRetry.maxRetries`, `breaker.openMs`, `settings.retry.maxRetries`) and states the rule. No value yields
 * unbounded retries or a timer Node would fire early (anything above 2^31−1 ms fires after ~1 ms).
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { classifyError } from '../../../src/classify/classify.js';
import { parseRetryAfter } from '../../../src/classify/retry-after.js';
import type { Classification } from '../../../src/classify/types.js';
import { TurnTrace } from '../../../src/observe/trace.js';
import { CircuitBreaker } from '../../../src/policy/circuit-breaker.js';
import { resolveRetryOptions, retry, retryWithOutcome } from '../../../src/policy/retry.js';
import { decideRetry } from '../../../src/policy/retry-decision.js';
import { withTimeout } from '../../../src/policy/timeout.js';
import { runToolPlan } from '../../../src/policy/tool-plan.js';
import { createToolPolicy } from '../../../src/policy/tool-policy.js';
import { TurnDeadline } from '../../../src/policy/turn-deadline.js';
import { SessionCore } from '../../../src/session/session-core.js';
import { resolveSessionSettings, type SessionSettingsInput } from '../../../src/session/settings.js';
import { maxTimerMs } from '../../../src/util/validate.js';
import {
  breakerFields,
  describeOptionFamilies,
  expectRefused,
  type Family,
  field,
  KINDS,
  message,
  retryFields,
  thirtyDaysMs,
  timerKinds,
} from './option-rules.js';

const ok = () => 'ok';
const retryPolicyFields = [
  ...retryFields(''),
  field('timeoutMs', 'timeoutMs'),
  field('idempotent', 'boolean'),
  field('keepOwnError', 'boolean'),
];
const sessionRetryFields = (
  [
    ['enabled', 'boolean'],
    ['maxRetries', 'count'],
    ['initialDelayMs', 'delayMs'],
    ['multiplier', 'multiplier'],
    ['jitter', 'jitter'],
    ['maxDelayMs', 'delayMs'],
    ['maxRetryAfterMs', 'delayMs'],
  ] as const
).map(([name, kind]) => field(`settings.retry.${name}`, kind, `retry.${name}`));

const FAMILIES: Family[] = [
  {
    where: 'resolveRetryOptions',
    sync: true,
    call: (o) => resolveRetryOptions(o, 'autoRetry.'),
    fields: retryFields('autoRetry.', ''),
  },
  {
    where: 'createToolPolicy',
    sync: true,
    call: (o) => createToolPolicy('t', o),
    fields: [
      ...retryFields('autoRetry.'),
      field('timeoutMs', 'timeoutMs'),
      field('idempotent', 'boolean'),
      ...breakerFields(),
    ],
  },
  { where: 'retry()', sync: false, call: (o) => retry(ok, o), fields: retryPolicyFields },
  {
    where: 'retryWithOutcome()',
    sync: false,
    call: (o) => retryWithOutcome(ok, o),
    fields: retryPolicyFields,
  },
  {
    where: 'withTimeout',
    sync: true,
    call: (o) => withTimeout(ok, o),
    fields: [field('timeoutMs', 'timeoutMs')],
  },
  {
    where: 'TurnDeadline',
    sync: true,
    call: (o) => new TurnDeadline(o),
    fields: [field('timeoutMs', 'timeoutMs')],
    dispose: (deadline) => (deadline as TurnDeadline).close(),
  },
  { where: 'CircuitBreaker', sync: true, call: (o) => new CircuitBreaker('b', o), fields: breakerFields('') },
  {
    where: 'runToolPlan',
    sync: false,
    call: (o) => runToolPlan([], o),
    fields: [field('concurrency', 'positiveInt')],
  },
  {
    where: 'TurnTrace',
    sync: true,
    call: (o) => new TurnTrace(o),
    fields: [field('maxEntries', 'positiveInt')],
  },
  {
    where: 'resolveSessionSettings',
    sync: true,
    call: (o) => resolveSessionSettings(o),
    fields: sessionRetryFields,
  },
  {
    // A change at run time (`updateSettings`) is checked as the option was.
    where: 'SessionCore.updateSettings',
    sync: true,
    call: (o) => new SessionCore({}).updateSettings(o as SessionSettingsInput),
    fields: sessionRetryFields,
  },
  {
    where: 'classifyError',
    sync: true,
    call: (o) => classifyError(new Error('quota exceeded, retry in 5s'), o),
    fields: [field('shortRetryWindowMs', 'delayMs')],
  },
];

const { all } = describeOptionFamilies(
  'core options: every numeric option is checked where it is given',
  FAMILIES,
  61,
  6,
);

describe('core options: every numeric option is checked where it is given', () => {
  it('a 30-day timeout or delay is refused by every option that becomes a timer', async () => {
    const timers = all.filter((c) => timerKinds.includes(c.kind));
    expect(timers.map((c) => c.label)).toEqual(
      expect.arrayContaining([
        'createToolPolicy timeoutMs',
        'createToolPolicy autoRetry.maxDelayMs',
        'createToolPolicy breaker.openMs',
        'retry() timeoutMs',
        'withTimeout timeoutMs',
        'TurnDeadline timeoutMs',
        'resolveSessionSettings settings.retry.maxRetryAfterMs',
      ]),
    );
    for (const { family, ...f } of timers) await expectRefused(family, f, thirtyDaysMs);
  });
});

describe('core options: a value of the wrong type is a TypeError naming the option', () => {
  type TypeCase = { where: string; option: string; rule: string; value: unknown; call: () => unknown };
  const objectOrFalse = 'an options object or false';
  const clockRule = 'an object with a now() method';
  const typeCases: TypeCase[] = [
    ...['x', 5, null, true].map((value) => ({
      where: 'createToolPolicy',
      option: 'autoRetry',
      rule: objectOrFalse,
      value,
      call: () => createToolPolicy('t', { autoRetry: value as never }),
    })),
    ...['x', 5, null].map((value) => ({
      where: 'createToolPolicy',
      option: 'breaker',
      rule: objectOrFalse,
      value,
      call: () => createToolPolicy('t', { breaker: value as never }),
    })),
    {
      where: 'createToolPolicy',
      option: 'autoRetry',
      rule: objectOrFalse,
      value: 'x',
      call: () => createToolPolicy('t', { autoRetry: 'x' as never }),
    },
    {
      where: 'createToolPolicy',
      option: 'clock',
      rule: clockRule,
      value: 5,
      call: () => createToolPolicy('t', { clock: 5 as never }),
    },
    {
      where: 'createToolPolicy',
      option: 'sleep',
      rule: 'a function',
      value: 'x',
      call: () => createToolPolicy('t', { sleep: 'x' as never }),
    },
    {
      where: 'createToolPolicy',
      option: 'random',
      rule: 'a function',
      value: 0.5,
      call: () => createToolPolicy('t', { random: 0.5 as never }),
    },
    {
      where: 'createToolPolicy',
      option: 'classify',
      rule: 'a function',
      value: 'transient',
      call: () => createToolPolicy('t', { classify: 'transient' as never }),
    },
    {
      where: 'resolveRetryOptions',
      option: 'autoRetry',
      rule: 'an options object',
      value: 3,
      call: () => resolveRetryOptions(3 as never),
    },
    {
      where: 'CircuitBreaker',
      option: 'breaker',
      rule: 'an options object',
      value: 5,
      call: () => new CircuitBreaker('b', 5 as never),
    },
    {
      where: 'CircuitBreaker',
      option: 'breaker.clock',
      rule: clockRule,
      value: Date.now,
      call: () => new CircuitBreaker('b', { clock: Date.now as never }),
    },
    {
      where: 'CircuitBreaker',
      option: 'breaker.store',
      rule: 'an options object',
      value: 'redis',
      call: () => new CircuitBreaker('b', { store: 'redis' as never }),
    },
    {
      where: 'resolveSessionSettings',
      option: 'settings',
      rule: 'an options object',
      value: 5,
      call: () => resolveSessionSettings(5 as never),
    },
    {
      where: 'resolveSessionSettings',
      option: 'settings.retry',
      rule: 'an options object',
      value: 'fast',
      call: () => resolveSessionSettings({ retry: 'fast' as never }),
    },
    {
      where: 'TurnDeadline',
      option: 'sleep',
      rule: 'a function',
      value: 1000,
      call: () => new TurnDeadline({ sleep: 1000 as never }),
    },
    {
      where: 'TurnDeadline',
      option: 'onExpire',
      rule: 'a function',
      value: 'stop',
      call: () => new TurnDeadline({ onExpire: 'stop' as never }),
    },
    {
      where: 'withTimeout',
      option: 'sleep',
      rule: 'a function',
      value: 'x',
      call: () => withTimeout(ok, { timeoutMs: 5, sleep: 'x' as never }),
    },
    {
      where: 'TurnTrace',
      option: 'clock',
      rule: clockRule,
      value: {},
      call: () => new TurnTrace({ clock: {} as never }),
    },
    {
      where: 'classifyError',
      option: 'clock',
      rule: clockRule,
      value: 5,
      call: () => classifyError(new Error('x'), { clock: 5 as never }),
    },
    {
      where: 'classifyError',
      option: 'classify',
      rule: 'a function',
      value: 'permanent',
      call: () => classifyError(new Error('x'), { classify: 'permanent' as never }),
    },
    {
      where: 'parseRetryAfter',
      option: 'clock',
      rule: clockRule,
      value: 'now',
      call: () => parseRetryAfter({ 'retry-after': '1' }, { clock: 'now' as never }),
    },
  ];

  it.each(typeCases)('$where: $option = $value', ({ call, option, rule, value }) => {
    expect(call).toThrow(TypeError);
    expect(call).toThrow(message(option, rule, value));
  });

  it('a number where a boolean, object or function is expected is a TypeError too (not a RangeError)', () => {
    expect(() => resolveSessionSettings({ retry: { enabled: 1 as never } })).toThrow(TypeError);
    expect(() => createToolPolicy('t', { breaker: 5 as never })).toThrow(TypeError);
    expect(() => new TurnDeadline({ onExpire: 0 as never })).toThrow(TypeError);
  });

  it.each(['clock', 'sleep', 'random', 'classify'] as const)(
    'retry() and retryWithOutcome() refuse a bad %s before the first attempt',
    async (name) => {
      const fn = vi.fn(ok);
      await expect(retry(fn, { [name]: 42 })).rejects.toThrow(TypeError);
      await expect(retryWithOutcome(fn, { [name]: 42 })).rejects.toThrow(`option '${name}'`);
      expect(fn).not.toHaveBeenCalled();
    },
  );
});

describe('core options: a bad option never runs anything', () => {
  it.each([Number.NaN, -1, 1.5, Number.POSITIVE_INFINITY])(
    'retry({ maxRetries: %s }) rejects without calling the function (no unbounded retries)',
    async (maxRetries) => {
      const fn = vi.fn(() => Promise.reject(Object.assign(new Error('503'), { status: 503 })));
      await expect(retry(fn, { maxRetries, sleep: async () => {} })).rejects.toThrow(RangeError);
      await expect(retryWithOutcome(fn, { maxRetries, sleep: async () => {} })).rejects.toThrow(
        "option 'maxRetries'",
      );
      expect(fn).not.toHaveBeenCalled();
    },
  );

  it.each([Number.NaN, 0, maxTimerMs + 1, thirtyDaysMs])(
    'retryWithOutcome({ timeoutMs: %s }) rejects at once instead of retrying its own RangeError',
    async (timeoutMs) => {
      const fn = vi.fn(ok);
      const sleep = vi.fn(async () => {});
      const outcome = retryWithOutcome(fn, { timeoutMs, maxTotalTimeMs: Number.POSITIVE_INFINITY, sleep });
      await expect(outcome).rejects.toThrow(RangeError);
      await expect(outcome).rejects.toThrow(message('timeoutMs', KINDS.timeoutMs.rule, timeoutMs));
      expect(fn).not.toHaveBeenCalled();
      expect(sleep).not.toHaveBeenCalled();
    },
  );

  it('withTimeout throws before calling the function or starting a timer', () => {
    const fn = vi.fn(ok);
    const sleep = vi.fn(async () => {});
    expect(() => withTimeout(fn, { timeoutMs: thirtyDaysMs, sleep })).toThrow(RangeError);
    expect(fn).not.toHaveBeenCalled();
    expect(sleep).not.toHaveBeenCalled();
  });

  it('new TurnDeadline({ timeoutMs: 30 days }) throws before starting its timer', () => {
    const sleep = vi.fn(async () => {});
    expect(() => new TurnDeadline({ timeoutMs: thirtyDaysMs, sleep })).toThrow(
      message('timeoutMs', KINDS.timeoutMs.rule, thirtyDaysMs),
    );
    expect(sleep).not.toHaveBeenCalled();
  });

  it('runToolPlan rejects a bad concurrency before running any step', async () => {
    const execute = vi.fn(ok);
    await expect(runToolPlan([{ id: 'a', tool: execute }], { concurrency: 0 })).rejects.toThrow(RangeError);
    expect(execute).not.toHaveBeenCalled();
  });
});

describe('session settings changed at run time', () => {
  it('a plain, frozen object: a change goes through updateSettings, checked as the option is, or not at all', () => {
    const core = new SessionCore({ settings: { retry: { maxRetries: 2 } } });
    expect(Object.isFrozen(core.settings.retry)).toBe(true);
    core.updateSettings({ retry: { maxRetries: 5, initialDelayMs: 10 } });
    expect(core.settings.retry).toMatchObject({ maxRetries: 5, initialDelayMs: 10, enabled: true });
    expect(() => core.updateSettings({ retry: { maxRetries: Number.NaN } })).toThrow(
      new RangeError(message('settings.retry.maxRetries', KINDS.count.rule, Number.NaN)),
    );
    expect(() => core.updateSettings({ retry: { initialDelayMs: thirtyDaysMs } })).toThrow(RangeError);
    expect(core.settings.retry).toMatchObject({ maxRetries: 5, initialDelayMs: 10 });
  });
});

describe('resolveRetryOptions and decideRetry (property)', () => {
  const transient: Classification = { kind: 'transient', reason: 'status:503' };

  /** How many retries `decideRetry` grants under the resolved options before it says 'exhausted'. */
  const retriesGranted = (resolved: ReturnType<typeof resolveRetryOptions>, cap: number): number => {
    for (let retriesDone = 0; retriesDone <= cap; retriesDone++) {
      const decision = decideRetry({
        retriesDone,
        classification: transient,
        config: resolved,
        random: () => 0.5,
      });
      if (!decision.retry) {
        expect(decision.reason).toBe('exhausted');
        return retriesDone;
      }
      expect(decision.delayMs).toBeGreaterThanOrEqual(0);
      expect(decision.delayMs).toBeLessThanOrEqual(resolved.maxDelayMs);
    }
    throw new Error(`more than ${cap} retries granted`);
  };

  it('any integer maxRetries in [0, 1000] is accepted and grants exactly that many retries', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), (maxRetries) => {
        const resolved = resolveRetryOptions({ maxRetries });
        expect(resolved.maxRetries).toBe(maxRetries);
        expect(retriesGranted(resolved, 1000)).toBe(maxRetries);
      }),
    );
  });

  it('any non-integer or negative maxRetries is refused with a RangeError naming it', () => {
    const invalid = fc.oneof(
      fc.double({ noInteger: true }),
      fc.integer({ max: -1 }),
      fc.double({ max: -Number.MIN_VALUE }),
      fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
    );
    fc.assert(
      fc.property(invalid, (maxRetries) => {
        const call = () => resolveRetryOptions({ maxRetries }, 'autoRetry.');
        expect(call).toThrow(RangeError);
        expect(call).toThrow(message('autoRetry.maxRetries', KINDS.count.rule, maxRetries));
      }),
    );
  });
});
