/**
 * Failover (`fallbackModels`, `fallbackOn`, `modelBreaker`): which failures move a call to the next model, before
 * content and after it, the per-model breaker, and the error that names every model tried.
 */
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { APICallError, wrapLanguageModel } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import type {
  StreamGuardEvent,
  StreamGuardOptions,
} from '../../../../adapters/ai-sdk/stream-guard/options.js';
import { streamGuard } from '../../../../adapters/ai-sdk/stream-guard/stream-guard.js';
import { FailoverError } from '../../../../src/errors/failover-error.js';
import { InMemoryCoordination } from '../../../../src/policy/shared-cooldowns.js';
import type { AttemptRecord } from '../../../../src/stream/attempt-record.js';
import {
  apiError,
  finish,
  generated,
  type Part,
  preamble,
  scriptedModel,
  streamOf,
  textParts,
} from '../stream-guard-fixtures.js';

const answer = (text: string) => streamOf([...preamble('r'), ...textParts(text), finish()]);
const ids = {
  primary: { provider: 'openai.chat', modelId: 'gpt-4o' },
  fallback: { provider: 'anthropic.messages', modelId: 'claude-sonnet-4-5' },
  third: { provider: 'google.generative-ai', modelId: 'gemini-2.5-flash' },
};
let unique = 0;
/** Model ids no other test uses: breakers are per model identity, process-wide. */
const fresh = (id: { provider: string; modelId: string }) => ({
  ...id,
  modelId: `${id.modelId}-${++unique}`,
});

function guard(primary: ReturnType<typeof scriptedModel>, options: StreamGuardOptions) {
  const sleep = vi.fn(async (_ms: number) => {});
  const events: StreamGuardEvent[] = [];
  const wrapped = wrapLanguageModel({
    model: primary,
    middleware: streamGuard({ sleep, random: () => 0.5, onEvent: (e) => events.push(e), ...options }),
  });
  return { wrapped, sleep, events };
}

async function read(stream: ReadableStream<Part>): Promise<{ parts: Part[]; error?: unknown }> {
  const parts: Part[] = [];
  const reader = stream.getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) parts.push(next.value);
    return { parts };
  } catch (error) {
    return { parts, error };
  }
}

const textOf = (parts: Part[]) => parts.map((p) => (p.type === 'text-delta' ? p.delta : '')).join('');
const attemptsOf = (parts: Part[]) => {
  const done = parts.findLast((p) => p.type === 'finish');
  return (done?.type === 'finish'
    ? done.providerMetadata?.['graceful-ai']?.attempts
    : undefined) as unknown as AttemptRecord[] | undefined;
};

const overloaded = () => apiError(503);
const revokedKey = () =>
  new APICallError({
    message: 'Incorrect API key provided.',
    url: 'https://api.example/v1',
    requestBodyValues: {},
    statusCode: 401,
    isRetryable: false,
  });
const spentQuota = () =>
  new APICallError({
    message: 'You exceeded your current quota, please check your plan and billing details.',
    url: 'https://api.example/v1',
    requestBodyValues: {},
    statusCode: 429,
    isRetryable: true,
    data: { error: { code: 'insufficient_quota' } },
  });
const tooLong = () =>
  new APICallError({
    message: "This model's maximum context length is 128000 tokens.",
    url: 'https://api.example/v1',
    requestBodyValues: {},
    statusCode: 400,
    isRetryable: false,
    data: { error: { code: 'context_length_exceeded' } },
  });

describe('failover before content', () => {
  it('a primary that stays down: its own retries first, then the next model at once (not a retry); each attempt names its model', async () => {
    const primary = scriptedModel(
      [{ throws: overloaded() }, { throws: overloaded() }, { throws: overloaded() }],
      [],
      fresh(ids.primary),
    );
    const fallback = scriptedModel([answer('From the fallback.')], [], fresh(ids.fallback));
    const { wrapped, sleep, events } = guard(primary, { fallbackModels: [fallback], modelBreaker: false });
    const { parts } = await read((await wrapped.doStream({ prompt: [] })).stream);
    expect(textOf(parts)).toBe('From the fallback.');
    expect([primary.doStreamCalls.length, fallback.doStreamCalls.length]).toEqual([3, 1]);
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([1000, 2000]);
    expect(events.map((e) => e.type)).toEqual(['stream_retry', 'stream_retry', 'stream_failover']);
    expect(events[2]).toMatchObject({
      from: { provider: 'openai.chat', modelId: primary.modelId },
      to: { provider: 'anthropic.messages', modelId: fallback.modelId },
    });
    expect(attemptsOf(parts)?.map((a) => [a.model.provider, a.outcome])).toEqual([
      ['openai.chat', 'failed'],
      ['openai.chat', 'failed'],
      ['openai.chat', 'failed'],
      ['anthropic.messages', 'ok'],
    ]);
  });

  it('with maxRetries: 0 the first availability failure fails over: switching is not a retry', async () => {
    const primary = scriptedModel([{ throws: overloaded() }], [], fresh(ids.primary));
    const fallback = scriptedModel([answer('Hi.')], [], fresh(ids.fallback));
    const { wrapped, sleep } = guard(primary, {
      fallbackModels: [fallback],
      maxRetries: 0,
      modelBreaker: false,
    });
    expect(textOf((await read((await wrapped.doStream({ prompt: [] })).stream)).parts)).toBe('Hi.');
    expect(sleep).not.toHaveBeenCalled();
  });

  it('a 429 whose retry-after is longer than the call may wait fails over at once, without waiting', async () => {
    const limited = apiError(429, { headers: { 'retry-after': '600' } });
    const primary = scriptedModel([{ throws: limited }], [], fresh(ids.primary));
    const fallback = scriptedModel([answer('Hi.')], [], fresh(ids.fallback));
    const { wrapped, sleep } = guard(primary, { fallbackModels: [fallback], modelBreaker: false });
    expect(textOf((await read((await wrapped.doStream({ prompt: [] })).stream)).parts)).toBe('Hi.');
    expect(sleep).not.toHaveBeenCalled();
  });

  it.each([
    [
      'a network failure',
      () => ({ throws: Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } }) }),
    ],
    [
      'an in-band overloaded error part',
      () =>
        streamOf([
          ...preamble('r'),
          { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
        ]),
    ],
    ['a stream that ends without a finish', () => streamOf([...preamble('r')])],
    ['a stall (stallTimeoutMs)', () => new ReadableStream<Part>()],
  ])('%s before content fails over', async (_name, step) => {
    const primary = scriptedModel([step()], [], fresh(ids.primary));
    const fallback = scriptedModel([answer('Hi.')], [], fresh(ids.fallback));
    const { wrapped, events } = guard(primary, {
      fallbackModels: [fallback],
      maxRetries: 0,
      modelBreaker: false,
      stallTimeoutMs: 20,
    });
    expect(textOf((await read((await wrapped.doStream({ prompt: [] })).stream)).parts)).toBe('Hi.');
    expect(events.map((e) => e.type)).toEqual(['stream_failover']);
  });

  it.each([
    ['a context overflow (compaction, not another model)', tooLong],
    ['an invalid request', () => apiError(400)],
    ['a refused key (without fallbackOn)', revokedKey],
    ['a spent quota (without fallbackOn)', spentQuota],
  ])('%s does not fail over: the call fails with it, the fallback is never asked', async (_name, make) => {
    const error = make();
    const primary = scriptedModel([{ throws: error }], [], fresh(ids.primary));
    const fallback = scriptedModel([answer('never')], [], fresh(ids.fallback));
    const { wrapped } = guard(primary, { fallbackModels: [fallback], modelBreaker: false });
    const { error: failed } = await read((await wrapped.doStream({ prompt: [] })).stream);
    expect(failed).toBe(error);
    expect(fallback.doStreamCalls).toHaveLength(0);
  });

  it.each([
    ['auth', revokedKey],
    ['quota', spentQuota],
  ] as const)("fallbackOn: ['%s'] fails over on that kind too", async (kind, make) => {
    const primary = scriptedModel([{ throws: make() }], [], fresh(ids.primary));
    const fallback = scriptedModel([answer('Another key worked.')], [], fresh(ids.fallback));
    const { wrapped } = guard(primary, {
      fallbackModels: [fallback],
      fallbackOn: [kind],
      modelBreaker: false,
    });
    expect(textOf((await read((await wrapped.doStream({ prompt: [] })).stream)).parts)).toBe(
      'Another key worked.',
    );
  });

  it("the caller's abort never fails over", async () => {
    const controller = new AbortController();
    const primary = scriptedModel([], [], fresh(ids.primary));
    primary.doStream = async () => {
      controller.abort(new Error('user left'));
      throw overloaded();
    };
    const fallback = scriptedModel([answer('never')], [], fresh(ids.fallback));
    const { wrapped } = guard(primary, { fallbackModels: [fallback], modelBreaker: false });
    const { stream } = await wrapped.doStream({ prompt: [], abortSignal: controller.signal });
    await read(stream);
    expect(fallback.doStreamCalls).toHaveLength(0);
  });

  it('every model down: FailoverError names each model tried and why, the last failure as its cause', async () => {
    const primary = scriptedModel([{ throws: overloaded() }], [], fresh(ids.primary));
    const fallback = scriptedModel([{ throws: apiError(502) }], [], fresh(ids.fallback));
    const third = scriptedModel([{ throws: apiError(500) }], [], fresh(ids.third));
    const { wrapped, events } = guard(primary, {
      fallbackModels: [fallback, third],
      maxRetries: 0,
      modelBreaker: false,
    });
    const { error } = await read((await wrapped.doStream({ prompt: [] })).stream);
    expect(FailoverError.isInstance(error)).toBe(true);
    const failover = error as FailoverError;
    expect(failover.models.map((m) => [m.model.provider, m.reason])).toEqual([
      ['openai.chat', 'status:503'],
      ['anthropic.messages', 'status:502'],
      ['google.generative-ai', 'status:500'],
    ]);
    expect(failover.cause).toMatchObject({ statusCode: 500 });
    expect(failover.message).toMatch(
      /^Every model failed: openai\.chat:gpt-4o-\d+ \(status:503: HTTP 503\);/,
    );
    expect(events.map((e) => e.type)).toEqual(['stream_failover', 'stream_failover', 'stream_failed']);
  });

  it('non-streaming calls fail over the same way', async () => {
    const primary = scriptedModel([], [{ throws: overloaded() }], fresh(ids.primary));
    const fallback = scriptedModel([], [generated('Generated by the fallback.')], fresh(ids.fallback));
    const { wrapped } = guard(primary, { fallbackModels: [fallback], maxRetries: 0, modelBreaker: false });
    const result = await wrapped.doGenerate({ prompt: [] });
    expect(result.content).toEqual([{ type: 'text', text: 'Generated by the fallback.' }]);
  });
});

describe('failover after content', () => {
  const prompt: LanguageModelV4CallOptions['prompt'] = [
    { role: 'user', content: [{ type: 'text', text: 'Tell me.' }] },
  ];

  it('a cut whose recovery fails on the primary continues on the fallback: its prefill is the shown text, each character once', async () => {
    const cut = streamOf([...preamble('r1'), ...textParts('The quick brown', { open: true })], overloaded());
    const primary = scriptedModel([cut], [{ throws: overloaded() }], fresh(ids.primary));
    // The fallback is an Anthropic model: it continues a trailing assistant message (the prefill).
    const fallback = scriptedModel([], [generated(' fox jumps.')], fresh(ids.fallback));
    const { wrapped, events } = guard(primary, { fallbackModels: [fallback], modelBreaker: false });
    const { parts } = await read((await wrapped.doStream({ prompt })).stream);
    expect(textOf(parts)).toBe('The quick brown fox jumps.');
    expect(parts.some((p) => p.type === 'custom')).toBe(false);
    const sent = fallback.doGenerateCalls[0]!.prompt;
    expect(sent.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'The quick brown' }] });
    expect(events.map((e) => e.type)).toEqual(['stream_degraded', 'stream_failover']);
    expect(attemptsOf(parts)?.map((a) => [a.model.provider, a.mode, a.recovery ?? null, a.outcome])).toEqual([
      ['openai.chat', 'stream', null, 'failed'],
      ['openai.chat', 'generate', 'regenerate', 'failed'],
      ['anthropic.messages', 'generate', 'continue', 'ok'],
    ]);
  });

  it('a fallback that cannot continue answers anew: the reset path, each character of the final answer once', async () => {
    const cut = streamOf([...preamble('r1'), ...textParts('The quick', { open: true })], overloaded());
    const primary = scriptedModel([cut], [{ throws: overloaded() }], fresh(ids.primary));
    const fallback = scriptedModel([], [generated('A fox, quickly.')], fresh(ids.third));
    const { wrapped } = guard(primary, { fallbackModels: [fallback], modelBreaker: false });
    const { parts } = await read((await wrapped.doStream({ prompt })).stream);
    const reset = parts.findIndex((p) => p.type === 'custom');
    expect(reset).toBeGreaterThan(0);
    expect(textOf(parts.slice(reset))).toBe('A fox, quickly.');
  });

  it("a named continuation style is the primary provider's: a fallback of another provider continues as its own would", async () => {
    const run = async (fallbackId: { provider: string; modelId: string }) => {
      const cut = streamOf([...preamble('r1'), ...textParts('The quick', { open: true })], overloaded());
      const primary = scriptedModel(
        [cut],
        [{ throws: overloaded() }],
        fresh({ provider: 'deepseek.chat', modelId: 'deepseek-chat' }),
      );
      const fallback = scriptedModel([], [generated(' fox.')], fresh(fallbackId));
      const { wrapped } = guard(primary, {
        fallbackModels: [fallback],
        modelBreaker: false,
        continuation: 'prefix',
      });
      await read((await wrapped.doStream({ prompt })).stream);
      return fallback.doGenerateCalls[0]!.prompt.at(-1)?.role;
    };
    // Same provider: the prefill with DeepSeek's prefix flag. OpenAI would answer a trailing assistant message anew.
    expect(await run({ provider: 'deepseek.chat', modelId: 'deepseek-reasoner' })).toBe('assistant');
    expect(await run(ids.primary)).toBe('user');
  });

  it('reasoning signed by another provider is never sent to a fallback of another provider; the same family keeps it', async () => {
    const withReasoning: LanguageModelV4CallOptions['prompt'] = [
      ...prompt,
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Thinking…', providerOptions: { openai: { itemId: 'rs_1' } } },
          { type: 'text', text: 'Earlier answer.' },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'And now?' }] },
    ];
    const other = scriptedModel([answer('Hi.')], [], fresh(ids.fallback));
    const sameFamily = scriptedModel(
      [answer('Hi.')],
      [],
      fresh({ provider: 'openai.responses', modelId: 'gpt-5' }),
    );
    for (const fallback of [other, sameFamily]) {
      const primary = scriptedModel([{ throws: overloaded() }], [], fresh(ids.primary));
      const { wrapped } = guard(primary, { fallbackModels: [fallback], maxRetries: 0, modelBreaker: false });
      await read((await wrapped.doStream({ prompt: withReasoning })).stream);
    }
    const kinds = (model: typeof other) =>
      model.doStreamCalls[0]!.prompt.flatMap((m) =>
        m.role === 'assistant' ? m.content.map((c) => c.type) : [],
      );
    expect(kinds(other)).toEqual(['text']);
    expect(kinds(sameFamily)).toEqual(['reasoning', 'text']);
  });
});

describe('model breaker', () => {
  it('on by default with fallbacks: after failureThreshold failures the primary gets no request while open; after openMs, one trial', async () => {
    let now = 0;
    const clock = { now: () => now };
    const id = fresh(ids.primary);
    let primaryCalls = 0;
    const primary = scriptedModel([], [], id);
    primary.doStream = async () => {
      primaryCalls++;
      throw overloaded();
    };
    const fallback = scriptedModel([], [], fresh(ids.fallback));
    fallback.doStream = async () => ({ stream: answer('Fallback.') });
    const { wrapped, events } = guard(primary, {
      fallbackModels: [fallback],
      maxRetries: 0,
      clock,
      modelBreaker: { failureThreshold: 2, openMs: 10_000 },
    });
    for (let i = 0; i < 5; i++) await read((await wrapped.doStream({ prompt: [] })).stream);
    // Two failures open it; the three calls after it go straight to the fallback.
    expect(primaryCalls).toBe(2);
    expect(events.filter((e) => e.type === 'model_breaker')).toEqual([
      {
        type: 'model_breaker',
        model: { provider: 'openai.chat', modelId: id.modelId },
        from: 'closed',
        to: 'open',
      },
    ]);
    now = 10_000;
    await read((await wrapped.doStream({ prompt: [] })).stream);
    expect(primaryCalls).toBe(3);
    const skipped = events.filter((e) => e.type === 'stream_failover').at(-2);
    expect(skipped).toMatchObject({ attempt: { error: { name: 'CircuitOpenError' } } });
  });

  it('modelBreaker: false asks the primary every time', async () => {
    let primaryCalls = 0;
    const primary = scriptedModel([], [], fresh(ids.primary));
    primary.doStream = async () => {
      primaryCalls++;
      throw overloaded();
    };
    const fallback = scriptedModel([], [], fresh(ids.fallback));
    fallback.doStream = async () => ({ stream: answer('Fallback.') });
    const { wrapped } = guard(primary, { fallbackModels: [fallback], maxRetries: 0, modelBreaker: false });
    for (let i = 0; i < 8; i++) await read((await wrapped.doStream({ prompt: [] })).stream);
    expect(primaryCalls).toBe(8);
  });

  it('shared through the coordination: a guard that never called the primary skips it once another opened it', async () => {
    const coordination = new InMemoryCoordination();
    const id = fresh(ids.primary);
    let primaryCalls = 0;
    const primaryOf = () => {
      const model = scriptedModel([], [], id);
      model.doStream = async () => {
        primaryCalls++;
        throw overloaded();
      };
      return model;
    };
    const fallback = scriptedModel([], [], fresh(ids.fallback));
    fallback.doStream = async () => ({ stream: answer('Fallback.') });
    const options = {
      fallbackModels: [fallback],
      maxRetries: 0,
      coordination,
      modelBreaker: { failureThreshold: 1 },
    };
    const first = guard(primaryOf(), options);
    await read((await first.wrapped.doStream({ prompt: [] })).stream);
    const second = guard(primaryOf(), options);
    expect(textOf((await read((await second.wrapped.doStream({ prompt: [] })).stream)).parts)).toBe(
      'Fallback.',
    );
    expect(primaryCalls).toBe(1);
  });
});

describe('failover options are checked where they are given', () => {
  it.each([
    [{ fallbackModels: 'gpt-4o' }, TypeError, "option 'fallbackModels' must be an array of models"],
    [{ fallbackModels: [{}] }, TypeError, "option 'fallbackModels[0]' must be a language model"],
    [{ fallbackModels: [null] }, TypeError, "option 'fallbackModels[0]' must be a language model"],
    [{ fallbackOn: ['network'] }, TypeError, "option 'fallbackOn' must be an array of 'auth' and 'quota'"],
    [{ modelBreaker: { failureThreshold: 0 } }, RangeError, "option 'modelBreaker.failureThreshold'"],
    [{ modelBreaker: 5 }, TypeError, "option 'modelBreaker'"],
  ])('%j → %s', (options, type, message) => {
    expect(() => streamGuard(options as never)).toThrow(type);
    expect(() => streamGuard(options as never)).toThrow(message);
  });

  it('a model id string resolves through the global provider, as the SDK resolves it', async () => {
    const fallback = scriptedModel([answer('Resolved.')], [], fresh(ids.fallback));
    const provider = { languageModel: vi.fn(() => fallback) };
    const global = globalThis as { AI_SDK_DEFAULT_PROVIDER?: unknown };
    global.AI_SDK_DEFAULT_PROVIDER = provider;
    try {
      const primary = scriptedModel([{ throws: overloaded() }], [], fresh(ids.primary));
      const { wrapped } = guard(primary, { fallbackModels: ['anthropic/claude-sonnet-4-5'], maxRetries: 0 });
      expect(textOf((await read((await wrapped.doStream({ prompt: [] })).stream)).parts)).toBe('Resolved.');
      expect(provider.languageModel).toHaveBeenCalledWith('anthropic/claude-sonnet-4-5');
    } finally {
      delete global.AI_SDK_DEFAULT_PROVIDER;
    }
  });
});
