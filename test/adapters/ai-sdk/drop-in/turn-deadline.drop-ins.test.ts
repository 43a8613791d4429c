import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { isStepCount, jsonSchema, type ToolSet, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { generateText } from '../../../../adapters/ai-sdk/drop-in/generate-text.js';
import { streamText } from '../../../../adapters/ai-sdk/drop-in/stream-text.js';
import type { TurnDeadlineReport } from '../../../../src/policy/turn-deadline.js';
import { scriptedModel } from '../scripted-model.js';

const schema = jsonSchema<Record<string, never>>({ type: 'object', properties: {} });
const badRequest = () => Object.assign(new Error('bad request'), { status: 400 });

/** A tool that never settles unless its signal aborts (then it rejects with the reason). */
const hanging = () =>
  vi.fn(
    (_input: Record<string, never>, { abortSignal }: { abortSignal?: AbortSignal }) =>
      new Promise<string>((_resolve, reject) =>
        abortSignal?.addEventListener('abort', () => reject(abortSignal.reason)),
      ),
  );

/** Calls `lookup` on the first step, then answers. */
const toolThenAnswer = () =>
  scriptedModel((step) => (step === 0 ? { calls: [['lookup', {}, 'c0']] } : { text: 'final answer' }));

/** A model whose call fails (permanent: the guard does not retry it). */
const failingModel = () =>
  new MockLanguageModelV4({
    doGenerate: async () => {
      throw badRequest();
    },
    doStream: async () => {
      throw badRequest();
    },
  });

/** A model whose call hangs until the caller aborts. */
const hangingModel = () => {
  const wait = ({ abortSignal }: LanguageModelV4CallOptions) =>
    new Promise<never>((_resolve, reject) =>
      abortSignal?.addEventListener('abort', () => reject(abortSignal.reason)),
    );
  return new MockLanguageModelV4({ doGenerate: wait, doStream: wait });
};

type Options = Parameters<typeof generateText<ToolSet>>[0] & Parameters<typeof streamText<ToolSet>>[0];

/** Runs one drop-in to its answer: `generateText`'s promise, or `streamText`'s `text`. */
const drop = {
  generateText: async (options: Options) => (await generateText(options)).text,
  streamText: (options: Options) => Promise.resolve(streamText(options).text),
};

/** Lets zero-delay timers (simulated streams) run without reaching any deadline. */
const settle = <T>(promise: Promise<T>): Promise<PromiseSettledResult<T>> => {
  const settled = Promise.allSettled([promise]).then(([r]) => r!);
  return vi.advanceTimersByTimeAsync(100).then(() => settled);
};

describe.each(['generateText', 'streamText'] as const)('drop-in %s: the turn deadline', (api) => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('on an answer the timer is stopped and onTurnDeadline reports once', async () => {
    const onTurnDeadline = vi.fn((_report: TurnDeadlineReport) => {});
    const pending = drop[api]({
      model: toolThenAnswer(),
      prompt: 'go',
      maxRetries: 0,
      stopWhen: isStepCount(3),
      tools: { lookup: tool({ inputSchema: schema, execute: async () => 'found' }) },
      onTurnDeadline,
    });
    expect(vi.getTimerCount()).toBeGreaterThan(0);
    expect(await settle(pending)).toEqual({ status: 'fulfilled', value: 'final answer' });
    expect(vi.getTimerCount()).toBe(0);
    expect(onTurnDeadline.mock.calls).toEqual([
      [{ expired: false, completed: ['lookup#c0'], timedOut: [], skipped: [] }],
    ]);
  });

  it('a failing model call: the run fails, the timer is stopped, the report is given', async () => {
    const onTurnDeadline = vi.fn();
    const outcome = await settle(
      drop[api]({ model: failingModel(), prompt: 'go', maxRetries: 0, onTurnDeadline, onError: () => {} }),
    );
    expect(outcome.status).toBe('rejected');
    expect(vi.getTimerCount()).toBe(0);
    expect(onTurnDeadline).toHaveBeenCalledOnce();
  });

  it('the caller aborts: the run fails, the timer is stopped, the report is given', async () => {
    const onTurnDeadline = vi.fn();
    const abort = new AbortController();
    const pending = drop[api]({
      model: hangingModel(),
      prompt: 'go',
      maxRetries: 0,
      abortSignal: abort.signal,
      onTurnDeadline,
    });
    await vi.advanceTimersByTimeAsync(10);
    abort.abort(new Error('user cancelled'));
    expect((await settle(pending)).status).toBe('rejected');
    expect(vi.getTimerCount()).toBe(0);
    expect(onTurnDeadline).toHaveBeenCalledOnce();
  });

  it('a loud tool failure (graceful: false) fails the run and still stops the timer', async () => {
    const outcome = await settle(
      drop[api]({
        model: toolThenAnswer(),
        prompt: 'go',
        maxRetries: 0,
        stopWhen: isStepCount(3),
        tools: {
          lookup: tool({
            inputSchema: schema,
            execute: async (): Promise<string> => {
              throw badRequest();
            },
          }),
        },
        gracefulTools: { graceful: false },
        onError: () => {},
      }),
    );
    expect(outcome).toMatchObject({ status: 'rejected', reason: { message: 'bad request' } });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('defaults to 300 s: a hanging tool is abandoned then, and the model answers without tools', async () => {
    const onTurnDeadline = vi.fn();
    const lookup = hanging();
    const pending = drop[api]({
      model: toolThenAnswer(),
      prompt: 'go',
      maxRetries: 0,
      tools: { lookup: tool({ inputSchema: schema, execute: lookup }) },
      onTurnDeadline,
    });
    await vi.advanceTimersByTimeAsync(299_999);
    expect(lookup).toHaveBeenCalledOnce();
    expect(onTurnDeadline).not.toHaveBeenCalled();
    expect(await settle(pending)).toEqual({ status: 'fulfilled', value: 'final answer' });
    expect(onTurnDeadline.mock.calls).toEqual([
      [{ expired: true, completed: [], timedOut: ['lookup#c0'], skipped: [] }],
    ]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('turnTimeoutMs: false turns it off: no timer, no report, the tool runs until the caller aborts', async () => {
    const onTurnDeadline = vi.fn();
    const lookup = hanging();
    const abort = new AbortController();
    const pending = drop[api]({
      model: toolThenAnswer(),
      prompt: 'go',
      maxRetries: 0,
      abortSignal: abort.signal,
      tools: { lookup: tool({ inputSchema: schema, execute: lookup }) },
      turnTimeoutMs: false,
      onTurnDeadline,
      onError: () => {},
    });
    await vi.advanceTimersByTimeAsync(100);
    expect(lookup).toHaveBeenCalledOnce();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(600_000);
    abort.abort(new Error('user cancelled'));
    await settle(pending);
    expect(onTurnDeadline).not.toHaveBeenCalled();
  });

  it.each([-1, 0, Number.NaN, Number.POSITIVE_INFINITY])(
    'turnTimeoutMs: %s is a RangeError naming the option, before any request',
    async (turnTimeoutMs) => {
      const model = toolThenAnswer();
      const call = () => drop[api]({ model, prompt: 'go', maxRetries: 0, turnTimeoutMs });
      const error = await Promise.resolve()
        .then(call)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RangeError);
      expect(String(error)).toContain("'turnTimeoutMs'");
      expect(model.doGenerateCalls.length + model.doStreamCalls.length).toBe(0);
      expect(vi.getTimerCount()).toBe(0);
    },
  );
});

describe('drop-in streamText: a result that is never read', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('keeps only the unref’d deadline timer, which is gone at the deadline', async () => {
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    streamText({ model: toolThenAnswer(), prompt: 'go', maxRetries: 0 });
    await vi.advanceTimersByTimeAsync(100);
    const deadline = setTimeoutSpy.mock.calls.findIndex((call) => call[1] === 300_000);
    expect((setTimeoutSpy.mock.results[deadline]!.value as NodeJS.Timeout).hasRef()).toBe(false);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(300_000);
    expect(vi.getTimerCount()).toBe(0);
  });
});
