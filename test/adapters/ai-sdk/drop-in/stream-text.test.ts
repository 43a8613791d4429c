import { createOpenAI } from '@ai-sdk/openai';
import {
  streamText as sdkStreamText,
  isStepCount as stepCountIs,
  type TextStreamPart,
  type ToolSet,
  tool,
} from 'ai';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { streamText } from '../../../../adapters/ai-sdk/drop-in/stream-text.js';
import type { StreamGuardEvent } from '../../../../adapters/ai-sdk/stream-guard/options.js';
import { lastToolResults, reply, type Script, streamFault } from '../../../../mocks/index.js';
import { mockHandlers } from '../../../../mocks/msw.js';
import { StreamConsumedError } from '../../../../src/errors/stream-consumed-error.js';

const msw = setupServer();
beforeAll(() => msw.listen({ onUnhandledFrame: 'error' }));
afterEach(() => msw.resetHandlers());
afterAll(() => msw.close());

const openai = createOpenAI({ apiKey: 'sk-test' });

function mock(script: Script) {
  const handlers = mockHandlers(script);
  msw.use(...handlers);
  return handlers.requests;
}

const sleep = () => vi.fn(async (_ms: number, _signal?: AbortSignal) => {});

async function consume<T extends ToolSet>(stream: AsyncIterable<TextStreamPart<T>>) {
  const parts: TextStreamPart<T>[] = [];
  for await (const part of stream) parts.push(part);
  return { parts, text: parts.map((p) => (p.type === 'text-delta' ? p.text : '')).join('') };
}

const ANSWER = 'The quick brown fox jumps over the lazy dog.';

// Recovery from cuts, in-band errors, early ends, 429s, 503s and a tool loop, and terminal errors before content,
// run on every wire in the scenario matrix (matrix/stream-text.matrix.test.ts); what follows is the rest.

describe.each(['chat', 'responses'] as const)('drop-in streamText through the fault kit (%s)', (api) => {
  const model = api === 'chat' ? openai.chat('gpt-4o') : openai.responses('gpt-4o');

  it('a cut, then a different answer → the reset part, then the full answer; the result holds only the new one', async () => {
    mock([
      reply.text('Partial answer that will be', { fault: streamFault.cut({ afterChars: 8 }) }),
      reply.text(ANSWER),
    ]);
    const onStepEnd = vi.fn();
    const result = streamText({ model, prompt: 'hi', onStepEnd, streamGuard: { sleep: sleep() } });
    const { parts } = await consume(result.fullStream);
    const reset = parts.findIndex((p) => p.type === 'custom');
    expect(parts[reset]).toMatchObject({ type: 'custom', kind: 'graceful-ai.reset' });
    const before = parts
      .slice(0, reset)
      .map((p) => (p.type === 'text-delta' ? p.text : ''))
      .join('');
    const after = parts
      .slice(reset)
      .map((p) => (p.type === 'text-delta' ? p.text : ''))
      .join('');
    expect(before).toBe('Partial ');
    expect(after).toBe(ANSWER);
    expect(await result.text).toBe(ANSWER);
    const steps = await result.steps;
    expect(steps[0]?.content).toEqual([expect.objectContaining({ type: 'text', text: ANSWER })]);
    expect((await result.response).messages).toEqual([
      { role: 'assistant', content: [expect.objectContaining({ type: 'text', text: ANSWER })] },
    ]);
    expect(onStepEnd).toHaveBeenCalledOnce();
    expect(onStepEnd.mock.calls[0]?.[0].text).toBe(ANSWER);
  });

  it.each([
    [
      'a context overflow',
      streamFault.error({
        afterChars: 8,
        code: 'context_length_exceeded',
        message:
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
      }),
    ],
    [
      'a revoked key (401)',
      streamFault.error({
        afterChars: 8,
        code: 'invalid_api_key',
        message: 'Incorrect API key provided: sk-mock***.',
      }),
    ],
  ])('%s mid-stream is terminal: result.text rejects, no retry', async (_n, terminal) => {
    const requests = mock([reply.text(ANSWER, { fault: terminal }), reply.text(ANSWER)]);
    const onError = vi.fn();
    const result = streamText({ model, prompt: 'hi', onError, streamGuard: { sleep: sleep() } });
    await expect(result.text).rejects.toThrow();
    expect(requests).toHaveLength(1);
  });

  it('iterating the same textStream twice throws StreamConsumedError; a fresh getter replays', async () => {
    mock([reply.text(ANSWER)]);
    const result = streamText({ model, prompt: 'hi' });
    const stream = result.textStream;
    let text = '';
    for await (const delta of stream) text += delta;
    expect(text).toBe(ANSWER);
    expect(() => stream[Symbol.asyncIterator]()).toThrow(StreamConsumedError);
    let replay = '';
    for await (const delta of result.textStream) replay += delta;
    expect(replay).toBe(ANSWER);
  });

  it("a stalled stream with the SDK's chunk timeout is recovered by the guard (chunkMs becomes the stall timeout)", async () => {
    const requests = mock([
      reply.text(ANSWER, { fault: streamFault.stall({ afterChars: 8 }) }),
      reply.text(ANSWER),
    ]);
    const result = streamText({
      model,
      prompt: 'hi',
      timeout: { chunkMs: 50 },
      streamGuard: { sleep: sleep() },
    });
    const { text } = await consume(result.fullStream);
    expect(text).toBe(ANSWER);
    expect(requests.map((r) => r.stream)).toEqual([true, false]);
    const attempts = (await result.providerMetadata)?.['graceful-ai']?.attempts;
    expect(attempts).toMatchObject([{ error: { name: 'StreamStalledError' } }, { outcome: 'ok' }]);
  });

  it('an abort during recovery ends the call: no further request, result.text rejects', async () => {
    const requests = mock([
      reply.text(ANSWER, { fault: streamFault.cut({ afterChars: 8 }) }),
      reply.text(ANSWER, { delayMs: 5_000 }),
    ]);
    const controller = new AbortController();
    const onEvent = (e: StreamGuardEvent) => {
      if (e.type === 'stream_degraded') setTimeout(() => controller.abort(new Error('user left')), 10);
    };
    const result = streamText({
      model,
      prompt: 'hi',
      abortSignal: controller.signal,
      streamGuard: { onEvent },
    });
    await consume(result.fullStream);
    await expect(result.text).rejects.toThrow();
    expect(requests).toHaveLength(2);
  });
});

describe('drop-in defaults for tools and the turn', () => {
  const model = openai.chat('gpt-4o');

  it('applies gracefulTools to the tool set: the model reads the formatted error', async () => {
    const requests = mock([reply.toolCall('lookup', { id: 7 }), reply.text('Sorry.')]);
    // A fresh error per call: the model-visible text is attached to the error object.
    const execute = async (): Promise<string> => {
      throw Object.assign(new Error('record 7 is archived'), { status: 400 });
    };
    const tools = { lookup: tool({ inputSchema: z.object({ id: z.number() }), execute }) };
    const result = streamText({ model, prompt: 'hi', tools, stopWhen: stepCountIs(2) });
    expect(await result.text).toBe('Sorry.');
    const seen = lastToolResults(requests[1]!)[0]?.output;
    expect(JSON.stringify(seen)).toContain('Fix the errors and try again.');

    const plain = mock([reply.toolCall('lookup', { id: 7 }), reply.text('Sorry.')]);
    await streamText({ model, prompt: 'hi', tools, stopWhen: stepCountIs(2), gracefulTools: false }).text;
    expect(JSON.stringify(lastToolResults(plain[1]!)[0]?.output)).not.toContain('Fix the errors');
  });

  it('wraps a tools object once: every call with the same tools (and defaults) shares the wrapped set', async () => {
    // Wrapping copies each tool with every property descriptor: count how often this tool is read that way.
    let copies = 0;
    const lookup = new Proxy(tool({ inputSchema: z.object({ id: z.number() }), execute: async () => 'ok' }), {
      ownKeys: (target) => {
        copies++;
        return Reflect.ownKeys(target);
      },
    });
    const tools = { lookup };
    const defaults = { retries: 2 };
    for (let i = 0; i < 3; i++) {
      mock([reply.text('Hi.')]);
      await streamText({ model, prompt: 'hi', tools, gracefulTools: defaults }).text;
    }
    const afterThree = copies;
    expect(afterThree).toBeGreaterThan(0);
    mock([reply.text('Hi.')]);
    await streamText({ model, prompt: 'hi', tools, gracefulTools: defaults }).text;
    expect(copies).toBe(afterThree);
    // Other defaults are another wrapping.
    mock([reply.text('Hi.')]);
    await streamText({ model, prompt: 'hi', tools, gracefulTools: { retries: 3 } }).text;
    expect(copies).toBeGreaterThan(afterThree);
  });

  it('turnTimeoutMs: a hanging tool is abandoned and the model answers in one tool-free step', async () => {
    const requests = mock([reply.toolCall('slow', {}), reply.text('Answered without it.')]);
    const execute = vi.fn(
      (_input: object, { abortSignal }: { abortSignal?: AbortSignal }) =>
        new Promise<string>((_resolve, reject) =>
          abortSignal?.addEventListener('abort', () => reject(abortSignal.reason)),
        ),
    );
    const tools = { slow: tool({ inputSchema: z.object({}), execute }) };
    const result = streamText({ model, prompt: 'hi', tools, stopWhen: stepCountIs(5), turnTimeoutMs: 50 });
    expect(await result.text).toBe('Answered without it.');
    expect(execute).toHaveBeenCalledOnce();
    expect(requests).toHaveLength(2);
  });
});

describe('what the plain SDK shows for the same cut (for comparison)', () => {
  it('streamRetries re-streams: the consumer sees the partial text AND the full answer', async () => {
    mock([reply.text(ANSWER, { fault: streamFault.error({ afterChars: 13 }) }), reply.text(ANSWER)]);
    const result = sdkStreamText({
      model: openai.chat('gpt-4o'),
      prompt: 'hi',
      maxRetries: 0,
      streamRetries: 2,
      onError: () => {},
    });
    const { text } = await consume(result.fullStream);
    expect(text).toBe(ANSWER.slice(0, 13) + ANSWER);
  });
});
