/**
 * The stream guard on the real `@ai-sdk/google` provider, served Gemini's wire frames (`data: {chunk}` SSE). Frame
 * shapes follow the AI SDK's recorded fixtures (github.com/vercel/ai): `packages/google/src/__fixtures__/`
 * `google-text.chunks.txt` (text chunks with `responseId`, a final empty part carrying `thoughtSignature`),
 * `google-reasoning.json` (a text part with `thoughtSignature`), `google-tool-call-gemini3.json` (a `functionCall`
 * with `thoughtSignature`), `google-stream-no-args-tool-call.chunks.txt` (`thought: true` parts) and
 * `google-429-retry-info.json` (the `error` object Gemini also sends in-band). Texts and signatures are shortened.
 */
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { isStepCount, type TextStreamPart, type ToolSet, tool } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { streamText } from '../../../../adapters/ai-sdk/drop-in/stream-text.js';
import { type Reply, replayFetch, sseData } from '../provider-wire.js';

const modelId = 'gemini-3-pro-preview';

type GeminiPart = Record<string, unknown>;
const chunk = (id: string, parts: GeminiPart[], finishReason?: string) =>
  sseData({
    candidates: [{ content: { parts, role: 'model' }, ...(finishReason && { finishReason }), index: 0 }],
    usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 5, totalTokenCount: 14 },
    modelVersion: modelId,
    responseId: id,
  });
const unavailable = sseData({
  error: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' },
});
const answer = (id: string, text: string): Reply => ({
  sse: [chunk(id, [{ text }]), chunk(id, [{ text: '', thoughtSignature: 'EqsFCqgF' }], 'STOP')],
});

async function run(replies: Reply[], tools?: ToolSet) {
  const wire = replayFetch(replies);
  const google = createGoogleGenerativeAI({ apiKey: 'test-key', fetch: wire.fetch });
  const sleep = vi.fn(async (_ms: number, _signal?: AbortSignal) => {});
  const result = streamText({
    model: google(modelId),
    prompt: 'What is the weather in Paris?',
    tools,
    stopWhen: isStepCount(2),
    providerOptions: { google: { thinkingConfig: { includeThoughts: true } } },
    streamGuard: { sleep, random: () => 0.5 },
    onError: () => {},
  });
  const parts: TextStreamPart<ToolSet>[] = [];
  for await (const part of result.fullStream) parts.push(part);
  return { result, parts, requests: wire.requests, sleep };
}

describe('streamGuard + @ai-sdk/google: failures before content', () => {
  it('an in-band UNAVAILABLE error before any text, twice → two new streamed requests after 1 s and 2 s', async () => {
    const { result, requests, sleep } = await run([
      { sse: [chunk('r1', [{ text: '' }]), unavailable] },
      { sse: [unavailable] },
      answer('r3', 'Sunny in Paris.'),
    ]);
    expect(requests.map((r) => r.stream)).toEqual([true, true, true]);
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([1000, 2000]);
    expect(await result.text).toBe('Sunny in Paris.');
    expect((await result.response).id).toBe('r3');
  });

  it.each([
    ['a chunk with no text', [chunk('r1', [{ text: '' }])]],
    ['nothing at all', []],
  ])(
    'a clean end after %s (finish reason interrupted) → a new streamed request after the backoff',
    async (_n, sse) => {
      const { result, requests, sleep } = await run([{ sse }, answer('r2', 'Sunny.')]);
      expect(requests.map((r) => r.stream)).toEqual([true, true]);
      expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([1000]);
      expect(await result.text).toBe('Sunny.');
      expect(await result.finishReason).toBe('stop');
      const attempts = (await result.providerMetadata)?.['graceful-ai']?.attempts as unknown[] | undefined;
      expect(attempts?.[0]).toMatchObject({
        error: { name: 'StreamInterruptedError' },
        classification: { kind: 'transient', reason: 'finish:interrupted' },
      });
    },
  );

  it("a signature-only block before the first text is preamble: only the winner's reaches the consumer", async () => {
    const { parts, result } = await run([
      { sse: [chunk('r1', [{ text: '', thoughtSignature: 'stale' }]), unavailable] },
      answer('r2', 'Sunny.'),
    ]);
    const signed = parts.filter(
      (p) => 'providerMetadata' in p && JSON.stringify(p.providerMetadata ?? {}).includes('stale'),
    );
    expect(signed).toEqual([]);
    expect(await result.text).toBe('Sunny.');
  });
});

describe('streamGuard + @ai-sdk/google: thought signatures survive a recovery', () => {
  const weather = tool({
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => `Sunny in ${city}`,
  });
  const thought = (text: string) => chunk('r1', [{ text, thought: true }]);
  const cutMidThought: Reply = { sse: [thought('I should call'), thought(' the weather')], end: 'reset' };
  const cutMidText: Reply = {
    sse: [thought('I should call'), thought(' the weather tool.'), chunk('r1', [{ text: 'Let me ' }])],
    end: 'reset',
  };
  const recovered = (parts: GeminiPart[]): Reply => ({
    json: {
      candidates: [{ content: { parts, role: 'model' }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 29, candidatesTokenCount: 15, totalTokenCount: 44 },
      modelVersion: modelId,
      responseId: 'r2',
    },
  });
  const call = { functionCall: { name: 'weather', args: { city: 'Paris' } }, thoughtSignature: 'EpEgCo4g' };

  /** The model turn of the request that followed the tool call (step 2), as sent to Gemini. */
  const modelTurn = (requests: Array<{ body: Record<string, unknown> }>) => {
    const contents = (requests[2]?.body.contents ?? []) as Array<{ role: string; parts: GeminiPart[] }>;
    return contents.find((c) => c.role === 'model')?.parts;
  };

  it.each([
    ['mid-thought; the answer continues it → the remainder only', cutMidThought, false],
    [
      'mid-text, the thought block ended unsigned → a reset (an ended block cannot get its signature)',
      cutMidText,
      true,
    ],
    ['mid-text; the answer differs → a reset', cutMidText, true, 'Paris: use the tool.', 'Checking.'],
  ])(
    'cut %s; the next step sends each part with its thoughtSignature (reasoning, text, call)',
    async (_name, cut, reset, thoughtText = 'I should call the weather tool.', text = 'Let me check.') => {
      const { requests, result, parts } = await run(
        [
          cut,
          recovered([
            { text: thoughtText, thought: true, thoughtSignature: 'CiQBsigR' },
            { text, thoughtSignature: 'CiQBsigT' },
            call,
          ]),
          answer('r3', 'It is sunny in Paris.'),
        ],
        { weather },
      );
      expect(requests.map((r) => r.stream)).toEqual([true, false, true]);
      expect(parts.some((p) => p.type === 'custom' && p.kind === 'graceful-ai.reset')).toBe(reset);
      expect(await result.text).toBe('It is sunny in Paris.');
      expect(modelTurn(requests)).toEqual([
        { text: thoughtText, thought: true, thoughtSignature: 'CiQBsigR' },
        { text, thoughtSignature: 'CiQBsigT' },
        {
          functionCall: { id: expect.any(String), name: 'weather', args: { city: 'Paris' } },
          thoughtSignature: 'EpEgCo4g',
        },
      ]);
    },
  );
});
