/**
 * graceful-ai's `ToolLoopAgent`: `ai`'s class with the drop-ins underneath, through the real `@ai-sdk/openai`
 * provider and the fault kit. (The AI SDK's own agent tests run against it outside the repository: see
 * docs/agents.md, "Differences from ai".)
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import {
  experimental_createSteering,
  isStepCount,
  ToolLoopAgent as SdkToolLoopAgent,
  createAgentUIStreamResponse as sdkCreateAgentUIStreamResponse,
  tool,
} from 'ai';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ToolLoopAgent } from '../../../../adapters/ai-sdk/agent/tool-loop-agent.js';
import { createAgentUIStream } from '../../../../adapters/ai-sdk/ui-stream/agent-ui-stream.js';
import {
  assistantPrefill,
  fault,
  lastToolResults,
  type RecordedRequest,
  reply,
  type Script,
  streamFault,
} from '../../../../mocks/index.js';
import { mockHandlers } from '../../../../mocks/msw.js';
import { UnexpectedModelBehavior } from '../../../../src/errors/unexpected-model-behavior.js';
import type { Coordination } from '../../../../src/policy/coordination.js';

const msw = setupServer();
beforeAll(() => msw.listen({ onUnhandledFrame: 'error' }));
afterEach(() => msw.resetHandlers());
afterAll(() => msw.close());

const model = createOpenAI({ apiKey: 'sk-test' }).chat('gpt-4o');
const noSleep = { sleep: async () => {} };

function mock(script: Script): RecordedRequest[] {
  const handlers = mockHandlers(script);
  msw.use(...handlers);
  return handlers.requests;
}

const weather = () =>
  tool({
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }): Promise<string> => {
      throw new Error(`weather service has no data for ${city}`);
    },
  });

/** An agent whose model calls the failing tool until its budget (`retries: 1`) is used up. */
function overBudget(
  onError: (event: { error: unknown }) => void,
): ToolLoopAgent<never, { weather: ReturnType<typeof weather> }> {
  mock(() => reply.toolCall('weather', { city: 'Paris' }));
  return new ToolLoopAgent({ model, tools: { weather: weather() }, stopWhen: isStepCount(5), onError });
}

describe('ToolLoopAgent is ai’s agent', () => {
  it('extends ai’s class: instanceof, version, id and tools are ai’s', () => {
    const tools = { weather: weather() };
    const agent = new ToolLoopAgent({ model, id: 'helper', tools });
    expect(agent).toBeInstanceOf(SdkToolLoopAgent);
    expect(agent.version).toBe('agent-v1');
    expect(agent.id).toBe('helper');
    expect(agent.tools).toBe(tools);
  });

  it('checks graceful-ai’s options where they are given: in the constructor', () => {
    expect(() => new ToolLoopAgent({ model, turnTimeoutMs: 0 })).toThrow(/turnTimeoutMs/);
    expect(() => new ToolLoopAgent({ model, streamGuard: { maxRetries: -1 } })).toThrow(
      /streamGuard\.maxRetries/,
    );
  });

  it('prepares calls with ai’s own prepareCall: an ai without it is named at construction, not mid-call', () => {
    const prototype = SdkToolLoopAgent.prototype as unknown as Record<string, unknown>;
    const prepareCall = prototype.prepareCall;
    delete prototype.prepareCall;
    try {
      expect(() => new ToolLoopAgent({ model })).toThrow(/prepares agent calls differently/);
    } finally {
      prototype.prepareCall = prepareCall;
    }
  });

  it('ai’s agent UI helpers accept experimental_steering for it (instanceof ToolLoopAgent)', async () => {
    mock([reply.text('Hi.')]);
    const agent = new ToolLoopAgent({ model, streamGuard: noSleep });
    const user = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] };
    const steering = experimental_createSteering();
    const response = await sdkCreateAgentUIStreamResponse({
      agent,
      uiMessages: [user],
      experimental_steering: steering,
    });
    expect(await response.text()).toContain('"delta":"Hi."');
  });
});

describe('generate() and stream() run the drop-ins', () => {
  it('the guard is the single retry authority: a key that stays rate-limited costs 3 requests, not 9', async () => {
    const requests = mock(() => fault.rateLimit({ retryAfterSeconds: 0 }));
    const onError = vi.fn();
    const agent = new ToolLoopAgent({ model, onError, streamGuard: noSleep });
    await expect(agent.generate({ prompt: 'hi' })).rejects.toThrow();
    expect(requests).toHaveLength(3);
    expect(onError).toHaveBeenCalledOnce();
  });

  it('a stream cut mid-answer is recovered: text holds the answer once', async () => {
    const answer = 'The capital of France is Paris.';
    mock([reply.text(answer, { fault: streamFault.cut({ afterChars: 12 }) }), reply.text(answer)]);
    const agent = new ToolLoopAgent({ model, streamGuard: noSleep });
    const result = await agent.stream({ prompt: 'capital?' });
    expect(await result.text).toBe(answer);
  });

  it('tools get gracefulTools defaults from the settings; a call may change them in prepareCall', async () => {
    const requests = mock([
      reply.toolCall('weather', { city: 'Paris' }),
      reply.toolCall('weather', { city: 'Paris' }),
      reply.text('No data.'),
    ]);
    const agent = new ToolLoopAgent({
      model,
      tools: { weather: weather() },
      stopWhen: isStepCount(5),
      gracefulTools: { retries: 0 },
      prepareCall: ({ options, ...rest }) => ({ ...rest, gracefulTools: { retries: 2 } }),
      streamGuard: noSleep,
    });
    const result = await agent.generate({ prompt: 'weather?' });
    expect(result.text).toBe('No data.');
    expect(lastToolResults(requests[2]!)[0]?.error).toContain('weather service has no data for Paris');
  });

  it('a tool over its retries budget fails the run: generate() calls onError once and rejects', async () => {
    const onError = vi.fn();
    const agent = overBudget(onError);
    await expect(agent.generate({ prompt: 'weather?' })).rejects.toSatisfy(
      UnexpectedModelBehavior.isInstance,
    );
    expect(onError).toHaveBeenCalledOnce();
    expect(UnexpectedModelBehavior.isInstance(onError.mock.calls[0]?.[0].error)).toBe(true);
  });

  it('an aborted generate() is not reported to onError, as in ai’s agent', async () => {
    mock([reply.text('Hi.', { frameDelayMs: 1000 })]);
    const onError = vi.fn();
    const agent = new ToolLoopAgent({ model, onError, streamGuard: noSleep });
    const controller = new AbortController();
    const call = agent.generate({ prompt: 'hi', abortSignal: controller.signal });
    controller.abort();
    await expect(call).rejects.toThrow();
    expect(onError).not.toHaveBeenCalled();
  });

  it('the unknown-tool hook runs after the caller’s repairToolCall (the current name, not only the old one)', async () => {
    const requests = mock([reply.toolCall('forecast', { city: 'Paris' }), reply.text('Sorry.')]);
    const repairToolCall = vi.fn(async () => null);
    const agent = new ToolLoopAgent({
      model,
      tools: { weather: weather() },
      stopWhen: isStepCount(3),
      repairToolCall,
      streamGuard: noSleep,
    });
    await agent.generate({ prompt: 'weather?' });
    expect(repairToolCall).toHaveBeenCalledOnce();
    // graceful-ai's text for the model: the SDK's message, then what to do.
    expect(lastToolResults(requests[1]!)[0]?.error).toMatch(
      /unavailable tool 'forecast'[\s\S]*Fix the errors/,
    );
  });

  it('the turn deadline: onTurnDeadline from the settings receives the report when the run ends', async () => {
    mock([reply.text('Hi.')]);
    const onTurnDeadline = vi.fn();
    const agent = new ToolLoopAgent({ model, onTurnDeadline, turnTimeoutMs: 60_000, streamGuard: noSleep });
    const result = await agent.stream({ prompt: 'hi' });
    await result.text;
    await vi.waitFor(() => expect(onTurnDeadline).toHaveBeenCalledOnce());
    expect(onTurnDeadline.mock.calls[0]?.[0]).toMatchObject({ expired: false });
  });

  it('coordination from the settings reaches the guard: each request is admitted through it', async () => {
    mock([reply.text('Hi.')]);
    const beforeCall = vi.fn(async () => {});
    const coordination: Coordination = { beforeCall, coolDown: async () => {} };
    const agent = new ToolLoopAgent({ model, coordination, streamGuard: noSleep });
    await agent.generate({ prompt: 'hi' });
    expect(beforeCall).toHaveBeenCalled();
  });

  it('streamGuard: false from prepareCall calls the SDK unguarded, with its own retries', async () => {
    const requests = mock(() => fault.serverError(500));
    const agent = new ToolLoopAgent({
      model,
      maxRetries: 0,
      prepareCall: (call) => ({ ...call, streamGuard: false }),
    });
    await expect(agent.generate({ prompt: 'hi' })).rejects.toThrow();
    expect(requests).toHaveLength(1);
  });
});

describe('its UI stream with createAgentUIStream', () => {
  it('a run over budget ends with the calls closed, an error chunk, then finish; onError once', async () => {
    const onError = vi.fn();
    const agent = overBudget(onError);
    const user = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'weather?' }] };
    const chunks = [];
    for await (const chunk of await createAgentUIStream({ agent, uiMessages: [user] })) chunks.push(chunk);
    expect(chunks.slice(-2)).toEqual([
      { type: 'error', errorText: 'An error occurred.' },
      { type: 'finish', finishReason: 'error' },
    ]);
    expect(chunks.filter((c) => c.type === 'tool-output-error')).toHaveLength(2);
    expect(onError).toHaveBeenCalledOnce();
  });
});

describe('failover in the agent (streamGuard.fallbackModels)', () => {
  const ANSWER = 'The quick brown fox jumps over the lazy dog.';
  const user = { id: 'u1', role: 'user' as const, parts: [{ type: 'text' as const, text: 'Say it.' }] };
  const cutThenDown =
    (answer: (prefilled: boolean) => string): Script =>
    (request, { index }) => {
      if (index === 0) return reply.text(ANSWER, { fault: streamFault.cut({ afterChars: 16 }) });
      if (request.api === 'chat') return fault.serverError(503);
      return reply.text(answer(assistantPrefill(request) !== undefined));
    };
  const chunksOf = async (agent: ToolLoopAgent<never, Record<string, never>>) => {
    const chunks: { type: string; delta?: string }[] = [];
    for await (const chunk of await createAgentUIStream({ agent, uiMessages: [user] })) chunks.push(chunk);
    return chunks;
  };
  const text = (chunks: { type: string; delta?: string }[]) =>
    chunks.map((c) => (c.type === 'text-delta' ? c.delta : '')).join('');

  it('OpenAI cut mid-answer and down: Anthropic continues it, the chat reads one answer, no reset-step', async () => {
    mock(cutThenDown((prefilled) => (prefilled ? ' fox jumps over the lazy dog.' : 'Another answer.')));
    const agent = new ToolLoopAgent({
      model: createOpenAI({ apiKey: 'sk-test' }).chat(`gpt-4o-agent-${Math.random()}`),
      streamGuard: {
        ...noSleep,
        fallbackModels: [createAnthropic({ apiKey: 'sk-ant' })('claude-sonnet-4-5')],
      },
    });
    const chunks = await chunksOf(agent);
    expect(text(chunks)).toBe(ANSWER);
    expect(chunks.some((c) => c.type === 'reset-step')).toBe(false);
  });

  it('a fallback that cannot continue (Gemini) answers anew: a reset-step, then the new answer', async () => {
    mock(cutThenDown(() => 'A fox, quickly over a dog.'));
    const agent = new ToolLoopAgent({
      model: createOpenAI({ apiKey: 'sk-test' }).chat(`gpt-4o-agent-${Math.random()}`),
      streamGuard: {
        ...noSleep,
        fallbackModels: [createGoogleGenerativeAI({ apiKey: 'g' })('gemini-2.5-flash')],
      },
    });
    const chunks = await chunksOf(agent);
    const reset = chunks.findIndex((c) => c.type === 'reset-step');
    expect(reset).toBeGreaterThan(0);
    expect(text(chunks.slice(reset))).toBe('A fox, quickly over a dog.');
  });
});
