/**
 * Every numeric option of the fault kit is checked where it is given: a number outside its rule is a
 * `RangeError`, anything else a `TypeError`, and the message names the builder (or script step) and the field.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fault, reply, type Step, startMockServer, streamFault } from '../../mocks/index.js';
import { mockHandlers } from '../../mocks/msw.js';
import { maxTimerMs } from '../../src/util/validate.js';

/** The kinds of numeric field, the rule each message states, values it must refuse and values it must take. */
const KINDS = {
  delayMs: {
    rule: `a number of ms in [0, ${maxTimerMs}]`,
    bad: [Number.NaN, -1, Number.POSITIVE_INFINITY, maxTimerMs + 1, '5', null],
    good: [0, 1.5, maxTimerMs],
  },
  count: {
    rule: 'an integer ≥ 0',
    bad: [Number.NaN, -1, 1.5, Number.POSITIVE_INFINITY, '5', null],
    good: [0, 7, 2 ** 31],
  },
  size: {
    rule: 'an integer ≥ 1',
    bad: [Number.NaN, -1, 0, 1.5, Number.POSITIVE_INFINITY, '5', null],
    good: [1, 64],
  },
  headerNumber: {
    rule: 'a finite number ≥ 0',
    bad: [Number.NaN, -1, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, '5', null],
    good: [0, 0.5, 2 ** 31],
  },
  status: {
    rule: 'an integer HTTP status in [200, 599]',
    bad: [Number.NaN, -1, 99, 199, 600, 200.5, Number.POSITIVE_INFINITY, '500', null],
    good: [200, 429, 599],
  },
  port: {
    rule: 'an integer in [0, 65535]',
    bad: [Number.NaN, -1, 1.5, 65536, Number.POSITIVE_INFINITY, '80', null],
    good: [],
  },
} satisfies Record<string, { rule: string; bad: unknown[]; good: unknown[] }>;
type Kind = keyof typeof KINDS;

/** A numeric field: its name in messages, its kind, and how to put a value there in an options object. */
interface Field {
  field: string;
  kind: Kind;
  set: (value: unknown) => Record<string, unknown>;
}
const field = (name: string, kind: Kind, set = (value: unknown) => ({ [name]: value })): Field => ({
  field: name,
  kind,
  set,
});

const delayMs = field('delayMs', 'delayMs');
const ANSWER: Field[] = [
  delayMs,
  field('frameDelayMs', 'delayMs'),
  field('chunkChars', 'size'),
  field('usage.inputTokens', 'count', (v) => ({ usage: { inputTokens: v } })),
  field('usage.outputTokens', 'count', (v) => ({ usage: { outputTokens: v } })),
  field('fault.afterChars', 'count', (v) => ({ fault: { kind: 'stall', afterChars: v } })),
  field('fault.afterFrames', 'count', (v) => ({ fault: { kind: 'cut', afterFrames: v } })),
];
const statusField = field('status', 'status');

type Build = (options: Record<string, unknown>) => unknown;
/** Each builder, how to call it with options (a positional number is passed as an option here), its fields. */
const BUILDERS: [where: string, build: Build, fields: Field[]][] = [
  ['reply.text', (o) => reply.text('x', o), ANSWER],
  ['reply.toolCalls', (o) => reply.toolCalls([{ name: 'a' }], o), ANSWER],
  ['reply.toolCall', (o) => reply.toolCall('a', {}, o), ANSWER],
  [
    'fault.rateLimit',
    (o) => fault.rateLimit(o),
    [
      delayMs,
      field('retryAfterSeconds', 'headerNumber'),
      field('retryAfterMs', 'headerNumber'),
      field('limit', 'count'),
      field('used', 'count'),
      field('requested', 'count'),
    ],
  ],
  ['fault.insufficientQuota', (o) => fault.insufficientQuota(o), [delayMs]],
  ['fault.overloaded', (o) => fault.overloaded(o), [delayMs]],
  [
    'fault.serverError',
    ({ status = 500, ...o }) => fault.serverError(status as number, o),
    [delayMs, statusField],
  ],
  ['fault.unauthorized', (o) => fault.unauthorized(o), [delayMs]],
  ['fault.forbidden', (o) => fault.forbidden(o), [delayMs]],
  ['fault.notFound', (o) => fault.notFound(o), [delayMs]],
  [
    'fault.contextLengthExceeded',
    (o) => fault.contextLengthExceeded(o),
    [delayMs, field('maxTokens', 'count'), field('requestedTokens', 'count')],
  ],
  ['fault.http', ({ status = 200, ...o }) => fault.http(status as number, {}, {}, o), [delayMs, statusField]],
  ['fault.networkError', (o) => fault.networkError(o), [delayMs]],
  [
    'streamFault.cut',
    (o) => streamFault.cut(o as never),
    [field('afterChars', 'count'), field('afterFrames', 'count')],
  ],
  [
    'streamFault.responseFailed',
    (o) => streamFault.responseFailed({ afterChars: 0, ...o } as never),
    [
      field('afterChars', 'count'),
      field('rateLimit.retryAfterSeconds', 'headerNumber', (v) => ({ rateLimit: { retryAfterSeconds: v } })),
      field('rateLimit.limit', 'count', (v) => ({ rateLimit: { limit: v } })),
    ],
  ],
  ...(['stall', 'endEarly', 'error', 'garbled'] as const).map((name): [string, Build, Field[]] => [
    `streamFault.${name}`,
    (o) => streamFault[name]({ afterChars: 0, ...o } as never),
    [field('afterChars', 'count')],
  ]),
  // A hand-written step is checked when a transport gets the script, and named by its index and kind.
  ...(
    [
      ['text', { kind: 'text', text: 'x' }, ANSWER],
      ['toolCalls', { kind: 'toolCalls', calls: [{ name: 'a' }] }, ANSWER],
      ['http', { kind: 'http', status: 200, body: {} }, [delayMs, statusField]],
      ['networkError', { kind: 'networkError' }, [delayMs]],
      [
        'apiError',
        { kind: 'apiError', error: 'rateLimit' },
        [
          delayMs,
          field('retryAfterSeconds', 'headerNumber'),
          field('retryAfterMs', 'headerNumber'),
          field('limit', 'count'),
          field('used', 'count'),
          field('requested', 'count'),
        ],
      ],
      ['apiError', { kind: 'apiError', error: 'serverError', status: 500 }, [delayMs, statusField]],
      [
        'apiError',
        { kind: 'apiError', error: 'contextLengthExceeded' },
        [delayMs, field('maxTokens', 'count'), field('requestedTokens', 'count')],
      ],
    ] as const
  ).map(([kind, step, fields]): [string, Build, Field[]] => [
    `mock script step 1 (${kind})`,
    (o) => mockHandlers([reply.text('ok'), { ...step, ...o } as Step]),
    [...fields],
  ]),
];

const shown = (value: unknown) => (typeof value === 'string' ? JSON.stringify(value) : String(value));

const cases = BUILDERS.flatMap(([where, build, fields]) =>
  fields.map((f) => ({ where, build, ...f, name: `${where} ${f.field}` })),
);
const rejected = cases.flatMap((c) => KINDS[c.kind].bad.map((value) => ({ ...c, value })));
const accepted = cases.flatMap((c) => KINDS[c.kind].good.map((value) => ({ ...c, value })));

describe('numeric options are validated where they are given', () => {
  it.each(rejected)('$name = $value is refused', ({ where, build, field, kind, set, value }) => {
    const error = (() => {
      try {
        build(set(value));
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(typeof value === 'number' ? RangeError : TypeError);
    expect((error as Error).message).toBe(
      `${where}: option '${field}' must be ${KINDS[kind].rule}; got ${shown(value)}.`,
    );
  });

  it.each(accepted)('$name = $value is accepted', ({ build, set, value }) => {
    expect(() => build(set(value))).not.toThrow();
  });

  it('covers every field of every builder', () => {
    expect(new Set(cases.map((c) => c.where.replace(/^mock script .*/, 'script'))).size).toBe(20);
    expect(rejected.length).toBeGreaterThan(cases.length * 5);
  });

  it.each(KINDS.port.bad.map((value) => ({ where: 'startMockServer', start: startMockServer, value })))(
    '$where port = $value is refused before listening',
    async ({ where, start, value }) => {
      const started = start({ script: [], port: value as number });
      await expect(started).rejects.toThrow(typeof value === 'number' ? RangeError : TypeError);
      await expect(started).rejects.toThrow(
        `${where}: option 'port' must be ${KINDS.port.rule}; got ${shown(value)}.`,
      );
    },
  );

  it('startMockServer takes port 0 (any free port)', async () => {
    const mock = await startMockServer({ script: [], port: 0 });
    await mock.close();
  });

  it('a delay is accepted exactly when it is a timer-sized number of ms, by builders and scripts alike', () => {
    const byBuilder = (delayMs: number) => () => reply.text('x', { delayMs });
    const byScript = (delayMs: number) => () => mockHandlers([{ kind: 'text', text: 'x', delayMs }]);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: maxTimerMs }), (delayMs) => {
        expect(byBuilder(delayMs)).not.toThrow();
        expect(byScript(delayMs)).not.toThrow();
      }),
    );
    const outOfRange = fc.oneof(
      fc.double({ max: -Number.MIN_VALUE }),
      fc.double({ min: maxTimerMs + 1 }),
      fc.constant(Number.NaN),
    );
    fc.assert(
      fc.property(outOfRange, (delayMs) => {
        expect(byBuilder(delayMs)).toThrow(RangeError);
        expect(byBuilder(delayMs)).toThrow(/^reply\.text: option 'delayMs' must be a number of ms in/);
        expect(byScript(delayMs)).toThrow(RangeError);
        expect(byScript(delayMs)).toThrow(/^mock script step 0 \(text\): option 'delayMs' must be/);
      }),
    );
  });
});

describe('streamFault.endEarly finish', () => {
  it("takes 'other' or nothing; anything else is a TypeError naming the field, by builder and script alike", () => {
    expect(streamFault.endEarly({ afterChars: 0, finish: 'other' })).toEqual({
      kind: 'endEarly',
      afterChars: 0,
      finish: 'other',
    });
    const bad = { kind: 'endEarly', afterChars: 0, finish: 'stop' } as const;
    expect(() => streamFault.endEarly(bad as never)).toThrow(
      new TypeError("streamFault.endEarly: finish must be 'other' or left out, got stop"),
    );
    expect(() => mockHandlers([{ kind: 'text', text: 'x', fault: bad as never }])).toThrow(
      /^mock script step 0 \(text\): fault\.finish must be 'other' or left out, got stop$/,
    );
  });
});

describe('a misspelled option is a type error', () => {
  it('in every builder and transport (checked by tsc; never run)', () => {
    const typeChecks = () => [
      // @ts-expect-error delayMS is not an option
      reply.text('x', { delayMS: 5 }),
      // @ts-expect-error inputToken is not a usage field
      reply.text('x', { usage: { inputToken: 1 } }),
      // @ts-expect-error chunkChar is not an option
      reply.toolCalls([{ name: 'a' }], { chunkChar: 2 }),
      // @ts-expect-error frameDelay is not an option
      reply.toolCall('a', {}, { frameDelay: 1 }),
      // @ts-expect-error retryAfterSecond is not an option
      fault.rateLimit({ retryAfterSecond: 2 }),
      // @ts-expect-error delay is not an option
      fault.insufficientQuota({ delay: 1 }),
      // @ts-expect-error htm is not an option
      fault.serverError(503, { htm: true }),
      // @ts-expect-error delay is not an option
      fault.unauthorized({ delay: 1 }),
      // @ts-expect-error delay is not an option
      fault.forbidden({ delay: 1 }),
      // @ts-expect-error modle is not an option
      fault.notFound({ modle: 'm' }),
      // @ts-expect-error maxToken is not an option
      fault.contextLengthExceeded({ maxToken: 1 }),
      // @ts-expect-error delay is not an option
      fault.http(500, {}, {}, { delay: 1 }),
      // @ts-expect-error delayMS is not an option
      fault.networkError({ delayMS: 1 }),
      // @ts-expect-error afterChar is not a position
      streamFault.cut({ afterChar: 1 }),
      // @ts-expect-error a cut takes one position, not both
      streamFault.cut({ afterChars: 1, afterFrames: 1 }),
      // @ts-expect-error afterFrame is not a position
      streamFault.stall({ afterChars: 1, afterFrame: 2 }),
      // @ts-expect-error afterChar is not a position
      streamFault.endEarly({ afterChar: 1 }),
      // @ts-expect-error finish is 'other' or left out
      streamFault.endEarly({ afterChars: 1, finish: 'stop' }),
      // @ts-expect-error fromat is not an option
      streamFault.error({ afterChars: 0, fromat: 'openai' }),
      // @ts-expect-error afterChar is not a position
      streamFault.garbled({ afterChar: 1 }),
      // @ts-expect-error retryAfter is not an option (retryAfterSeconds is)
      fault.rateLimit({ retryAfter: 2 }),
      // @ts-expect-error failure is one of reset, refused, dns, timeout
      fault.networkError({ failure: 'econnreset' }),
      // @ts-expect-error code is one of the codes a response really fails with
      streamFault.responseFailed({ afterChars: 0, code: 'overloaded' }),
      // @ts-expect-error budget is tokens or requests
      streamFault.responseFailed({ afterChars: 0, rateLimit: { budget: 'tpm' } }),
      // @ts-expect-error prot is not an option
      startMockServer({ script: [], prot: 0 }),
      // @ts-expect-error baseUrl is not an option (baseURL is)
      mockHandlers([], { baseUrl: 'http://x' }),
      // @ts-expect-error baseURL is not an option (baseURLs, one per provider, is)
      mockHandlers([], { baseURL: 'http://x' }),
      // @ts-expect-error gemini is not a provider key (google is)
      mockHandlers([], { baseURLs: { gemini: 'http://x' } }),
      // @ts-expect-error prot is not an option
      startMockServer({ script: [], prot: 0 }),
      // @ts-expect-error reasoning text goes in text, not thinking
      reply.text('x', { reasoning: { thinking: 'hmm' } }),
      // @ts-expect-error fault.overloaded takes no status
      fault.overloaded({ status: 503 }),
      // The same calls spelled right compile.
      reply.text('x', { delayMs: 5, usage: { inputTokens: 1 } }),
      reply.toolCalls([{ name: 'a' }], { chunkChars: 2 }),
      reply.toolCall('a', {}, { frameDelayMs: 1, id: 'c' }),
      fault.rateLimit({ retryAfterSeconds: 2 }),
      fault.serverError(503, { html: true }),
      fault.notFound({ model: 'm' }),
      fault.contextLengthExceeded({ maxTokens: 1 }),
      fault.http(500, {}, {}, { delayMs: 1 }),
      streamFault.cut({ afterFrames: 1 }),
      streamFault.error({ afterChars: 0, format: 'openai' }),
      fault.rateLimit({ budget: 'requests', retryAfterHeader: false, rateLimitHeaders: false }),
      fault.networkError({ failure: 'dns' }),
      streamFault.responseFailed({ afterChars: 0, code: 'rate_limit_exceeded', rateLimit: { model: 'o3' } }),
      startMockServer({ script: [], port: 0 }),
      mockHandlers([], { baseURLs: { openai: 'http://x' } }),
      mockHandlers([], { baseURLs: { openai: 'http://x', anthropic: 'http://y', google: 'http://z' } }),
      startMockServer({ script: [], port: 0 }),
      reply.text('x', { reasoning: 'hmm' }),
      reply.toolCall('a', {}, { reasoning: { text: 'hmm', signature: 's' } }),
      reply.text('x', { reasoning: { redacted: 'data' } }),
      streamFault.error({ afterChars: 0, format: 'gemini', code: 'UNAVAILABLE' }),
      streamFault.endEarly({ afterChars: 0, finish: 'other' }),
    ];
    expect(typeChecks).toBeTypeOf('function');
  });
});
