/**
 * Every numeric option of the AI SDK adapter is checked where it is given (when a tool is wrapped, a guard or
 * session is built, a drop-in call starts), before any request: a number outside its rule is a `RangeError`,
 * anything else a `TypeError`, and the message names the option with its prefix (`autoRetry.maxRetries`,
 * `streamGuard.maxRetries`, `settings.retry.maxRetries`, `breaker.openMs`). Also the regressions that motivated it:
 * 0.1 took a guard's `maxRetries: NaN` as "retry forever" and a drop-in's `maxRetries: NaN` sent 50 requests.
 */
import { PassThrough } from 'node:stream';
import { isStepCount, jsonSchema, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it, vi } from 'vitest';
import { generateText } from '../../../adapters/ai-sdk/drop-in/generate-text.js';
import { streamText } from '../../../adapters/ai-sdk/drop-in/stream-text.js';
import { AgentSession } from '../../../adapters/ai-sdk/session/agent-session.js';
import { streamGuard } from '../../../adapters/ai-sdk/stream-guard/stream-guard.js';
import { gracefulRepairToolCall } from '../../../adapters/ai-sdk/tools/graceful-repair-tool-call.js';
import { gracefulTool, gracefulTools } from '../../../adapters/ai-sdk/tools/graceful-tool.js';
import { type TurnDeadlineRun, withTurnDeadline } from '../../../adapters/ai-sdk/tools/turn-deadline.js';
import { RpcClient } from '../../../adapters/rpc/client.js';
import { JsonlSessionStore } from '../../../src/session/jsonl-store.js';
import {
  breakerFields,
  describeOptionFamilies,
  expectRefused,
  type Family,
  type Field,
  field,
  KINDS,
  message,
  retryFields,
  thirtyDaysMs,
  timerKinds,
} from '../../src/policy/option-rules.js';
import { scriptedModel } from './scripted-model.js';
import { apiError } from './stream-guard-fixtures.js';

const schema = jsonSchema<{ city?: string }>({ type: 'object', properties: { city: { type: 'string' } } });
const weather = tool({ inputSchema: schema, execute: async () => 'sunny' });
const providerTool = tool({ inputSchema: schema });
const answering = () => scriptedModel(() => ({ text: 'ok' }));
type StreamResult = ReturnType<typeof streamText>;

/** `gracefulTool` options and `gracefulTools` defaults: the model-visible ones and every resilience layer's. */
const toolFields = (pathPrefix = ''): Field[] => [
  field('retries', 'count', `${pathPrefix}retries`),
  field('maxErrorChars', 'errorChars', `${pathPrefix}maxErrorChars`),
  field('timeoutMs', 'timeoutMs', `${pathPrefix}timeoutMs`),
  field('graceful', 'boolean', `${pathPrefix}graceful`),
  field('idempotent', 'boolean', `${pathPrefix}idempotent`),
  ...retryFields('autoRetry.', `${pathPrefix}autoRetry.`),
  ...breakerFields(`${pathPrefix}breaker.`),
];

/** `streamGuard()` options; the drop-ins name them `streamGuard.<option>`. */
const guardFields = (prefix = ''): Field[] => [
  field(`${prefix}maxRetries`, 'count'),
  field(`${prefix}initialDelayMs`, 'delayMs'),
  field(`${prefix}multiplier`, 'multiplier'),
  field(`${prefix}maxDelayMs`, 'delayMs'),
  field(`${prefix}jitter`, 'jitter'),
  field(`${prefix}maxRetryAfterMs`, 'delayMs'),
  field(`${prefix}stallTimeoutMs`, 'timeoutMs'),
  field(`${prefix}degrade`, 'boolean'),
];

/** The drop-ins' own options, the guard's under `streamGuard.`, and the SDK's chunk timeout the guard takes over. */
const dropInFields: Field[] = [
  field('maxRetries', 'count'),
  field('turnTimeoutMs', 'timeoutMs'),
  field('timeout.chunkMs', 'timeoutMs'),
  // The SDK's own timers, which it does not check (a 30-day limit would fire after ~1 ms).
  field('timeout.totalMs', 'callTimeoutMs'),
  field('timeout.stepMs', 'callTimeoutMs'),
  field('timeout.firstChunkMs', 'callTimeoutMs'),
  field('timeout.toolMs', 'callTimeoutMs'),
  field('timeout.tools.weatherMs', 'callTimeoutMs'),
  ...guardFields('streamGuard.'),
];

/** The SDK's own timeouts, which the drop-ins check for it (the SDK does not): each becomes a timer. */
const sdkTimeouts = [
  'timeout.totalMs',
  'timeout.stepMs',
  'timeout.firstChunkMs',
  'timeout.toolMs',
  'timeout.tools.weatherMs',
];

const FAMILIES: Family[] = [
  { where: 'gracefulTool', sync: true, call: (o) => gracefulTool(weather, o), fields: toolFields() },
  {
    where: 'gracefulTool (a tool without execute)',
    sync: true,
    call: (o) => gracefulTool(providerTool, o),
    fields: toolFields(),
  },
  { where: 'gracefulTools', sync: true, call: (o) => gracefulTools({ weather }, o), fields: toolFields() },
  {
    where: 'gracefulTools (an empty set)',
    sync: true,
    call: (o) => gracefulTools({}, o),
    fields: toolFields(),
  },
  {
    where: 'gracefulRepairToolCall',
    sync: true,
    call: (o) => gracefulRepairToolCall(o),
    fields: [field('retries', 'count'), field('maxErrorChars', 'errorChars')],
  },
  { where: 'streamGuard', sync: true, call: (o) => streamGuard(o), fields: guardFields() },
  {
    where: 'streamText (drop-in)',
    sync: true,
    base: { prompt: 'hi' },
    call: (o) => streamText({ model: answering(), ...o } as never),
    fields: dropInFields,
    dispose: (result) => (result as StreamResult).consumeStream(),
  },
  {
    where: 'generateText (drop-in)',
    sync: false,
    base: { prompt: 'hi' },
    call: (o) => generateText({ model: answering(), ...o } as never),
    fields: dropInFields,
  },
  {
    where: 'streamText (drop-in) gracefulTools',
    sync: true,
    base: { prompt: 'hi', tools: { weather } },
    call: (o) => streamText({ model: answering(), ...o } as never),
    // The defaults are named as in `gracefulTools` (no prefix: the drop-in has no options of these names).
    fields: toolFields('gracefulTools.'),
    dispose: (result) => (result as StreamResult).consumeStream(),
  },
  {
    where: 'withTurnDeadline',
    sync: true,
    call: (o) => withTurnDeadline({}, o),
    fields: [field('turnTimeoutMs', 'timeoutMs')],
    dispose: (run) => (run as TurnDeadlineRun<object>).close(),
  },
  {
    where: 'AgentSession',
    sync: true,
    call: (o) => new AgentSession({ model: answering(), ...o }),
    fields: (
      [
        ['enabled', 'boolean'],
        ['maxRetries', 'count'],
        ['initialDelayMs', 'delayMs'],
        ['multiplier', 'multiplier'],
        ['jitter', 'jitter'],
        ['maxDelayMs', 'delayMs'],
        ['maxRetryAfterMs', 'delayMs'],
      ] as const
    )
      .map(([name, kind]) => field(`settings.retry.${name}`, kind))
      .concat(
        // `callOptions` are checked when the session is built, not when its first turn runs.
        field('callOptions.turnTimeoutMs', 'timeoutMs'),
        field('callOptions.timeout.chunkMs', 'timeoutMs'),
        field('callOptions.streamGuard.maxRetries', 'count'),
        field('callOptions.streamGuard.stallTimeoutMs', 'timeoutMs'),
        ...sdkTimeouts.map((name) => field(`callOptions.${name}`, 'timeoutMs')),
      ),
  },
];

const { all } = describeOptionFamilies(
  'adapter options: every numeric option is checked where it is given',
  FAMILIES,
  4 * 15 + 2 + 8 + 2 * 16 + 15 + 1 + 7 + 9,
  5,
);

describe('adapter options: a value of the wrong type is a TypeError naming the option', () => {
  const objectOrFalse = 'an options object or false';
  const clockRule = 'an object with a now() method';
  type TypeCase = { where: string; option: string; rule: string; value: unknown; call: () => unknown };
  const typeCases: TypeCase[] = [
    ...['x', 5, null, true].map((value) => ({
      where: 'gracefulTool',
      option: 'autoRetry',
      rule: objectOrFalse,
      value,
      call: () => gracefulTool(weather, { autoRetry: value as never }),
    })),
    // `breaker: 5` used to pass: the wrapper spread it into `{ store }` before anything looked at it.
    ...[5, 'x', true, null].map((value) => ({
      where: 'gracefulTool',
      option: 'breaker',
      rule: objectOrFalse,
      value,
      call: () => gracefulTool(weather, { breaker: value as never }),
    })),
    ...[5, 'fast'].map((value) => ({
      where: 'gracefulTool',
      option: 'runtime',
      rule: 'an options object',
      value,
      call: () => gracefulTool(weather, { runtime: value as never }),
    })),
    {
      where: 'gracefulTool',
      option: 'runtime.clock',
      rule: clockRule,
      value: 5,
      call: () => gracefulTool(weather, { runtime: { clock: 5 as never } }),
    },
    {
      where: 'gracefulTool',
      option: 'runtime.sleep',
      rule: 'a function',
      value: 'x',
      call: () => gracefulTool(weather, { runtime: { sleep: 'x' as never } }),
    },
    {
      where: 'gracefulTool',
      option: 'runtime.random',
      rule: 'a function',
      value: 0.5,
      call: () => gracefulTool(weather, { runtime: { random: 0.5 as never } }),
    },
    {
      where: 'gracefulTool',
      option: 'gracefulTool options',
      rule: 'an options object',
      value: 3,
      call: () => gracefulTool(weather, 3 as never),
    },
    {
      where: 'gracefulTools',
      option: 'gracefulTools defaults',
      rule: 'an options object',
      value: 3,
      call: () => gracefulTools({ weather }, 3 as never),
    },
    {
      where: 'gracefulRepairToolCall',
      option: 'repair',
      rule: 'a function',
      value: 'fix',
      call: () => gracefulRepairToolCall({ repair: 'fix' as never }),
    },
    {
      where: 'streamGuard',
      option: 'streamGuard',
      rule: 'an options object',
      value: 2,
      call: () => streamGuard(2 as never),
    },
    {
      where: 'streamGuard',
      option: 'clock',
      rule: clockRule,
      value: 5,
      call: () => streamGuard({ clock: 5 as never }),
    },
    {
      where: 'streamGuard',
      option: 'onEvent',
      rule: 'a function',
      value: 'log',
      call: () => streamGuard({ onEvent: 'log' as never }),
    },
    {
      where: 'streamText (drop-in)',
      option: 'streamGuard',
      rule: objectOrFalse,
      value: 2,
      call: () => streamText({ model: answering(), prompt: 'hi', streamGuard: 2 as never }),
    },
    {
      where: 'streamText (drop-in)',
      option: 'streamGuard.sleep',
      rule: 'a function',
      value: 10,
      call: () => streamText({ model: answering(), prompt: 'hi', streamGuard: { sleep: 10 as never } }),
    },
    {
      where: 'streamText (drop-in)',
      option: 'gracefulTools',
      rule: objectOrFalse,
      value: true,
      call: () => streamText({ model: answering(), prompt: 'hi', gracefulTools: true as never }),
    },
    {
      where: 'streamText (drop-in)',
      option: 'onTurnDeadline',
      rule: 'a function',
      value: 'log',
      call: () => streamText({ model: answering(), prompt: 'hi', onTurnDeadline: 'log' as never }),
    },
    {
      where: 'withTurnDeadline',
      option: 'onTurnDeadline',
      rule: 'a function',
      value: 1,
      call: () => withTurnDeadline({}, { onTurnDeadline: 1 as never }),
    },
    {
      where: 'AgentSession',
      option: 'settings',
      rule: 'an options object',
      value: 5,
      call: () => new AgentSession({ model: answering(), settings: 5 as never }),
    },
    {
      where: 'AgentSession',
      option: 'settings.retry',
      rule: 'an options object',
      value: 3,
      call: () => new AgentSession({ model: answering(), settings: { retry: 3 as never } }),
    },
    {
      where: 'AgentSession',
      option: 'onUsageLimit',
      rule: 'a function',
      value: 'switch',
      call: () => new AgentSession({ model: answering(), onUsageLimit: 'switch' as never }),
    },
    {
      where: 'AgentSession',
      option: 'stopWhen',
      rule: 'a function',
      value: 20,
      call: () => new AgentSession({ model: answering(), stopWhen: 20 as never }),
    },
    {
      where: 'AgentSession',
      option: 'stopWhen[1]',
      rule: 'a function',
      value: 20,
      call: () => new AgentSession({ model: answering(), stopWhen: [isStepCount(5), 20 as never] }),
    },
    {
      where: 'AgentSession',
      option: 'callOptions',
      rule: 'an options object',
      value: 'x',
      call: () => new AgentSession({ model: answering(), callOptions: 'x' as never }),
    },
    {
      where: 'AgentSession',
      option: 'clock',
      rule: clockRule,
      value: 5,
      call: () => new AgentSession({ model: answering(), clock: 5 as never }),
    },
    {
      where: 'AgentSession',
      option: 'sleep',
      rule: 'a function',
      value: 5,
      call: () => new AgentSession({ model: answering(), sleep: 5 as never }),
    },
    {
      where: 'AgentSession.setAutoRetryEnabled',
      option: 'enabled',
      rule: 'true or false',
      value: 'no',
      call: () => new AgentSession({ model: answering() }).setAutoRetryEnabled('no' as never),
    },
    {
      where: 'JsonlSessionStore',
      option: 'isProcessAlive',
      rule: 'a function',
      value: true,
      // Checked before the file or its lock is touched (the directory does not exist).
      call: () =>
        new JsonlSessionStore('/nonexistent/graceful-ai/session.jsonl', { isProcessAlive: true as never }),
    },
  ];

  it.each(typeCases)('$where: $option = $value', ({ call, option, rule, value }) => {
    expect(call).toThrow(TypeError);
    expect(call).toThrow(message(option, rule, value));
  });

  it.each([
    ['a number', 5],
    ['a string', 'backup'],
    ['an object that is no tool', {}],
    ['a tool without execute', providerTool],
    ['{ name } without a tool', { name: 'backup' }],
    ['{ name, tool } whose name is no string', { name: 5, tool: weather }],
    ['{ name, tool } whose tool has no execute', { name: 'backup', tool: providerTool }],
  ])(
    'gracefulTool: fallback = %s is a TypeError naming fallback (it could never answer)',
    (_label, fallback) => {
      const call = () => gracefulTool(weather, { fallback: fallback as never });
      expect(call).toThrow(TypeError);
      expect(call).toThrow(
        /^graceful-ai: option 'fallback' must be a tool with an execute function, or \{ name: string, tool \}/,
      );
    },
  );

  it('gracefulTool: a tool or { name, tool } is a valid fallback', () => {
    expect(() => gracefulTool(weather, { fallback: weather })).not.toThrow();
    expect(() =>
      gracefulTool(weather, { fallback: { name: 'weather_backup', tool: weather } }),
    ).not.toThrow();
  });
});

describe('adapter options: the issue’s regressions', () => {
  it('streamGuard({ maxRetries: NaN }) throws at once (0.1 retried a 503 over 200 times)', () => {
    const call = () => streamGuard({ maxRetries: Number.NaN });
    expect(call).toThrow(RangeError);
    expect(call).toThrow(message('maxRetries', KINDS.count.rule, Number.NaN));
  });

  it('streamGuard({ maxRetries: 2 }) sends exactly 3 requests on a lasting 503', async () => {
    const doStream = vi.fn(async () => {
      throw apiError(503);
    });
    const result = streamText({
      model: new MockLanguageModelV4({ doStream }),
      prompt: 'hi',
      streamGuard: { maxRetries: 2, sleep: async () => {} },
    });
    await result.consumeStream();
    expect(doStream).toHaveBeenCalledTimes(3);
  });

  it('drop-in streamText({ model, prompt, maxRetries: NaN }) throws a RangeError before any request (0.1 sent 50)', () => {
    const doStream = vi.fn();
    const model = new MockLanguageModelV4({ doStream });
    const call = () => streamText({ model, prompt: 'hi', maxRetries: Number.NaN });
    expect(call).toThrow(RangeError);
    expect(call).toThrow(message('maxRetries', KINDS.count.rule, Number.NaN));
    expect(doStream).not.toHaveBeenCalled();
  });

  it('drop-in generateText({ model, prompt, maxRetries: NaN }) rejects before any request', async () => {
    const doGenerate = vi.fn();
    const model = new MockLanguageModelV4({ doGenerate });
    await expect(generateText({ model, prompt: 'hi', maxRetries: Number.NaN })).rejects.toThrow(RangeError);
    expect(doGenerate).not.toHaveBeenCalled();
  });

  it('drop-in streamGuard: { maxRetries: NaN } is named streamGuard.maxRetries, not the call’s maxRetries', () => {
    const doStream = vi.fn();
    const call = () =>
      streamText({
        model: new MockLanguageModelV4({ doStream }),
        prompt: 'hi',
        streamGuard: { maxRetries: -1 },
      });
    expect(call).toThrow(message('streamGuard.maxRetries', KINDS.count.rule, -1));
    expect(doStream).not.toHaveBeenCalled();
  });

  it.each([Number.NaN, -1, 1.5, Number.POSITIVE_INFINITY])(
    'gracefulTool(t, { retries: %s }) throws',
    (retries) => {
      const call = () => gracefulTool(weather, { retries });
      expect(call).toThrow(RangeError);
      expect(call).toThrow(message('retries', KINDS.count.rule, retries));
    },
  );

  it('gracefulRepairToolCall({ retries: -1 }) throws', () => {
    const call = () => gracefulRepairToolCall({ retries: -1 });
    expect(call).toThrow(RangeError);
    expect(call).toThrow(message('retries', KINDS.count.rule, -1));
  });

  it('a 30-day timeout or delay (2 592 000 000 ms > 2^31−1) is refused by every option that becomes a timer', async () => {
    const timers = all.filter((c) => timerKinds.includes(c.kind));
    expect(timers.map((c) => c.label)).toEqual(
      expect.arrayContaining([
        'gracefulTool timeoutMs',
        'gracefulTool autoRetry.initialDelayMs',
        'gracefulTool breaker.openMs',
        'streamGuard stallTimeoutMs',
        'streamGuard maxRetryAfterMs',
        'streamText (drop-in) turnTimeoutMs',
        'streamText (drop-in) timeout.chunkMs',
        'streamText (drop-in) timeout.totalMs',
        'streamText (drop-in) timeout.tools.weatherMs',
        'generateText (drop-in) timeout.firstChunkMs',
        'generateText (drop-in) streamGuard.stallTimeoutMs',
        'withTurnDeadline turnTimeoutMs',
        'AgentSession settings.retry.maxDelayMs',
        'AgentSession callOptions.timeout.totalMs',
        'AgentSession callOptions.turnTimeoutMs',
      ]),
    );
    for (const { family, ...f } of timers) await expectRefused(family, f, thirtyDaysMs);
    await expect(
      new RpcClient({ input: new PassThrough(), output: new PassThrough() }).close(thirtyDaysMs),
    ).rejects.toThrow(message('timeoutMs', KINDS.timeoutMs.rule, thirtyDaysMs));
  });

  it('the drop-ins refuse a 30-day `timeout` given as a number, and a `timeout.tools` that is no object', async () => {
    const call = (timeout: unknown) => () =>
      streamText({ model: answering(), prompt: 'hi', timeout } as never).consumeStream();
    expect(call(thirtyDaysMs)).toThrow(
      new RangeError(message('timeout', KINDS.timeoutMs.rule, thirtyDaysMs)),
    );
    expect(call({ tools: 5 })).toThrow(new TypeError(message('timeout.tools', 'an options object', 5)));
    await expect(generateText({ model: answering(), prompt: 'hi', timeout: thirtyDaysMs })).rejects.toThrow(
      message('timeout', KINDS.timeoutMs.rule, thirtyDaysMs),
    );
    await call(60_000)();
    await call({ totalMs: 60_000, tools: { weatherMs: 1000 } })();
  });

  it("the SDK's own timeouts are refused above 2^31−1 ms by the drop-ins and AgentSession (the SDK fires them at once)", () => {
    for (const path of ['timeout', ...sdkTimeouts]) {
      const [, ...inner] = path.split('.');
      let timeout: unknown = thirtyDaysMs;
      for (const key of inner.reverse()) timeout = { [key]: timeout };
      const doStream = vi.fn();
      expect(() =>
        streamText({ model: new MockLanguageModelV4({ doStream }), prompt: 'hi', timeout: timeout as never }),
      ).toThrow(new RangeError(message(path, KINDS.timeoutMs.rule, thirtyDaysMs)));
      expect(doStream).not.toHaveBeenCalled();
      expect(
        () => new AgentSession({ model: answering(), callOptions: { timeout: timeout as never } }),
      ).toThrow(new RangeError(message(`callOptions.${path}`, KINDS.timeoutMs.rule, thirtyDaysMs)));
    }
    expect(() => new AgentSession({ model: answering(), callOptions: { timeout: 'soon' as never } })).toThrow(
      new TypeError(message('callOptions.timeout', KINDS.timeoutMs.rule, 'soon')),
    );
  });

  it("gracefulTool(t, { autoRetry: 'x' }) and gracefulTool(t, { breaker: 5 }) are TypeErrors", () => {
    expect(() => gracefulTool(weather, { autoRetry: 'x' as never })).toThrow(
      new TypeError(message('autoRetry', 'an options object or false', 'x')),
    );
    expect(() => gracefulTool(weather, { breaker: 5 as never })).toThrow(
      new TypeError(message('breaker', 'an options object or false', 5)),
    );
  });

  it('timeoutMs: NaN or 0 is refused even when every other layer is off (it used to mean "no timeout")', () => {
    for (const timeoutMs of [Number.NaN, 0]) {
      const call = () => gracefulTool(weather, { autoRetry: false, breaker: false, timeoutMs });
      expect(call).toThrow(RangeError);
      expect(call).toThrow(message('timeoutMs', KINDS.timeoutMs.rule, timeoutMs));
    }
  });

  it('a bad drop-in option starts no turn deadline timer and sends nothing', () => {
    const sleep = vi.spyOn(globalThis, 'setTimeout');
    const doStream = vi.fn();
    try {
      expect(() =>
        streamText({
          model: new MockLanguageModelV4({ doStream }),
          prompt: 'hi',
          timeout: { chunkMs: thirtyDaysMs },
        }),
      ).toThrow(message('timeout.chunkMs', KINDS.timeoutMs.rule, thirtyDaysMs));
      expect(sleep).not.toHaveBeenCalled();
      expect(doStream).not.toHaveBeenCalled();
    } finally {
      sleep.mockRestore();
    }
  });

  it.each([Number.NaN, 0, -1, '2000'])(
    'RpcClient.close(%s) refuses a bad kill timeout',
    async (timeoutMs) => {
      const client = new RpcClient({ input: new PassThrough(), output: new PassThrough() });
      await expect(client.close(timeoutMs as number)).rejects.toThrow(
        typeof timeoutMs === 'number' ? RangeError : TypeError,
      );
      await client.close();
    },
  );
});

describe('adapter options: coordination is checked where it is given', () => {
  const notOne = { beforeCall() {} } as never;
  it.each([
    ['streamGuard', 'coordination', () => streamGuard({ coordination: notOne })],
    [
      'streamText (drop-in)',
      'coordination',
      () => streamText({ model: answering(), prompt: 'hi', coordination: notOne }),
    ],
    [
      'streamText (drop-in)',
      'streamGuard.coordination',
      () => streamText({ model: answering(), prompt: 'hi', streamGuard: { coordination: notOne } }),
    ],
    ['gracefulTool', 'coordination', () => gracefulTool(weather, { coordination: notOne })],
    ['AgentSession', 'coordination', () => new AgentSession({ model: answering(), coordination: notOne })],
    // Checked when the session is built, not when its first turn runs.
    [
      'AgentSession',
      'callOptions.coordination',
      () => new AgentSession({ model: answering(), callOptions: { coordination: notOne } }),
    ],
  ])('%s: %s', (_where, option, call) => {
    expect(call).toThrow(TypeError);
    expect(call).toThrow(`option '${option}' must be a coordination (beforeCall and coolDown methods)`);
  });
});
