import type { LanguageModelV4CallOptions, LanguageModelV4Content } from '@ai-sdk/provider';
import { generateText, isStepCount, jsonSchema, streamText, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withTurnDeadline } from '../../../../adapters/ai-sdk/tools/turn-deadline.js';
import { isolatedTelemetry } from '../../../src/policy/fixtures.js';
import { scriptedModel } from '../scripted-model.js';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A model that calls the given tools on its first step (after `thinkMs`), then answers with text. */
function model(calls: string[], thinkMs = 0) {
  const seen: LanguageModelV4CallOptions[] = [];
  const m = new MockLanguageModelV4({
    doGenerate: async (options) => {
      seen.push(options);
      const first = seen.length === 1;
      if (first && thinkMs) await new Promise((r) => setTimeout(r, thinkMs));
      const content: LanguageModelV4Content[] = first
        ? calls.map((toolName, i) => ({ type: 'tool-call', toolCallId: `c${i}`, toolName, input: '{}' }))
        : [{ type: 'text', text: 'final answer' }];
      return {
        content,
        finishReason: { unified: first ? 'tool-calls' : 'stop', raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
  return { model: m, seen };
}

const schema = jsonSchema<Record<string, never>>({ type: 'object', properties: {} });

describe('withTurnDeadline (generateText)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('abandons a running tool at the deadline, keeps finished results, and gives one final step without tools', async () => {
    const { telemetry } = isolatedTelemetry();
    const { model: m, seen } = model(['fast', 'slow']);
    let slowSignal: AbortSignal | undefined;
    const run = withTurnDeadline(
      {
        model: m,
        prompt: 'go',
        maxRetries: 0,
        stopWhen: isStepCount(1),
        tools: {
          fast: tool({ inputSchema: schema, execute: async () => 'fast result' }),
          slow: tool({
            inputSchema: schema,
            execute: (_input, { abortSignal }) => {
              slowSignal = abortSignal;
              return new Promise<string>(() => {}); // ignores its signal
            },
          }),
        },
      },
      { turnTimeoutMs: 1_000, telemetry },
    );
    const pending = generateText(run.options);
    await vi.advanceTimersByTimeAsync(1_000);
    const result = await pending;

    expect(result.text).toBe('final answer');
    expect(result.steps).toHaveLength(2);
    expect(slowSignal?.aborted).toBe(true);
    const errors = result.steps[0]!.content.filter((p) => p.type === 'tool-error');
    expect(errors).toHaveLength(1);
    expect(String((errors[0] as { error: unknown }).error)).toBe(
      "TurnDeadlineError: Tool 'slow' was stopped before it finished: this turn ran out of time " +
        '(turnTimeoutMs: 1000 ms).\n\nAnswer now with the information you already have.',
    );
    // The final step offers no tools.
    expect(seen[1]!.tools ?? []).toEqual([]);
    expect(seen[0]!.tools?.length).toBe(2);
    expect(run.report()).toEqual({
      expired: true,
      completed: ['fast#c0'],
      timedOut: ['slow#c1'],
      skipped: [],
    });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('skips tools the model calls after the deadline passed during its own step', async () => {
    const { model: m, seen } = model(['lookup'], 2_000);
    const lookup = vi.fn(async () => 'x');
    const run = withTurnDeadline(
      {
        model: m,
        prompt: 'go',
        maxRetries: 0,
        tools: { lookup: tool({ inputSchema: schema, execute: lookup }) },
      },
      { turnTimeoutMs: 1_000, telemetry: isolatedTelemetry().telemetry },
    );
    const pending = generateText(run.options);
    await vi.advanceTimersByTimeAsync(2_000);
    const result = await pending;
    expect(lookup).not.toHaveBeenCalled();
    expect(result.text).toBe('final answer');
    expect(seen).toHaveLength(2);
    expect(run.report()).toMatchObject({ skipped: ['lookup#c0'], timedOut: [] });
  });

  it('changes nothing before the deadline and keeps the caller’s stop conditions and prepareStep', async () => {
    const { model: m, seen } = model(['fast']);
    const prepareStep = vi.fn(() => ({ toolChoice: 'auto' as const }));
    const run = withTurnDeadline(
      {
        model: m,
        prompt: 'go',
        maxRetries: 0,
        prepareStep,
        tools: { fast: tool({ inputSchema: schema, execute: async () => 'ok' }) },
      },
      { turnTimeoutMs: 1_000, telemetry: isolatedTelemetry().telemetry },
    );
    const result = await generateText(run.options);
    // Default stop condition (one step) still applies: no final step when the deadline never passed.
    expect(result.steps).toHaveLength(1);
    expect(seen).toHaveLength(1);
    expect(prepareStep).toHaveBeenCalledOnce();
    expect(run.report()).toEqual({ expired: false, completed: ['fast#c0'], timedOut: [], skipped: [] });
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('withTurnDeadline (streamText)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('returns partial results on time and the final step answers without tools', async () => {
    const stream = scriptedModel((step) =>
      step === 0 ? { calls: [['slow', {}, 'c0']] } : { text: 'final answer' },
    );
    const run = withTurnDeadline(
      {
        model: stream,
        prompt: 'go',
        maxRetries: 0,
        tools: { slow: tool({ inputSchema: schema, execute: () => new Promise<string>(() => {}) }) },
      },
      { turnTimeoutMs: 500, telemetry: isolatedTelemetry().telemetry },
    );
    const result = streamText(run.options);
    const text = result.text;
    // 500 ms for the deadline, then the simulated stream of the final step (zero-delay timers).
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await text).toBe('final answer');
    expect(run.report()).toMatchObject({ expired: true, timedOut: ['slow#c0'] });
    expect(vi.getTimerCount()).toBe(0);
  });
});
