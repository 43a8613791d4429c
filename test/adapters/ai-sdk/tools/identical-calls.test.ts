/**
 * `maxIdenticalCalls`: the call after N identical calls (same tool, same input) in one run is not run; the model reads
 * that it repeats itself and what the last of those calls returned; a different input is not affected. Counted from
 * the run's messages, so runs never share a count.
 */
import { isStepCount, type ModelMessage, tool } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defaults } from '../../../../adapters/ai-sdk/defaults.js';
import { generateText } from '../../../../adapters/ai-sdk/drop-in/generate-text.js';
import { gracefulTool, gracefulTools } from '../../../../adapters/ai-sdk/tools/graceful-tool.js';
import { RepeatedToolCallError } from '../../../../src/errors/repeated-tool-call-error.js';
import { UnexpectedModelBehavior } from '../../../../src/errors/unexpected-model-behavior.js';
import { modelText } from '../../../../src/model-text/model-text.js';
import { lastToolOutputs, scriptedModel } from '../scripted-model.js';

/** A `search` tool that answers `results for <q>`. */
function searchTool() {
  const execute = vi.fn(async ({ q }: { q: string; page?: number }) => `results for ${q}`);
  return {
    execute,
    tool: tool({ inputSchema: z.object({ q: z.string(), page: z.number().optional() }), execute }),
  };
}

/** The model makes `inputs[i]` the input of its call in step i, then answers. */
async function run(inputs: object[], gracefulToolsOptions = {}) {
  const search = searchTool();
  const model = scriptedModel((step) =>
    step < inputs.length ? { calls: [['search', inputs[step]]] } : { text: 'done' },
  );
  const result = generateText({
    model,
    prompt: 'Find it.',
    tools: { search: search.tool },
    stopWhen: isStepCount(inputs.length + 1),
    gracefulTools: gracefulToolsOptions,
  });
  const told = () => model.doGenerateCalls.flatMap((call) => lastToolOutputs(call)).map((t) => t.output);
  return { result, execute: search.execute, told };
}

const repeatedText = (calls: number, last: string) =>
  `RepeatedToolCallError: You already called 'search' ${calls} times with this same input in this task, so this ` +
  `call was not run again. The last of those calls returned: ${last}\n\n${modelText.guidance.repeated}`;

describe('maxIdenticalCalls (default 3)', () => {
  it('the fourth identical call is not run: the model reads that it repeats itself, and the last result', async () => {
    expect(defaults.tool.maxIdenticalCalls).toBe(3);
    const same = { q: 'weather' };
    const { result, execute, told } = await run([same, same, same, same]);
    expect((await result).text).toBe('done');
    expect(execute).toHaveBeenCalledTimes(3);
    expect(told()[3]).toEqual({ type: 'error-text', value: repeatedText(3, 'results for weather') });
  });

  it('the same JSON in another key order is the same input', async () => {
    const { result, execute } = await run([
      { q: 'weather', page: 1 },
      { page: 1, q: 'weather' },
      { q: 'weather', page: 1 },
      { page: 1, q: 'weather' },
    ]);
    await result;
    expect(execute).toHaveBeenCalledTimes(3);
  });

  it('a distinct input is not affected, before or after a blocked call', async () => {
    const same = { q: 'weather' };
    const { result, execute, told } = await run([same, same, { q: 'news' }, same, same, { q: 'sport' }]);
    await result;
    // weather ×3 run, the 4th weather is blocked; news and sport run.
    expect(execute.mock.calls.map(([input]) => input.q)).toEqual([
      'weather',
      'weather',
      'news',
      'weather',
      'sport',
    ]);
    expect(told()[4]).toMatchObject({ type: 'error-text' });
  });

  it('failed calls are left to retries: only calls that answered count', async () => {
    let n = 0;
    const execute = vi.fn(async ({ q }: { q: string }) => {
      if (++n === 2) throw new Error('backend hiccup');
      return `results for ${q}`;
    });
    const same = { q: 'weather' };
    const model = scriptedModel((step) => (step < 5 ? { calls: [['search', same]] } : { text: 'done' }));
    await generateText({
      model,
      prompt: 'Find it.',
      tools: { search: tool({ inputSchema: z.object({ q: z.string() }), execute }) },
      stopWhen: isStepCount(6),
      gracefulTools: { autoRetry: false },
    });
    // ok, failed, ok, ok: three answers; the fifth call is blocked.
    expect(execute).toHaveBeenCalledTimes(4);
    const told = model.doGenerateCalls.flatMap((call) => lastToolOutputs(call)).map((t) => t.output);
    expect(told[4]).toEqual({ type: 'error-text', value: repeatedText(3, 'results for weather') });
  });

  it('a model that keeps repeating itself fails the run: the blocked call counts against retries', async () => {
    const same = { q: 'weather' };
    const { result, execute } = await run([same, same, same, same, same, same]);
    const error = await result.catch((e: unknown) => e);
    expect(UnexpectedModelBehavior.isInstance(error)).toBe(true);
    expect(RepeatedToolCallError.isInstance((error as Error).cause)).toBe(true);
    expect(execute).toHaveBeenCalledTimes(3);
  });

  it('maxIdenticalCalls: 1 blocks the second identical call; false never blocks', async () => {
    const same = { q: 'weather' };
    const one = await run([same, same], { maxIdenticalCalls: 1 });
    await one.result;
    expect(one.execute).toHaveBeenCalledTimes(1);
    expect(one.told()[1]).toEqual({
      type: 'error-text',
      value: repeatedText(1, 'results for weather').replace('1 times', 'once'),
    });
    const off = await run([same, same, same, same, same], { maxIdenticalCalls: false });
    await off.result;
    expect(off.execute).toHaveBeenCalledTimes(5);
  });

  it('the count is per run: calls before the last user message do not count', async () => {
    const search = searchTool();
    const wrapped = gracefulTools({ search: search.tool });
    const call = (id: number) => ({
      role: 'assistant' as const,
      content: [
        { type: 'tool-call' as const, toolCallId: `c${id}`, toolName: 'search', input: { q: 'weather' } },
      ],
    });
    const result = (id: number): ModelMessage => ({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: `c${id}`,
          toolName: 'search',
          output: { type: 'text', value: 'results for weather' },
        },
      ],
    });
    const earlierRun: ModelMessage[] = [call(1), result(1), call(2), result(2), call(3), result(3)];
    const options = (messages: ModelMessage[]) => ({ toolCallId: 'c9', messages, context: {} });
    const execute = wrapped.search!.execute!;
    // Three identical calls in this run: the fourth is blocked.
    await expect(
      Promise.resolve(execute({ q: 'weather' }, options([{ role: 'user', content: 'go' }, ...earlierRun]))),
    ).rejects.toSatisfy(RepeatedToolCallError.isInstance);
    // The same three in an earlier run: this run's first call runs.
    await expect(
      execute({ q: 'weather' }, options([...earlierRun, { role: 'user', content: 'again' }])),
    ).resolves.toBe('results for weather');
    expect(search.execute).toHaveBeenCalledTimes(1);
  });

  it('is checked where it is given', () => {
    const { tool: t } = searchTool();
    expect(() => gracefulTool(t, { maxIdenticalCalls: 0 })).toThrow(RangeError);
    expect(() => gracefulTool(t, { maxIdenticalCalls: 1.5 })).toThrow(/maxIdenticalCalls/);
    expect(() => gracefulTools({ t }, { maxIdenticalCalls: true as unknown as number })).toThrow(TypeError);
    expect(() => gracefulTool(t, { maxIdenticalCalls: false })).not.toThrow();
  });
});
