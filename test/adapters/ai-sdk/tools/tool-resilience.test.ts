import { generateText, isStepCount, type ToolSet, tool } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  getRetryInfo,
  gracefulTool,
  gracefulTools,
} from '../../../../adapters/ai-sdk/tools/graceful-tool.js';
import { traceTurn } from '../../../../adapters/ai-sdk/tools/tool-resilience.js';
import { TurnTrace } from '../../../../src/observe/trace.js';
import { badRequest, isolatedTelemetry, unavailable, virtualTime } from '../../../src/policy/fixtures.js';
import { lastToolOutputs, scriptedModel, type Turn } from '../scripted-model.js';

const input = z.object({ city: z.string() });

/** Instant, deterministic retries and isolated events for one wrapped tool. */
function runtime() {
  const { telemetry, seen } = isolatedTelemetry();
  return { runtime: { ...virtualTime(), random: () => 0.5, telemetry }, seen };
}

async function run(tools: ToolSet, script: (step: number) => Turn, steps = 6) {
  const model = scriptedModel(script);
  const result = await generateText({
    model,
    tools,
    prompt: 'go',
    stopWhen: isStepCount(steps),
    maxRetries: 0,
  });
  const outputs = model.doGenerateCalls.flatMap((c) => lastToolOutputs(c));
  return { result, outputs };
}

const callThenText =
  (calls: number, name = 'weather') =>
  (step: number): Turn =>
    step < calls ? { calls: [[name, { city: 'Oslo' }]] } : { text: 'done' };

describe('gracefulTool with the resilience layers', () => {
  it('retries a transient failure silently: the model sees one successful result', async () => {
    let n = 0;
    const execute = vi.fn(async () => {
      if (++n <= 2) throw unavailable();
      return 'sunny';
    });
    const { runtime: rt } = runtime();
    const { outputs } = await run(
      { weather: gracefulTool(tool({ inputSchema: input, execute }), { runtime: rt }) },
      callThenText(1),
    );
    expect(execute).toHaveBeenCalledTimes(3);
    expect(outputs).toEqual([{ toolName: 'weather', output: { type: 'text', value: 'sunny' } }]);
  });

  it('traceTurn records the decisions of one run into its own trace', async () => {
    let n = 0;
    const execute = async () => (++n === 1 ? Promise.reject(unavailable()) : 'sunny');
    const weather = gracefulTool(tool({ inputSchema: input, execute }), { ...runtime(), name: 'weather' });
    const trace = new TurnTrace();
    await traceTurn(trace, () => run({ weather }, callThenText(1)));
    expect(trace.entries.map((e) => `${e.toolName}:${e.event_type}:${e.decision}`)).toEqual([
      'weather:tool_retry:retry',
      'weather:tool_succeeded:ok',
    ]);
    await run({ weather }, callThenText(1)); // outside traceTurn: not recorded
    expect(trace.entries).toHaveLength(2);
  });

  it('keeps getRetryInfo working on every attempt', async () => {
    const seen: unknown[] = [];
    const execute = vi.fn(async (_: unknown, options: object) => {
      seen.push(getRetryInfo(options));
      if (seen.length === 1) throw unavailable();
      return 'ok';
    });
    await run(
      { weather: gracefulTool(tool({ inputSchema: input, execute }), { ...runtime(), name: 'weather' }) },
      callThenText(1),
    );
    expect(seen).toEqual([
      { retry: 0, retries: 1, toolName: 'weather' },
      { retry: 0, retries: 1, toolName: 'weather' },
    ]);
  });

  it('circuit-open results are not counted against retries and never ask to fix arguments', async () => {
    const execute = vi.fn(async (): Promise<string> => {
      throw unavailable('weather API down');
    });
    const weather = gracefulTool(tool({ inputSchema: input, execute }), {
      ...runtime(),
      name: 'weather',
      retries: 1,
      autoRetry: false,
      breaker: { failureThreshold: 1 },
    });
    // Three calls in a row: one counted failure, then two circuit-open rejections (retries: 1 would fail a 2nd).
    // A rejected call never saw the failure that opened the circuit, so its error has no cause.
    const { result, outputs } = await run({ weather }, callThenText(3));
    expect(result.text).toBe('done');
    expect(execute).toHaveBeenCalledTimes(1);
    const texts = outputs.map((o) => (o.output as { value: string }).value);
    // A 503 is an outage, not the model's mistake: never "fix the errors", even though it counts.
    expect(texts[0]).toMatch(/weather API down\n\nContinue without this tool, or call it again later\.$/);
    for (const text of texts.slice(1)) {
      expect(text).toMatch(
        /^CircuitOpenError: Tool 'weather' is temporarily unavailable after repeated failures \(circuit open\); it can be called again in 30 s\.\n\nContinue without this tool, or call it again later\.$/,
      );
    }
  });

  it('re-wrapping the same tool object (gracefulTools per request) keeps its breaker state', async () => {
    const execute = vi.fn(async (): Promise<string> => Promise.reject(unavailable()));
    const weather = tool({ inputSchema: input, execute });
    const options = { ...runtime(), autoRetry: false as const, breaker: { failureThreshold: 2 } };
    await run(gracefulTools({ weather }, options), callThenText(1));
    await run(gracefulTools({ weather }, options), callThenText(1));
    expect(execute).toHaveBeenCalledTimes(2);
    const { outputs } = await run(gracefulTools({ weather }, options), callThenText(1));
    expect(execute).toHaveBeenCalledTimes(2);
    expect((outputs[0]!.output as { value: string }).value).toMatch(/^CircuitOpenError/);
    // Another tool object with the same name has a breaker of its own.
    const other = tool({ inputSchema: input, execute: async () => 'ok' });
    expect(
      (await run(gracefulTools({ weather: other }, options), callThenText(1))).outputs[0]!.output,
    ).toEqual({
      type: 'text',
      value: 'ok',
    });
  });

  it('a fallback answers a permanent failure and the model sees which tool answered', async () => {
    const primary = tool({
      inputSchema: input,
      execute: async (): Promise<string> => Promise.reject(badRequest()),
    });
    const backup = tool({ inputSchema: input, execute: async ({ city }) => `cloudy in ${city}` });
    const { outputs } = await run(
      {
        weather: gracefulTool(primary, { ...runtime(), fallback: { name: 'weather_backup', tool: backup } }),
      },
      callThenText(1),
    );
    expect(outputs[0]!.output).toEqual({
      type: 'text',
      value: "[answered by fallback tool 'weather_backup'] cloudy in Oslo",
    });
  });

  it('parallel calls each get their own retry budget; one failure does not cancel the others', async () => {
    let flaky = 0;
    const tools = gracefulTools(
      {
        flaky: tool({
          inputSchema: input,
          execute: async () => (++flaky === 1 ? Promise.reject(unavailable()) : 'flaky ok'),
        }),
        broken: tool({
          inputSchema: input,
          execute: async (): Promise<string> => Promise.reject(badRequest('no')),
        }),
        fine: tool({ inputSchema: input, execute: async () => 'fine ok' }),
      },
      runtime(),
    );
    const { outputs } = await run(tools, (step) =>
      step === 0
        ? {
            calls: [
              ['flaky', { city: 'a' }],
              ['broken', { city: 'b' }],
              ['fine', { city: 'c' }],
            ],
          }
        : { text: 'done' },
    );
    expect(outputs.map((o) => [o.toolName, (o.output as { type: string }).type])).toEqual([
      ['flaky', 'text'],
      ['broken', 'error-text'],
      ['fine', 'text'],
    ]);
  });

  it('passes a retry-after hint that does not fit the budget on to the model', async () => {
    const execute = async (): Promise<string> => {
      throw Object.assign(new Error('rate limited'), { status: 429, headers: { 'retry-after': '30' } });
    };
    const { outputs } = await run(
      { weather: gracefulTool(tool({ inputSchema: input, execute }), runtime()) },
      callThenText(1),
    );
    expect((outputs[0]!.output as { value: string }).value).toContain(
      'The service asked to wait 30 s before trying again.\n\nContinue without this tool, or call it again later.',
    );
  });

  it("the SDK's abort is the caller's: not retried, rethrown as is", async () => {
    const controller = new AbortController();
    const execute = vi.fn(async (): Promise<string> => {
      controller.abort(new Error('user left'));
      throw unavailable();
    });
    const weather = gracefulTool(tool({ inputSchema: input, execute }), runtime());
    const model = scriptedModel(callThenText(1));
    const outcome = await generateText({
      model,
      tools: { weather },
      prompt: 'go',
      abortSignal: controller.signal,
      stopWhen: isStepCount(3),
      maxRetries: 0,
    }).catch((e: unknown) => e);
    expect(execute).toHaveBeenCalledTimes(1);
    expect(outcome).toBeInstanceOf(Error);
  });

  it('cuts off a tool that ignores its signal at timeoutMs and shows the timeout to the model', async () => {
    const weather = gracefulTool(tool({ inputSchema: input, execute: () => new Promise<string>(() => {}) }), {
      timeoutMs: 5,
      autoRetry: false,
      breaker: false,
      name: 'weather',
    });
    const { outputs } = await run({ weather }, callThenText(1));
    expect((outputs[0]!.output as { value: string }).value).toMatch(
      /^ToolTimeoutError: Tool 'weather' did not finish within 5 ms and was abandoned\./,
    );
  });

  it('retries a streaming tool until its first value only', async () => {
    let calls = 0;
    const stream = tool({
      inputSchema: input,
      async *execute() {
        calls++;
        if (calls === 1) throw unavailable('before first value');
        yield 'partial';
        throw unavailable('after first value');
      },
    });
    const { outputs } = await run({ weather: gracefulTool(stream, runtime()) }, callThenText(1));
    expect(calls).toBe(2);
    expect((outputs[0]!.output as { value: string }).value).toMatch(/after first value/);
  });

  it('validates resilience options when the tool is wrapped', () => {
    const t = tool({ inputSchema: input, execute: async () => 'x' });
    expect(() => gracefulTool(t, { autoRetry: { jitter: 1.5 } })).toThrow(/'autoRetry\.jitter'/);
    expect(() => gracefulTools({ t }, { breaker: { failureThreshold: -1 } })).toThrow(RangeError);
    expect(() => gracefulTool(t, { timeoutMs: Number.NaN })).toThrow(/'timeoutMs'/);
  });
});
