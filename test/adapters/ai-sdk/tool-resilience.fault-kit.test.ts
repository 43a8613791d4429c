import { createOpenAI } from '@ai-sdk/openai';
import { generateText, isStepCount, streamText, type ToolSet, tool } from 'ai';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { gracefulTools } from '../../../adapters/ai-sdk/graceful-tool.js';
import { lastToolResults, reply, type Script } from '../../../mocks/index.js';
import { mockHandlers } from '../../../mocks/msw.js';
import { isolatedTelemetry, unavailable, virtualTime } from '../../src/policy/fixtures.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const openai = createOpenAI({ apiKey: 'test-key' });
const models = { chat: () => openai.chat('gpt-4o'), responses: () => openai.responses('gpt-4o') };
const input = z.object({ city: z.string() });
const cases = (['chat', 'responses'] as const).flatMap((api) =>
  (['generateText', 'streamText'] as const).map((call) => ({ api, call })),
);

/** Instant, deterministic backoff so the tests never wait. */
const runtime = () => ({ ...virtualTime(), random: () => 0.5, telemetry: isolatedTelemetry().telemetry });

async function runWith(
  call: 'generateText' | 'streamText',
  api: 'chat' | 'responses',
  script: Script,
  tools: ToolSet,
) {
  const handlers = mockHandlers(script);
  server.use(...handlers);
  const settings = {
    model: models[api](),
    prompt: 'weather in Oslo?',
    tools,
    stopWhen: isStepCount(4),
    maxRetries: 0,
  };
  const text =
    call === 'generateText'
      ? (await generateText(settings)).text
      : await Promise.resolve(streamText(settings).text);
  return { text, wire: handlers.requests.flatMap((r) => lastToolResults(r)) };
}

describe.each(cases)('tool resilience through the OpenAI provider ($api, $call)', ({ api, call }) => {
  it('a tool failing twice transiently then succeeding is invisible to the model', async () => {
    let n = 0;
    const execute = vi.fn(async ({ city }: { city: string }) => {
      if (++n <= 2) throw Object.assign(new Error('connect ECONNRESET'), { code: 'ECONNRESET' });
      return `sunny in ${city}`;
    });
    // A read: safe to re-run after a reset (a non-idempotent tool's reset goes to the model unretried).
    const tools = gracefulTools(
      { weather: tool({ inputSchema: input, execute }) },
      { runtime: runtime(), idempotent: true },
    );
    const { text, wire } = await runWith(
      call,
      api,
      [reply.toolCall('weather', { city: 'Oslo' }), reply.text('It is sunny.')],
      tools,
    );
    expect(execute).toHaveBeenCalledTimes(3);
    expect(text).toBe('It is sunny.');
    expect(wire).toHaveLength(1);
    expect(wire[0]!.error).toBeUndefined();
    expect(wire[0]!.output).toContain('sunny in Oslo');
  });

  it('a dead tool opens its breaker, the model is told it is unavailable, and later calls fail fast', async () => {
    const execute = vi.fn(async (): Promise<string> => {
      throw unavailable('weather API returned 503');
    });
    // Wrapped once (module level in an application): every run shares the breaker.
    const tools = gracefulTools(
      { weather: tool({ inputSchema: input, execute }) },
      { runtime: runtime(), breaker: { failureThreshold: 3 } },
    );
    const script: Script = [
      reply.toolCall('weather', { city: 'Oslo' }),
      reply.text('The weather service is down.'),
    ];

    const first = await runWith(call, api, script, tools);
    expect(execute).toHaveBeenCalledTimes(3);
    expect(first.text).toBe('The weather service is down.');
    expect(first.wire).toHaveLength(1);
    expect(first.wire[0]!.error).toMatch(/^CircuitOpenError: Tool 'weather' is temporarily unavailable/);
    expect(first.wire[0]!.error).toContain('Continue without this tool, or call it again later.');
    expect(first.wire[0]!.error).not.toContain('Fix the errors');

    const later = await runWith(call, api, script, tools);
    expect(execute).toHaveBeenCalledTimes(3);
    expect(later.text).toBe('The weather service is down.');
    expect(later.wire[0]!.error).toMatch(/temporarily unavailable.*it can be called again in 30 s/);
  });
});
