/** The scenario matrix, drop-in `generateText`: each scenario on every wire. */
import { isStepCount, type ToolSet, tool } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { generateText } from '../../../../adapters/ai-sdk/drop-in/generate-text.js';
import { fault, lastToolResults, reply } from '../../../../mocks/index.js';
import { isContextOverflow } from '../../../../src/classify/classify.js';
import { wires } from '../../../wires.js';
import { mockEveryWire, recordedSleep } from './mocked.js';

const mock = mockEveryWire();

describe.each(wires)('drop-in generateText on $name ($label)', (wire) => {
  const call = (tools?: ToolSet) => {
    const { sleep, delays } = recordedSleep();
    const result = generateText({
      model: wire.model(),
      prompt: 'What is the weather in Paris?',
      tools,
      stopWhen: isStepCount(3),
      streamGuard: { sleep, random: () => 0.5 },
    });
    return { result, delays };
  };

  it('a 503, then success → one retry after the backoff, the answer', async () => {
    const requests = mock([fault.serverError(503), reply.text('Sunny.')]);
    const { result, delays } = call();
    const { text, providerMetadata } = await result;
    expect(text).toBe('Sunny.');
    expect(delays).toEqual([1000]);
    expect(requests.map((r) => r.stream)).toEqual([false, false]);
    expect(providerMetadata?.['graceful-ai']?.attempts).toMatchObject([
      { mode: 'generate', outcome: 'failed', classification: { kind: 'transient', reason: 'status:503' } },
      { mode: 'generate', outcome: 'ok' },
    ]);
  });

  it('a context overflow is terminal: rejects at once with an error isContextOverflow knows', async () => {
    const requests = mock([fault.contextLengthExceeded(), reply.text('never')]);
    const { result, delays } = call();
    const error = await result.catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AI_APICallError', statusCode: 400 });
    expect(isContextOverflow(error)).toBe(true);
    expect(requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('a tool loop whose answer step meets a 503: the tool runs once, the retried step answers', async () => {
    const requests = mock([
      reply.toolCall('weather', { city: 'Paris' }),
      fault.serverError(503),
      reply.text('It is sunny in Paris.'),
    ]);
    const execute = vi.fn(async ({ city }: { city: string }) => `sunny in ${city}`);
    const tools = { weather: tool({ inputSchema: z.object({ city: z.string() }), execute }) };
    const { result, delays } = call(tools);
    expect((await result).text).toBe('It is sunny in Paris.');
    expect(execute).toHaveBeenCalledOnce();
    expect(delays).toEqual([1000]);
    expect(requests).toHaveLength(3);
    expect(lastToolResults(requests[2]!)).toMatchObject([
      { toolName: 'weather', output: expect.stringContaining('sunny in Paris') },
    ]);
  });
});
