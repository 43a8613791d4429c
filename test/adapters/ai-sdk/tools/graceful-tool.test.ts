import { generateText, isStepCount, streamText, ToolLoopAgent, type ToolSet, tool } from 'ai';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { z } from 'zod';
import { gracefulRepairToolCall } from '../../../../adapters/ai-sdk/tools/graceful-repair-tool-call.js';
import {
  getRetryInfo,
  gracefulTool as wrapTool,
  gracefulTools as wrapTools,
} from '../../../../adapters/ai-sdk/tools/graceful-tool.js';
import { AggregateToolError } from '../../../../src/errors/aggregate-tool-error.js';
import { ModelRetry } from '../../../../src/errors/model-retry.js';
import { UnexpectedModelBehavior } from '../../../../src/errors/unexpected-model-behavior.js';
import type { Logger } from '../../../../src/util/logger.js';
import { lastToolOutputs, scriptedModel, type Turn } from '../scripted-model.js';

const GUIDE = '\n\nFix the errors and try again.';
// The model-visible layer is tested without automatic retry and breaker (a tool call goes through breaker ▸ retry
// ▸ tool before the model-visible layer sees what is left): its plain `new Error`s would otherwise be retried as
// transient. The resilience layers: tool-resilience.test.ts.
const noResilience = { retry: false, breaker: false } as const;
const gracefulTool: typeof wrapTool = (t, o) => wrapTool(t, { ...noResilience, ...o });
const gracefulTools: typeof wrapTools = (t, o) => wrapTools(t, { ...noResilience, ...o });
const cityInput = z.object({ city: z.string() });

/** The model-visible error texts the model received, per step. */
function errorTexts(model: ReturnType<typeof scriptedModel>): string[] {
  const calls = [...model.doGenerateCalls, ...model.doStreamCalls];
  return calls.flatMap((c) =>
    lastToolOutputs(c).flatMap(({ output }) => {
      const o = output as { type: string; value: unknown };
      return o.type === 'error-text' ? [String(o.value)] : [];
    }),
  );
}

/** Calls `name` with `args` for `steps` steps, then answers with text. */
function callsThenText(steps: number, calls: [string, unknown, string?][]): (step: number) => Turn {
  return (step) => (step < steps ? { calls } : { text: 'done' });
}

type Api = 'generateText' | 'streamText' | 'ToolLoopAgent';
const apis: Api[] = ['generateText', 'streamText', 'ToolLoopAgent'];

/** Runs one call through the chosen API and settles it like an application would. */
async function run(api: Api, model: ReturnType<typeof scriptedModel>, tools: ToolSet, steps = 10) {
  const settings = { model, tools, stopWhen: isStepCount(steps), maxRetries: 0 } as const;
  if (api === 'generateText') return await generateText({ ...settings, prompt: 'go' });
  if (api === 'ToolLoopAgent') return await new ToolLoopAgent(settings).generate({ prompt: 'go' });
  const result = streamText({ ...settings, prompt: 'go' });
  const parts: string[] = [];
  for await (const part of result.fullStream) parts.push(part.type);
  return { text: await result.text, steps: await result.steps, parts };
}

describe('gracefulTool: what the model sees', () => {
  it.each(apis)('sends a ModelRetry with the guidance (%s)', async (api) => {
    const model = scriptedModel(callsThenText(1, [['weather', { city: 'Pariss' }]]));
    const weather = gracefulTool(
      tool({
        inputSchema: cityInput,
        execute: async ({ city }): Promise<string> => {
          throw new ModelRetry(`Unknown city "${city}". Did you mean "Paris"?`);
        },
      }),
    );
    await run(api, model, { weather });
    expect(errorTexts(model)).toEqual([`Unknown city "Pariss". Did you mean "Paris"?${GUIDE}`]);
  });

  it.each(apis)('sends a cause chain the plain SDK would drop (%s)', async (api) => {
    const model = scriptedModel(callsThenText(1, [['report', { city: 'x' }]]));
    const report = gracefulTool(
      tool({
        inputSchema: cityInput,
        execute: async (): Promise<string> => {
          const root = new Error("ENOENT: no such file or directory, open '/data/q3.csv'");
          throw new Error('report failed', { cause: new Error('could not load sales', { cause: root }) });
        },
      }),
    );
    await run(api, model, { report });
    expect(errorTexts(model)).toEqual([
      `Error: report failed\nCaused by: Error: could not load sales\nCaused by: Error: ENOENT: no such file or directory, open '/data/q3.csv'${GUIDE}`,
    ]);
  });

  it('renders non-Error throwables and redacts secrets through the SDK', async () => {
    const thrown: unknown[] = ['plain string', 7, null, undefined, { code: 'E1' }, ['a'], Symbol('s')];
    const model = scriptedModel(
      callsThenText(
        1,
        thrown.map((_, i) => [`t${i}`, { city: 'x' }] as [string, unknown]),
      ),
    );
    const tools = Object.fromEntries(
      thrown.map((value, i) => [
        `t${i}`,
        tool({
          inputSchema: cityInput,
          execute: async (): Promise<string> => {
            throw value;
          },
        }),
      ]),
    );
    await generateText({
      model,
      prompt: 'go',
      tools: gracefulTools(tools),
      stopWhen: isStepCount(3),
      maxRetries: 0,
    });
    expect(errorTexts(model)).toEqual(
      [
        'plain string',
        'Thrown value: 7',
        'Unknown error (the tool threw null)',
        'Unknown error (the tool threw undefined)',
        'Thrown object: {"code":"E1"}',
        'Thrown value: ["a"]',
        'Thrown value: Symbol(s)',
      ].map((t) => t + GUIDE),
    );
  });

  it('bounds a 1 MB message and redacts a key in it', async () => {
    const model = scriptedModel(callsThenText(1, [['big', { city: 'x' }]]));
    const big = gracefulTool(
      tool({
        inputSchema: cityInput,
        execute: async (): Promise<string> => {
          throw new Error(`auth sk-proj-abcdefghijklmnopqrstuvwxyz failed ${'z'.repeat(1_000_000)}`);
        },
      }),
      { maxErrorChars: 300 },
    );
    await generateText({ model, prompt: 'go', tools: { big }, stopWhen: isStepCount(3), maxRetries: 0 });
    const [text] = errorTexts(model);
    expect(text).toHaveLength(300);
    expect(text?.startsWith('Error: auth [REDACTED] failed zzz')).toBe(true);
    expect(text).toMatch(/\[truncated \d+ chars\]\n\nFix the errors and try again\.$/);
  });

  it('keeps the original error object on the tool-error part and in onToolExecutionEnd', async () => {
    const original = new Error('boom', { cause: new Error('root') });
    const model = scriptedModel(callsThenText(1, [['t', { city: 'x' }]]));
    const t = gracefulTool(
      tool({
        inputSchema: cityInput,
        execute: async (): Promise<string> => {
          throw original;
        },
      }),
    );
    const ended: unknown[] = [];
    const result = await generateText({
      model,
      prompt: 'go',
      tools: { t },
      stopWhen: isStepCount(3),
      maxRetries: 0,
      onToolExecutionEnd: (event) => {
        if (event.toolOutput.type === 'tool-error') ended.push(event.toolOutput.error);
      },
    });
    const part = result.steps[0]?.content.find((p) => p.type === 'tool-error');
    expect(part?.type === 'tool-error' && part.error).toBe(original);
    expect(ended).toEqual([original]);
    expect(ended[0]).toBe(original);
    expect((ended[0] as Error).cause).toEqual(new Error('root'));
  });

  it('routes invalid input through the formatter, keeps the schema byte-identical and counts it', async () => {
    const plain = tool({ description: 'Weather', inputSchema: cityInput, execute: async () => 'sunny' });
    const plainModel = scriptedModel(() => ({ text: 'x' }));
    await generateText({ model: plainModel, prompt: 'go', tools: { weather: plain }, maxRetries: 0 });
    const onInputAvailable = vi.fn();
    const execute = vi.fn(async () => 'sunny');
    const weather = gracefulTool(
      tool({ description: 'Weather', inputSchema: cityInput, execute, onInputAvailable }),
      {
        name: 'weather',
      },
    );
    const model = scriptedModel(callsThenText(2, [['weather', { town: 'Paris' }]]));
    const error = await generateText({
      model,
      prompt: 'go',
      tools: { weather },
      stopWhen: isStepCount(5),
      maxRetries: 0,
    }).catch((e: unknown) => e);
    expect(JSON.stringify(model.doGenerateCalls[0]?.tools)).toBe(
      JSON.stringify(plainModel.doGenerateCalls[0]?.tools),
    );
    expect(errorTexts(model)).toEqual([
      `AI_InvalidToolInputError: Invalid input for tool weather: city: Invalid input: expected string, received undefined\nThe input was: {"town":"Paris"}${GUIDE}`,
    ]);
    expect(execute).not.toHaveBeenCalled();
    expect(onInputAvailable).not.toHaveBeenCalled();
    expect(UnexpectedModelBehavior.isInstance(error)).toBe(true);
  });

  it('converts unknown tool names with gracefulRepairToolCall and counts them', async () => {
    const weather = gracefulTool(tool({ inputSchema: cityInput, execute: async () => 'sunny' }));
    const model = scriptedModel(callsThenText(1, [['wether', { city: 'Paris' }]]));
    await generateText({
      model,
      prompt: 'go',
      tools: { weather },
      stopWhen: isStepCount(5),
      maxRetries: 0,
      experimental_repairToolCall: gracefulRepairToolCall(),
    });
    expect(errorTexts(model)).toEqual([
      `AI_NoSuchToolError: Model tried to call unavailable tool 'wether'. Available tools: weather.${GUIDE}`,
    ]);
    const again = scriptedModel(callsThenText(3, [['wether', { city: 'Paris' }]]));
    const error = await generateText({
      model: again,
      prompt: 'go',
      tools: { weather },
      stopWhen: isStepCount(5),
      maxRetries: 0,
      experimental_repairToolCall: gracefulRepairToolCall({ retries: 1 }),
    }).catch((e: unknown) => e);
    expect(UnexpectedModelBehavior.isInstance(error) && error.message).toBe(
      "Tool 'wether' exceeded max retries count of 1",
    );
  });
});

describe('gracefulTool: retry budget per run', () => {
  const failing = (retries: number, onCall?: (n: number) => void) => {
    let n = 0;
    return gracefulTool(
      tool({
        inputSchema: cityInput,
        execute: async (): Promise<string> => {
          onCall?.(++n);
          throw new ModelRetry('not yet');
        },
      }),
      { retries, name: 'flaky' },
    );
  };

  it.each(apis)('fails the call at exactly retries+1 consecutive failures (%s)', async (api) => {
    for (const retries of [0, 1, 3]) {
      const calls = vi.fn();
      const model = scriptedModel(callsThenText(20, [['flaky', { city: 'x' }]]));
      const error = await run(api, model, { flaky: failing(retries, calls) }).catch((e: unknown) => e);
      expect(UnexpectedModelBehavior.isInstance(error)).toBe(true);
      const umb = error as UnexpectedModelBehavior;
      expect(umb.message).toBe(`Tool 'flaky' exceeded max retries count of ${retries}`);
      expect([umb.toolName, umb.retries]).toEqual(['flaky', retries]);
      expect(ModelRetry.isInstance(umb.cause)).toBe(true);
      expect(calls).toHaveBeenCalledTimes(retries + 1);
      expect(errorTexts(model)).toHaveLength(retries);
    }
  });

  it('resets the count after a success', async () => {
    // fail, succeed, fail, succeed, fail, then text: never two failures in a row.
    let n = 0;
    const flaky = gracefulTool(
      tool({
        inputSchema: cityInput,
        execute: async () => {
          if (++n % 2 === 1) throw new ModelRetry('odd call');
          return 'ok';
        },
      }),
      { retries: 1 },
    );
    const model = scriptedModel(callsThenText(5, [['flaky', { city: 'x' }]]));
    const result = await generateText({
      model,
      prompt: 'go',
      tools: { flaky },
      stopWhen: isStepCount(10),
      maxRetries: 0,
    });
    expect(result.text).toBe('done');
    expect(n).toBe(5);
  });

  it('starts each run fresh, also when the history holds earlier failures', async () => {
    const flaky = failing(1);
    const first = scriptedModel(callsThenText(1, [['flaky', { city: 'x' }]]));
    const r1 = await generateText({
      model: first,
      prompt: 'go',
      tools: { flaky },
      stopWhen: isStepCount(5),
      maxRetries: 0,
    });
    // The next run continues the conversation: one more failure is allowed before the budget runs out.
    let calls = 0;
    const second = scriptedModel(() =>
      calls++ < 2 ? { calls: [['flaky', { city: 'x' }]] } : { text: 'done' },
    );
    const messages = [
      { role: 'user' as const, content: 'go' },
      ...r1.responseMessages,
      { role: 'user' as const, content: 'again' },
    ];
    const error = await generateText({
      model: second,
      messages,
      tools: { flaky },
      stopWhen: isStepCount(9),
      maxRetries: 0,
    }).catch((e: unknown) => e);
    // Failed on the second failure of this run, not the first: run 1's failure did not count.
    expect(UnexpectedModelBehavior.isInstance(error)).toBe(true);
    expect(second.doGenerateCalls).toHaveLength(2);
    expect(errorTexts(second)).toEqual([`not yet${GUIDE}`]);
  });

  it('gives two concurrent runs sharing one wrapped tool independent budgets', async () => {
    const seen: { run: string; retry: number | undefined }[] = [];
    const shared = gracefulTool(
      tool({
        inputSchema: cityInput,
        execute: async ({ city }, options) => {
          seen.push({ run: city, retry: getRetryInfo(options)?.retry });
          await new Promise((r) => setImmediate(r));
          if (city === 'a') throw new ModelRetry('a fails');
          return 'b works';
        },
      }),
      { retries: 2 },
    );
    const modelA = scriptedModel(callsThenText(2, [['shared', { city: 'a' }]]));
    const modelB = scriptedModel(callsThenText(2, [['shared', { city: 'b' }]]));
    const [a, b] = await Promise.all([
      generateText({
        model: modelA,
        prompt: 'a',
        tools: { shared },
        stopWhen: isStepCount(5),
        maxRetries: 0,
      }),
      generateText({
        model: modelB,
        prompt: 'b',
        tools: { shared },
        stopWhen: isStepCount(5),
        maxRetries: 0,
      }),
    ]);
    expect([a.text, b.text]).toEqual(['done', 'done']);
    expect(seen.filter((s) => s.run === 'a').map((s) => s.retry)).toEqual([0, 1]);
    expect(seen.filter((s) => s.run === 'b').map((s) => s.retry)).toEqual([0, 0]);
  });

  it('exposes the attempt and budget to the tool with getRetryInfo', async () => {
    const infos: unknown[] = [];
    const t = gracefulTool(
      tool({
        inputSchema: cityInput,
        execute: async (_input, options) => {
          const info = getRetryInfo(options);
          infos.push(info);
          if (info && info.retry < info.retries) throw new ModelRetry('again');
          return 'soft answer on the last attempt';
        },
      }),
      { retries: 2, name: 't' },
    );
    const model = scriptedModel(callsThenText(3, [['t', { city: 'x' }]]));
    const result = await generateText({
      model,
      prompt: 'go',
      tools: { t },
      stopWhen: isStepCount(9),
      maxRetries: 0,
    });
    expect(result.text).toBe('done');
    expect(infos).toEqual([0, 1, 2].map((retry) => ({ retry, retries: 2, toolName: 't' })));
    expect(getRetryInfo({})).toBeUndefined();
  });

  it('learns its name from its own earlier calls when used without gracefulTools', async () => {
    const model = scriptedModel(callsThenText(5, [['lookup', { city: 'x' }]]));
    const lookup = gracefulTool(
      tool({
        inputSchema: cityInput,
        execute: async (): Promise<string> => {
          throw new Error('down');
        },
      }),
    );
    const error = await generateText({
      model,
      prompt: 'go',
      tools: { lookup },
      stopWhen: isStepCount(9),
      maxRetries: 0,
    }).catch((e: unknown) => e);
    expect((error as Error).message).toBe("Tool 'lookup' exceeded max retries count of 1");
  });
});

describe('gracefulTool: graceful: false fails loudly', () => {
  const loud = (error: unknown, delayMs = 0) =>
    gracefulTool(
      tool({
        inputSchema: cityInput,
        execute: async (): Promise<string> => {
          await new Promise((r) => setTimeout(r, delayMs));
          throw error;
        },
      }),
      { graceful: false },
    );
  const ok = tool({ inputSchema: cityInput, execute: async () => 'fine' });

  it.each(apis)('rejects with the original error object (%s)', async (api) => {
    const original = new Error('payment service rejected the charge');
    const model = scriptedModel(callsThenText(1, [['pay', { city: 'x' }]]));
    const error = await run(api, model, { pay: loud(original) }).catch((e: unknown) => e);
    expect(error).toBe(original);
    expect(model.doGenerateCalls.length + model.doStreamCalls.length).toBe(1);
  });

  it('makes streamText error its stream and reject its promises with the original error', async () => {
    const original = new Error('fatal');
    const model = scriptedModel(
      callsThenText(1, [
        ['pay', { city: 'x' }],
        ['ok', { city: 'y' }],
      ]),
    );
    const result = streamText({
      model,
      prompt: 'go',
      tools: { pay: loud(original), ok },
      stopWhen: isStepCount(5),
      maxRetries: 0,
    });
    const streamError = await (async () => {
      for await (const _ of result.fullStream);
    })().catch((e: unknown) => e);
    expect(streamError).toBe(original);
    await expect(result.text).rejects.toBe(original);
    await expect(result.steps).rejects.toBe(original);
  });

  it('rejects with the original error when it is one of several parallel calls', async () => {
    const original = new Error('only this one fails');
    for (const api of apis) {
      const model = scriptedModel(
        callsThenText(1, [
          ['ok', { city: 'a' }],
          ['pay', { city: 'b' }],
          ['ok', { city: 'c' }],
        ]),
      );
      const error = await run(api, model, { pay: loud(original, 5), ok }).catch((e: unknown) => e);
      expect(error).toBe(original);
    }
  });

  it('rejects with AggregateToolError when two or more fail in one step', async () => {
    const e1 = new Error('first');
    const e2 = 'second, a string';
    for (const api of apis) {
      const model = scriptedModel(
        callsThenText(1, [
          ['a', { city: 'a' }, 'id-a'],
          ['ok', { city: 'x' }],
          ['b', { city: 'b' }, 'id-b'],
        ]),
      );
      const error = await run(api, model, { a: loud(e1, 10), b: loud(e2), ok }).catch((e: unknown) => e);
      expect(AggregateToolError.isInstance(error)).toBe(true);
      const failures = (error as AggregateToolError).errors;
      expect(failures.map((f) => [f.toolName, f.toolCallId]).sort()).toEqual([
        ['unknown tool', 'id-a'],
        ['unknown tool', 'id-b'],
      ]);
      expect(failures.find((f) => f.toolCallId === 'id-a')?.error).toBe(e1);
      expect(failures.find((f) => f.toolCallId === 'id-b')?.error).toBe(e2);
    }
  });

  it('still lets a ModelRetry reach the model', async () => {
    const model = scriptedModel(callsThenText(1, [['t', { city: 'x' }]]));
    const result = await run('generateText', model, { t: loud(new ModelRetry('use another city')) });
    expect(result.text).toBe('done');
    expect(errorTexts(model)).toEqual([`use another city${GUIDE}`]);
  });
});

describe('gracefulTool: tool shapes and fields', () => {
  it('keeps the input/output types of the tool', () => {
    const t = tool({ inputSchema: cityInput, execute: async ({ city }) => ({ city, temp: 21 }) });
    const wrapped = gracefulTool(t, { retries: 2 });
    expectTypeOf(wrapped).toEqualTypeOf(t);
    expectTypeOf(wrapped.execute).parameter(0).toEqualTypeOf<{ city: string }>();
    expectTypeOf(wrapped.execute).returns.resolves.toEqualTypeOf<{ city: string; temp: number }>();
    const set = gracefulTools({
      t,
      u: tool({ inputSchema: z.object({ n: z.number() }), execute: ({ n }) => n * 2 }),
    });
    expectTypeOf(set.u.execute).parameter(0).toEqualTypeOf<{ n: number }>();
    expectTypeOf(set.u.execute).returns.toEqualTypeOf<number | PromiseLike<number> | AsyncIterable<number>>();
  });

  it('keeps every other field', async () => {
    let modelOutputCalls = 0;
    const onInputStart = vi.fn();
    const onInputAvailable = vi.fn();
    const original = tool({
      description: 'desc',
      inputSchema: cityInput,
      providerOptions: { openai: { strict: true } },
      metadata: { source: 'test' },
      strict: true,
      inputExamples: [{ input: { city: 'Paris' } }],
      onInputStart,
      onInputAvailable,
      toModelOutput: ({ output }) => {
        modelOutputCalls++;
        return { type: 'text', value: `out:${output}` };
      },
      execute: async ({ city }) => `sunny in ${city}`,
    });
    const wrapped = gracefulTool(original);
    for (const key of [
      'description',
      'providerOptions',
      'metadata',
      'strict',
      'inputExamples',
      'onInputStart',
    ] as const) {
      expect(wrapped[key]).toBe(original[key]);
    }
    const model = scriptedModel(callsThenText(1, [['w', { city: 'Paris' }]]));
    const result = await generateText({
      model,
      prompt: 'go',
      tools: { w: wrapped },
      stopWhen: isStepCount(3),
      maxRetries: 0,
    });
    expect(result.steps[0]?.toolResults[0]?.output).toBe('sunny in Paris');
    expect(modelOutputCalls).toBe(1);
    expect(onInputStart).toHaveBeenCalledTimes(1);
    expect(onInputAvailable).toHaveBeenCalledTimes(1);
    expect(lastToolOutputs(model.doGenerateCalls[1]!)).toEqual([
      { toolName: 'w', output: { type: 'text', value: 'out:sunny in Paris' } },
    ]);
  });

  it('runs sync, async and async-iterable tools, keeping preliminary results streaming', async () => {
    const sync = gracefulTool(tool({ inputSchema: cityInput, execute: ({ city }) => `sync ${city}` }));
    const syncThrow = gracefulTool(
      tool({
        inputSchema: cityInput,
        execute: (): string => {
          throw new Error('sync failure');
        },
      }),
    );
    const streaming = gracefulTool(
      tool({
        inputSchema: cityInput,
        async *execute({ city }) {
          yield `loading ${city}`;
          yield `done ${city}`;
        },
      }),
    );
    const streamingThrow = gracefulTool(
      tool({
        inputSchema: cityInput,
        async *execute() {
          yield 'partial';
          throw new Error('stream broke');
        },
      }),
    );
    expect(
      typeof (streaming.execute({ city: 'x' }, { toolCallId: '1', messages: [], context: {} }) as object),
    ).toBe('object');
    const returned = streaming.execute({ city: 'x' }, { toolCallId: '1', messages: [], context: {} });
    expect(Symbol.asyncIterator in (returned as object)).toBe(true);
    const model = scriptedModel(
      callsThenText(1, [
        ['sync', { city: 'a' }],
        ['syncThrow', { city: 'b' }],
        ['streaming', { city: 'c' }],
        ['streamingThrow', { city: 'd' }],
      ]),
    );
    const result = streamText({
      model,
      prompt: 'go',
      tools: { sync, syncThrow, streaming, streamingThrow },
      stopWhen: isStepCount(3),
      maxRetries: 0,
    });
    const preliminary: unknown[] = [];
    for await (const part of result.fullStream) {
      if (part.type === 'tool-result' && part.preliminary) preliminary.push(part.output);
    }
    expect(preliminary).toEqual(expect.arrayContaining(['loading c', 'done c', 'partial']));
    const [step] = await result.steps;
    expect(step?.toolResults.map((r) => r.output).sort()).toEqual(['done c', 'sync a']);
    expect(errorTexts(model).sort()).toEqual([`Error: stream broke${GUIDE}`, `Error: sync failure${GUIDE}`]);
  });

  it('returns tools without execute unchanged', () => {
    const noExecute = tool({ inputSchema: cityInput, outputSchema: z.string() });
    expect(gracefulTool(noExecute)).toBe(noExecute);
  });

  it('lets per-tool options win over gracefulTools defaults in both directions', async () => {
    const optOut = gracefulTool(
      tool({
        inputSchema: cityInput,
        execute: async (): Promise<string> => {
          throw new Error('opted out');
        },
      }),
      { graceful: false },
    );
    const optIn = gracefulTool(
      tool({
        inputSchema: cityInput,
        execute: async (): Promise<string> => {
          throw new Error('opted in');
        },
      }),
      { graceful: true },
    );
    const plain = tool({
      inputSchema: cityInput,
      execute: async (): Promise<string> => {
        throw new Error('default');
      },
    });
    const gracefulSet = gracefulTools({ optOut, plain });
    const loudSet = gracefulTools({ optIn, plain }, { graceful: false });
    const m1 = scriptedModel(callsThenText(1, [['plain', { city: 'x' }]]));
    await generateText({
      model: m1,
      prompt: 'go',
      tools: gracefulSet,
      stopWhen: isStepCount(3),
      maxRetries: 0,
    });
    expect(errorTexts(m1)).toEqual([`Error: default${GUIDE}`]);
    const m2 = scriptedModel(callsThenText(1, [['optOut', { city: 'x' }]]));
    await expect(
      generateText({ model: m2, prompt: 'go', tools: gracefulSet, stopWhen: isStepCount(3), maxRetries: 0 }),
    ).rejects.toThrow('opted out');
    const m3 = scriptedModel(callsThenText(1, [['optIn', { city: 'x' }]]));
    await generateText({ model: m3, prompt: 'go', tools: loudSet, stopWhen: isStepCount(3), maxRetries: 0 });
    expect(errorTexts(m3)).toEqual([`Error: opted in${GUIDE}`]);
    const m4 = scriptedModel(callsThenText(1, [['plain', { city: 'x' }]]));
    await expect(
      generateText({ model: m4, prompt: 'go', tools: loudSet, stopWhen: isStepCount(3), maxRetries: 0 }),
    ).rejects.toThrow('default');
  });

  it('logs each conversion at debug level through the logger', async () => {
    const logger: Logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const t = gracefulTool(
      tool({
        inputSchema: cityInput,
        execute: async (): Promise<string> => {
          throw new Error('x');
        },
      }),
      { logger, name: 't', retries: 3 },
    );
    const model = scriptedModel(callsThenText(1, [['t', { city: 'x' }]]));
    await generateText({ model, prompt: 'go', tools: { t }, stopWhen: isStepCount(3), maxRetries: 0 });
    expect(logger.debug).toHaveBeenCalledWith('tool error converted for the model', {
      toolName: 't',
      toolCallId: 'call-0-0',
      retry: 0,
      retries: 3,
      chars: `Error: x${GUIDE}`.length,
    });
    expect(logger.info).not.toHaveBeenCalled();
  });
});
