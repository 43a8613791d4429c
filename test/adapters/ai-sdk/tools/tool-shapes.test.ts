import { isStepCount, streamText, type ToolSet, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type GracefulToolOptions, gracefulTools } from '../../../../adapters/ai-sdk/tools/graceful-tool.js';
import { isAsyncIterable } from '../../../../src/util/shape.js';
import { isolatedTelemetry, unavailable, virtualTime } from '../../../src/policy/fixtures.js';
import { lastToolOutputs, scriptedModel } from '../scripted-model.js';

// Every shape an `execute` can have. The SDK streams preliminary results when `execute` RETURNS an async iterable,
// whatever kind of function returned it; a promise that resolves to one is a final output.

const input = z.object({ city: z.string() });

async function* updates(city: string) {
  yield `loading ${city}`;
  yield `done ${city}`;
}

const service = {
  prefix: 'svc',
  async *updates({ city }: { city: string }) {
    yield `${this.prefix} loading ${city}`;
    yield `${this.prefix} done ${city}`;
  },
};

const shapes = {
  asyncGenerator: tool({
    inputSchema: input,
    async *execute({ city }) {
      yield* updates(city);
    },
  }),
  plainFunctionReturningGenerator: tool({ inputSchema: input, execute: ({ city }) => updates(city) }),
  plainFunctionReturningIterableObject: tool({
    inputSchema: input,
    execute: ({ city }): AsyncIterable<string> => ({ [Symbol.asyncIterator]: () => updates(city) }),
  }),
  methodReturningIterable: tool({
    inputSchema: input,
    execute({ city }) {
      return updates(city);
    },
  }),
  // A bound function is a plain `Function`, even when it is bound from an `async function*`.
  boundGeneratorMethod: tool({ inputSchema: input, execute: service.updates.bind(service) }),
  syncValue: tool({ inputSchema: input, execute: ({ city }) => `sync ${city}` }),
  asyncValue: tool({ inputSchema: input, execute: async ({ city }) => `async ${city}` }),
  plainFunctionReturningPromise: tool({
    inputSchema: input,
    execute: ({ city }) => Promise.resolve(`promise ${city}`),
  }),
  promiseOfIterable: tool({ inputSchema: input, execute: async ({ city }) => updates(city) }),
};

const streamed = (final: string, loading: string) => ({ preliminary: [loading, final], final });
const expected: Record<keyof typeof shapes, { preliminary: unknown[]; final: unknown }> = {
  asyncGenerator: streamed('done Oslo', 'loading Oslo'),
  plainFunctionReturningGenerator: streamed('done Oslo', 'loading Oslo'),
  plainFunctionReturningIterableObject: streamed('done Oslo', 'loading Oslo'),
  methodReturningIterable: streamed('done Oslo', 'loading Oslo'),
  boundGeneratorMethod: streamed('svc done Oslo', 'svc loading Oslo'),
  syncValue: { preliminary: [], final: 'sync Oslo' },
  asyncValue: { preliminary: [], final: 'async Oslo' },
  plainFunctionReturningPromise: { preliminary: [], final: 'promise Oslo' },
  promiseOfIterable: { preliminary: [], final: 'an async iterable' },
};

interface Seen {
  preliminary: unknown[];
  final?: unknown;
  errors: unknown[];
}

/** One streamText step calling every tool once, then text; what the stream showed per tool. */
async function observe(tools: ToolSet) {
  const names = Object.keys(tools);
  const model = scriptedModel((step) =>
    step === 0 ? { calls: names.map((name) => [name, { city: 'Oslo' }, name]) } : { text: 'done' },
  );
  const result = streamText({ model, tools, prompt: 'go', stopWhen: isStepCount(2), maxRetries: 0 });
  const seen: Record<string, Seen> = {};
  const of = (name: string) => {
    seen[name] ??= { preliminary: [], errors: [] };
    return seen[name];
  };
  for await (const part of result.fullStream) {
    if (part.type === 'tool-result') {
      const output = isAsyncIterable(part.output) ? 'an async iterable' : part.output;
      if (part.preliminary) of(part.toolName).preliminary.push(output);
      else of(part.toolName).final = output;
    }
    if (part.type === 'tool-error') of(part.toolName).errors.push(part.error);
  }
  return { seen, model };
}

/** The text of the one tool result the model received in its second step. */
const sentText = (model: ReturnType<typeof scriptedModel>) =>
  (lastToolOutputs(model.doStreamCalls[1]!)[0]!.output as { value: string }).value;

/** Instant, deterministic retries and events kept out of the process-wide sinks. */
const quiet = (): GracefulToolOptions => ({
  runtime: { ...virtualTime(), random: () => 0.5, telemetry: isolatedTelemetry().telemetry },
});

describe('every shape of execute keeps its SDK meaning under gracefulTool', () => {
  const configs: [string, (() => GracefulToolOptions) | undefined][] = [
    ['the bare SDK (reference)', undefined],
    ['the default stack (retry + breaker)', quiet],
    ['autoRetry: false, breaker: false', () => ({ autoRetry: false, breaker: false })],
    // The real timer is cleared when each attempt settles: nothing waits for it.
    ['the default stack with timeoutMs', () => ({ timeoutMs: 60_000, runtime: { random: () => 0.5 } })],
    ['timeoutMs alone', () => ({ timeoutMs: 60_000, autoRetry: false, breaker: false })],
  ];

  it.each(configs)('under %s', async (_, options) => {
    const { seen } = await observe(options ? gracefulTools(shapes, options()) : shapes);
    for (const [name, want] of Object.entries(expected)) {
      expect({ name, ...seen[name] }).toEqual({ name, ...want, errors: [] });
    }
  });
});

describe('a plain function returning an async iterable, under the default stack', () => {
  it('is retried when it fails transiently before its first value: the model sees one clean result', async () => {
    let calls = 0;
    const flaky = tool({
      inputSchema: input,
      execute: ({ city }) => {
        const call = ++calls;
        return (async function* () {
          if (call === 1) throw unavailable('before first value');
          yield* updates(city);
        })();
      },
    });
    const { seen, model } = await observe(gracefulTools({ flaky }, quiet()));
    expect(calls).toBe(2);
    expect(seen.flaky).toEqual({ ...expected.plainFunctionReturningGenerator, errors: [] });
    expect(lastToolOutputs(model.doStreamCalls[1]!)).toEqual([
      { toolName: 'flaky', output: { type: 'text', value: 'done Oslo' } },
    ]);
  });

  it('is not retried after its first value: the failure reaches the model-visible path', async () => {
    let calls = 0;
    const broken = tool({
      inputSchema: input,
      execute: () => {
        calls++;
        return (async function* () {
          yield 'partial';
          throw unavailable('after first value');
        })();
      },
    });
    const { seen, model } = await observe(gracefulTools({ broken }, quiet()));
    expect(calls).toBe(1);
    expect(seen.broken?.preliminary).toEqual(['partial']);
    expect(seen.broken?.errors).toHaveLength(1);
    expect(sentText(model)).toMatch(/^Error: after first value/);
  });

  it('is cut off at timeoutMs when its first value never comes', async () => {
    let signal: AbortSignal | undefined;
    const stalled = tool({
      inputSchema: input,
      execute: (_input, options) => {
        signal = options.abortSignal;
        return (async function* () {
          yield await new Promise<string>(() => {});
        })();
      },
    });
    const { seen, model } = await observe(
      gracefulTools({ stalled }, { timeoutMs: 5, autoRetry: false, breaker: false }),
    );
    expect(seen.stalled?.preliminary).toEqual([]);
    expect(signal?.aborted).toBe(true);
    expect(sentText(model)).toMatch(/^ToolTimeoutError: Tool 'stalled' did not finish/);
  });
});
