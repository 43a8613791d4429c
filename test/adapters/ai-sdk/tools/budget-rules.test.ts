/**
 * The `retries` budget as pydantic-ai keeps it (its tests test_tools, test_agent, test_toolsets, translated), where
 * graceful-ai differed without a documented reason (issue 22). docs/graceful-tool.md compares the two line by line.
 */
import { isStepCount, generateText as sdkGenerateText, type ToolSet, tool } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { generateText } from '../../../../adapters/ai-sdk/drop-in/generate-text.js';
import { streamText } from '../../../../adapters/ai-sdk/drop-in/stream-text.js';
import {
  type GracefulToolOptions,
  gracefulTool,
  gracefulTools,
} from '../../../../adapters/ai-sdk/tools/graceful-tool.js';
import { AggregateToolError } from '../../../../src/errors/aggregate-tool-error.js';
import { ModelRetry } from '../../../../src/errors/model-retry.js';
import { UnexpectedModelBehavior } from '../../../../src/errors/unexpected-model-behavior.js';
import { lastToolOutputs, scriptedModel, type Turn } from '../scripted-model.js';

// The model-visible layer alone: no automatic retry or breaker underneath (see graceful-tool.test.ts).
const noResilience = { retry: false, breaker: false } as const;
const cityInput = z.object({ city: z.string() });

const failing = () =>
  tool({
    inputSchema: cityInput,
    execute: async ({ city }): Promise<string> => {
      if (city === 'ok') return 'sunny';
      throw new ModelRetry(`No weather for ${city}.`);
    },
  });

/** The error texts the model received, per step. */
const errorTexts = (model: ReturnType<typeof scriptedModel>) =>
  [...model.doGenerateCalls, ...model.doStreamCalls].flatMap((call) =>
    lastToolOutputs(call).flatMap(({ output }) => {
      const o = output as { type: string; value: unknown };
      return o.type === 'error-text' ? [String(o.value)] : [];
    }),
  );

type DropIn = 'generateText' | 'streamText';
const dropIns: DropIn[] = ['generateText', 'streamText'];

/** The run's outcome through a drop-in: its text, or what its text rejects with. */
async function outcome(
  api: DropIn,
  options: { model: ReturnType<typeof scriptedModel>; tools: ToolSet; gracefulTools?: GracefulToolOptions },
) {
  const settings = {
    ...options,
    prompt: 'go',
    stopWhen: isStepCount(10),
    maxRetries: 0,
    streamGuard: false as const,
  };
  const text =
    api === 'generateText' ? generateText(settings).then((r) => r.text) : streamText(settings).text;
  return Promise.resolve(text).catch((error: unknown) => ({ rejected: error }));
}

describe('a step in which the tool both failed and succeeded counts as a failure (pydantic-ai #6581)', () => {
  // Every step: one call that fails and one that succeeds. With the success resetting the count, this never ends.
  const pairs = (): Turn => ({
    calls: [
      ['weather', { city: 'Atlantis' }],
      ['weather', { city: 'ok' }],
    ],
  });

  it('ai’s own generateText with gracefulTools: the run fails at failure retries + 1', async () => {
    const model = scriptedModel(pairs);
    const tools = gracefulTools({ weather: failing() }, { ...noResilience, retries: 2 });
    const error = await sdkGenerateText({ model, tools, prompt: 'go', stopWhen: isStepCount(10) }).catch(
      (e: unknown) => e,
    );
    expect(UnexpectedModelBehavior.isInstance(error)).toBe(true);
    expect(model.doGenerateCalls).toHaveLength(3);
  });

  it.each(dropIns)('%s', async (api) => {
    const model = scriptedModel(pairs);
    const result = await outcome(api, { model, tools: { weather: failing() }, gracefulTools: noResilience });
    expect(result).toEqual({ rejected: expect.toSatisfy(UnexpectedModelBehavior.isInstance) });
  });
});

describe('the call’s own retries win over a wrapper that left retries unset', () => {
  it.each(dropIns)(
    '%s: gracefulTools: { retries: 3 } applies to gracefulTool(tool, { retries: undefined })',
    async (api) => {
      const model = scriptedModel((step) =>
        step < 3 ? { calls: [['weather', { city: 'Atlantis' }]] } : { text: 'done' },
      );
      const weather = gracefulTool(failing(), { ...noResilience, retries: undefined });
      expect(await outcome(api, { model, tools: { weather }, gracefulTools: { retries: 3 } })).toBe('done');
      expect(errorTexts(model)).toHaveLength(3);
    },
  );

  it('a wrapper’s own retries still win over the call’s default, as a pydantic-ai tool’s max_retries does', async () => {
    const model = scriptedModel((step) =>
      step < 3 ? { calls: [['weather', { city: 'Atlantis' }]] } : { text: 'done' },
    );
    const weather = gracefulTool(failing(), { ...noResilience, retries: 1 });
    const result = await outcome('generateText', {
      model,
      tools: { weather },
      gracefulTools: { retries: 3 },
    });
    expect(result).toEqual({ rejected: expect.toSatisfy(UnexpectedModelBehavior.isInstance) });
  });
});

describe('an unknown tool name over its budget fails the run in streamText as in generateText', () => {
  it.each(dropIns)('%s: text rejects with UnexpectedModelBehavior', async (api) => {
    const model = scriptedModel(() => ({ calls: [['wether', { city: 'Paris' }]] }));
    const result = await outcome(api, { model, tools: { weather: failing() } });
    expect(result).toEqual({ rejected: expect.toSatisfy(UnexpectedModelBehavior.isInstance) });
    expect((result as { rejected: UnexpectedModelBehavior }).rejected.toolName).toBe('wether');
  });
});

describe('several tools over budget in one step', () => {
  it.each(dropIns)('%s: the run fails with an error recognised as UnexpectedModelBehavior', async (api) => {
    const model = scriptedModel(() => ({
      calls: [
        ['weather', { city: 'Atlantis' }],
        ['forecast', { city: 'Atlantis' }],
      ],
    }));
    const tools = { weather: failing(), forecast: failing() };
    const result = await outcome(api, { model, tools, gracefulTools: { ...noResilience, retries: 0 } });
    const error = (result as { rejected: unknown }).rejected;
    expect(UnexpectedModelBehavior.isInstance(error)).toBe(true);
    expect(AggregateToolError.isInstance(error)).toBe(false);
    expect((error as UnexpectedModelBehavior).toolName).toBe('weather');
  });

  it('one over budget and one graceful: false in the same step: AggregateToolError, as before', async () => {
    const model = scriptedModel(() => ({
      calls: [
        ['weather', { city: 'Atlantis' }],
        ['pay', { city: 'x' }],
      ],
    }));
    const pay = gracefulTool(
      tool({
        inputSchema: cityInput,
        execute: async (): Promise<string> => {
          throw new Error('card declined');
        },
      }),
      { ...noResilience, graceful: false },
    );
    const result = await outcome('generateText', {
      model,
      tools: { weather: failing(), pay },
      gracefulTools: { ...noResilience, retries: 0 },
    });
    expect(AggregateToolError.isInstance((result as { rejected: unknown }).rejected)).toBe(true);
  });
});

describe('invalid input', () => {
  const invalidThenText = (input: unknown) =>
    scriptedModel((step) => (step === 0 ? { calls: [['weather', input]] } : { text: 'done' }));

  it('of a needsApproval: true tool goes back to the model, as the SDK does: nobody is asked to approve it', async () => {
    const execute = vi.fn(async () => 'sunny');
    const model = invalidThenText({ town: 'Paris' });
    const result = await generateText({
      model,
      prompt: 'go',
      tools: { weather: tool({ inputSchema: cityInput, execute, needsApproval: true }) },
      stopWhen: isStepCount(3),
      streamGuard: false,
    });
    expect(result.text).toBe('done');
    expect(result.steps[0]?.content.some((part) => part.type === 'tool-approval-request')).toBe(false);
    expect(errorTexts(model)).toEqual([expect.stringContaining('Invalid input for tool weather')]);
    expect(execute).not.toHaveBeenCalled();
  });

  it('a valid call of a needsApproval: true tool still asks for approval', async () => {
    const result = await generateText({
      model: invalidThenText({ city: 'Paris' }),
      prompt: 'go',
      tools: { weather: tool({ inputSchema: cityInput, execute: async () => 'sunny', needsApproval: true }) },
      stopWhen: isStepCount(3),
      streamGuard: false,
    });
    expect(result.steps[0]?.content.some((part) => part.type === 'tool-approval-request')).toBe(true);
  });

  it('the model reads the input it sent, bounded and redacted', async () => {
    const model = invalidThenText({
      town: 'Paris',
      note: `sk-proj-abcdefghijklmnopqrstuvwxyz ${'x'.repeat(2000)}`,
    });
    await generateText({ model, prompt: 'go', tools: { weather: failing() }, stopWhen: isStepCount(3) });
    const [text] = errorTexts(model);
    expect(text).toContain('The input was: {"town":"Paris","note":"[REDACTED] xxx');
    expect(text).toMatch(/\[truncated \d+ chars\]\n\nFix the errors and try again\.$/);
    expect(text!.length).toBeLessThan(1000);
  });
});
