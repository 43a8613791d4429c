/**
 * The option rules of `src/util/validate.ts` as test tables, shared by the core and adapter validation tests:
 * each kind of option, the rule its message states, values it must refuse and values it must take, and a runner
 * that checks a whole family of options (one public function or class) against them.
 */
import { describe, expect, it } from 'vitest';
import { maxTimerMs } from '../../../src/util/validate.js';

/** 30 days in ms: far beyond a timer's 2^31−1 ms (~24.8 days), which Node would fire after ~1 ms. */
export const thirtyDaysMs = 30 * 24 * 3600 * 1000;

/** A kind of option: its rule as the message states it, values refused and accepted. */
export interface Kind {
  rule: string;
  bad: unknown[];
  good: unknown[];
  /** False for a non-numeric option: every refused value is a `TypeError`, numbers included. */
  numeric: boolean;
}

const nonNumbers = ['3', null, true, {}];

export const KINDS = {
  /** Retries and other counts: an integer ≥ 0. */
  count: {
    rule: 'an integer ≥ 0',
    bad: [Number.NaN, -1, 1.5, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, ...nonNumbers],
    good: [0, 3, 1000],
    numeric: true,
  },
  /** Thresholds, concurrency, `maxAttempts`, trace size: an integer ≥ 1. */
  positiveInt: {
    rule: 'an integer ≥ 1',
    bad: [Number.NaN, 0, -1, 1.5, Number.POSITIVE_INFINITY, ...nonNumbers],
    good: [1, 5],
    numeric: true,
  },
  /** A delay that becomes a timer: [0, 2^31−1] ms. */
  delayMs: {
    rule: `a number of ms in [0, ${maxTimerMs}]`,
    bad: [Number.NaN, -1, Number.POSITIVE_INFINITY, maxTimerMs + 1, thirtyDaysMs, ...nonNumbers],
    good: [0, 1.5, maxTimerMs],
    numeric: true,
  },
  /** A timeout that becomes a timer: (0, 2^31−1] ms. */
  timeoutMs: {
    rule: `a number of ms in (0, ${maxTimerMs}]`,
    bad: [Number.NaN, 0, -1, Number.POSITIVE_INFINITY, maxTimerMs + 1, thirtyDaysMs, ...nonNumbers],
    good: [1, 0.5, maxTimerMs],
    numeric: true,
  },
  /**
   * The SDK's own call timeouts (`timeout.totalMs`, …), checked by the drop-ins: the rule of `timeoutMs`, but only
   * values long enough for a mocked call to finish are tried as accepted (a 0.5 ms limit would abort it).
   */
  callTimeoutMs: {
    rule: `a number of ms in (0, ${maxTimerMs}]`,
    bad: [Number.NaN, 0, -1, Number.POSITIVE_INFINITY, maxTimerMs + 1, thirtyDaysMs, ...nonNumbers],
    good: [60_000, maxTimerMs],
    numeric: true,
  },
  /** A budget that is no timer: ≥ 0, `Infinity` = no budget. */
  budgetMs: {
    rule: 'a number of ms ≥ 0 (Infinity = no budget)',
    bad: [Number.NaN, -1, Number.NEGATIVE_INFINITY, ...nonNumbers],
    good: [0, 2000, thirtyDaysMs, Number.POSITIVE_INFINITY],
    numeric: true,
  },
  multiplier: {
    rule: 'a finite number ≥ 1',
    bad: [Number.NaN, 0, 0.5, -2, Number.POSITIVE_INFINITY, ...nonNumbers],
    good: [1, 1.5, 10],
    numeric: true,
  },
  jitter: {
    rule: 'a fraction in [0, 1]',
    bad: [Number.NaN, -0.1, 1.01, Number.POSITIVE_INFINITY, ...nonNumbers],
    good: [0, 0.5, 1],
    numeric: true,
  },
  /** `maxErrorChars`: an integer ≥ 64. */
  errorChars: {
    rule: 'an integer ≥ 64',
    bad: [Number.NaN, 63, 0, -1, 64.5, Number.POSITIVE_INFINITY, ...nonNumbers],
    good: [64, 10_000],
    numeric: true,
  },
  boolean: {
    rule: 'true or false',
    bad: ['yes', 1, 0, null, {}],
    good: [true, false],
    numeric: false,
  },
} satisfies Record<string, Kind>;
export type KindName = keyof typeof KINDS;

/** Every kind that becomes a timer, with its refused 30-day value. */
export const timerKinds: KindName[] = ['delayMs', 'timeoutMs', 'callTimeoutMs'];

/** One option: its name as messages give it (prefix included), its kind, where it goes in the options object. */
export interface Field {
  name: string;
  kind: KindName;
  /** Dotted path in the options object (default: `name`). */
  path: string;
}
export const field = (name: string, kind: KindName, path = name): Field => ({ name, kind, path });

/** The fields of a retry policy (`autoRetry`, `retry()`'s policy), under `prefix`. */
export const retryFields = (prefix: string, pathPrefix = prefix): Field[] =>
  (
    [
      ['maxRetries', 'count'],
      ['initialDelayMs', 'delayMs'],
      ['multiplier', 'multiplier'],
      ['maxDelayMs', 'delayMs'],
      ['jitter', 'jitter'],
      ['maxRetryAfterMs', 'delayMs'],
      ['maxTotalTimeMs', 'budgetMs'],
    ] as const
  ).map(([name, kind]) => field(`${prefix}${name}`, kind, `${pathPrefix}${name}`));

/** The fields of a circuit breaker's options (named `breaker.*` wherever they are given). */
export const breakerFields = (pathPrefix = 'breaker.'): Field[] => [
  field('breaker.failureThreshold', 'positiveInt', `${pathPrefix}failureThreshold`),
  field('breaker.successThreshold', 'positiveInt', `${pathPrefix}successThreshold`),
  field('breaker.openMs', 'timeoutMs', `${pathPrefix}openMs`),
];

/** One public function or class: how to call it with options, its fields, how to end what an accepted call started. */
export interface Family {
  where: string;
  /** Options added to every call (the required ones, e.g. a model and a prompt). */
  base?: Record<string, unknown>;
  call: (options: Record<string, unknown>) => unknown;
  fields: Field[];
  /** True when a bad option must throw synchronously (a constructor, a synchronous function). */
  sync: boolean;
  /** Ends what an accepted call started (reads a stream, closes a deadline). */
  dispose?: (result: unknown) => unknown;
}

/** Deep-merges the option `path = value` into `base`. */
function withOption(base: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const [head, ...rest] = path.split('.') as [string, ...string[]];
  if (rest.length === 0) return { ...base, [head]: value };
  const inner = base[head];
  return {
    ...base,
    [head]: withOption(
      typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>) : {},
      rest.join('.'),
      value,
    ),
  };
}

export const shown = (value: unknown): string =>
  typeof value === 'string' ? JSON.stringify(value) : String(value);

/** The message of a refused option. */
export const message = (name: string, rule: string, value: unknown): string =>
  `graceful-ai: option '${name}' must be ${rule}; got ${shown(value)}.`;

/** Calls `family` with `path = value`: what it threw, and whether it threw synchronously (or rejected). */
export async function callWith(
  family: Family,
  path: string,
  value: unknown,
): Promise<{ error: unknown; sync: boolean } | { result: unknown }> {
  let result: unknown;
  try {
    result = family.call(withOption(family.base ?? {}, path, value));
  } catch (error) {
    return { error, sync: true };
  }
  if (result instanceof Promise) {
    try {
      return { result: await result };
    } catch (error) {
      return { error, sync: false };
    }
  }
  return { result };
}

/** The refused and accepted cases of some families, for `it.each`. */
export function cases(families: Family[]) {
  const all = families.flatMap((family) =>
    family.fields.map((f) => ({ ...f, family, label: `${family.where} ${f.name}` })),
  );
  return {
    all,
    rejected: all.flatMap((c) => KINDS[c.kind].bad.map((value) => ({ ...c, value }))),
    accepted: all.flatMap((c) => KINDS[c.kind].good.map((value) => ({ ...c, value }))),
  };
}

/** Asserts that `path = value` is refused with the right class and message, where it is given. */
export async function expectRefused(family: Family, f: Field, value: unknown): Promise<void> {
  const outcome = await callWith(family, f.path, value);
  expect(outcome, `${family.where} ${f.name} = ${shown(value)} was accepted`).toHaveProperty('error');
  const { error, sync } = outcome as { error: unknown; sync: boolean };
  const kind = KINDS[f.kind];
  expect(error).toBeInstanceOf(kind.numeric && typeof value === 'number' ? RangeError : TypeError);
  expect((error as Error).message).toBe(message(f.name, kind.rule, value));
  if (family.sync) expect(sync, `${family.where} must throw synchronously`).toBe(true);
}

/** Asserts that `path = value` is accepted, then ends what the call started. */
export async function expectAccepted(family: Family, f: Field, value: unknown): Promise<void> {
  const outcome = await callWith(family, f.path, value);
  if ('error' in outcome) throw outcome.error;
  await family.dispose?.(outcome.result);
}

/**
 * The shared table test: every rejected value of every field is refused with the right error and message, every
 * accepted boundary passes, and the table covers `fieldCount` fields in every family. Returns the cases for more
 * tests in the caller's own describe blocks.
 */
export function describeOptionFamilies(
  title: string,
  families: Family[],
  fieldCount: number,
  minRejectedPerField: number,
) {
  const table = cases(families);
  describe(title, () => {
    it.each(table.rejected)('$label = $value is refused', ({ family, value, ...f }) =>
      expectRefused(family, f, value),
    );
    it.each(table.accepted)('$label = $value is accepted', ({ family, value, ...f }) =>
      expectAccepted(family, f, value),
    );
    it('covers every family and every field', () => {
      expect(new Set(table.all.map((c) => c.family.where)).size).toBe(families.length);
      expect(table.all.length).toBe(fieldCount);
      expect(table.rejected.length).toBeGreaterThan(table.all.length * minRejectedPerField);
    });
  });
  return table;
}
