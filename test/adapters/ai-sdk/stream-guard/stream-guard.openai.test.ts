/**
 * The stream guard on the real `@ai-sdk/openai` provider (chat and responses), served OpenAI's wire frames, for
 * parity with the Anthropic and Gemini tests. Frame shapes follow the AI SDK's recorded fixtures (github.com/vercel/ai,
 * `packages/openai/src/`): `chat/__fixtures__/openai-text.chunks.txt` (chat chunks: a role chunk, content deltas) and
 * `responses/__fixtures__/openai-reasoning-encrypted-content.1` (`.chunks.txt`: a reasoning item with
 * `encrypted_content` and summary deltas, a function call; `.json`: the non-streamed response, `store: false`).
 * Ids, texts and encrypted contents are shortened.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { isStepCount, type TextStreamPart, type ToolSet, tool } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { streamText } from '../../../../adapters/ai-sdk/drop-in/stream-text.js';
import { type Reply, replayFetch, sseData, sseEvent } from '../provider-wire.js';

async function run(replies: Reply[], api: 'chat' | 'responses', extra: { tools?: ToolSet } = {}) {
  const wire = replayFetch(replies);
  const openai = createOpenAI({ apiKey: 'sk-test', fetch: wire.fetch });
  const sleep = vi.fn(async (_ms: number, _signal?: AbortSignal) => {});
  const result = streamText({
    model: api === 'chat' ? openai.chat('gpt-4.1-nano') : openai.responses('gpt-5-mini'),
    prompt: 'What is the weather in Paris?',
    tools: extra.tools,
    stopWhen: isStepCount(2),
    providerOptions: {
      openai: { store: false, include: ['reasoning.encrypted_content'], reasoningSummary: 'detailed' },
    },
    streamGuard: { sleep, random: () => 0.5 },
    onError: () => {},
  });
  const parts: TextStreamPart<ToolSet>[] = [];
  for await (const part of result.fullStream) parts.push(part);
  return { result, parts, requests: wire.requests, sleep };
}

// ---- chat completions ----

const chatChunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  sseData({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1770933892,
    model: 'gpt-4.1-nano-2025-04-14',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
const roleChunk = chatChunk({ role: 'assistant', content: '', refusal: null });
const done = 'data: [DONE]\n\n';
const chatAnswer = (text: string): Reply => ({
  sse: [roleChunk, chatChunk({ content: text }), chatChunk({}, 'stop'), done],
});
const chatError = sseData({
  error: { message: 'The server had an error.', type: 'server_error', code: null },
});

describe('streamGuard + @ai-sdk/openai chat: failures before content', () => {
  it('an in-band error after the role chunk, twice → two new streamed requests after 1 s and 2 s', async () => {
    const { result, requests, sleep } = await run(
      [{ sse: [roleChunk, chatError] }, { sse: [roleChunk, chatError] }, chatAnswer('Sunny in Paris.')],
      'chat',
    );
    expect(requests.map((r) => r.stream)).toEqual([true, true, true]);
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([1000, 2000]);
    expect(await result.text).toBe('Sunny in Paris.');
  });

  it('[DONE] with no finish_reason before any content (finish reason interrupted) → a new streamed request', async () => {
    const { result, requests, sleep } = await run([{ sse: [roleChunk, done] }, chatAnswer('Sunny.')], 'chat');
    expect(requests.map((r) => r.stream)).toEqual([true, true]);
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([1000]);
    expect(await result.text).toBe('Sunny.');
    expect(await result.finishReason).toBe('stop');
  });
});

// ---- responses ----

const event = (data: Record<string, unknown> & { type: string }) => sseEvent(data);
const responseObject = (id: string, status: string, output: unknown[] = []) => ({
  id,
  object: 'response',
  created_at: 1765552659,
  model: 'gpt-5-mini-2025-08-07',
  status,
  error: null,
  incomplete_details: null,
  output,
  usage:
    status === 'in_progress'
      ? null
      : {
          input_tokens: 50,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 20,
          output_tokens_details: { reasoning_tokens: 10 },
          total_tokens: 70,
        },
});
const started = (id: string) => [
  event({ type: 'response.created', response: responseObject(id, 'in_progress') }),
  event({ type: 'response.in_progress', response: responseObject(id, 'in_progress') }),
];
const message = (id: string, text?: string) => ({
  type: 'message',
  id,
  status: text === undefined ? 'in_progress' : 'completed',
  role: 'assistant',
  content: text === undefined ? [] : [{ type: 'output_text', text, annotations: [], logprobs: [] }],
});
const messageStarted = (id: string) => [
  event({ type: 'response.output_item.added', output_index: 0, item: message(id) }),
  event({
    type: 'response.content_part.added',
    item_id: id,
    output_index: 0,
    content_index: 0,
    part: { type: 'output_text', text: '', annotations: [] },
  }),
];
const textDelta = (id: string, delta: string) =>
  event({
    type: 'response.output_text.delta',
    item_id: id,
    output_index: 0,
    content_index: 0,
    delta,
    logprobs: [],
  });
const responsesAnswer = (n: number, text: string): Reply => ({
  sse: [
    ...started(`resp_${n}`),
    ...messageStarted(`msg_${n}`),
    textDelta(`msg_${n}`, text),
    event({ type: 'response.output_item.done', output_index: 0, item: message(`msg_${n}`, text) }),
    event({
      type: 'response.completed',
      response: responseObject(`resp_${n}`, 'completed', [message(`msg_${n}`, text)]),
    }),
  ],
});
// `sequence_number` is required: without it the package reports a validation error, not the server's error.
const responsesError = event({
  type: 'error',
  sequence_number: 4,
  code: 'server_error',
  message: 'The server had an error.',
  param: null,
});

describe('streamGuard + @ai-sdk/openai responses: failures before content', () => {
  it('an in-band error after the message item was added (text-start, no delta) → a new streamed request', async () => {
    const { result, requests, sleep, parts } = await run(
      [
        { sse: [...started('resp_1'), ...messageStarted('msg_1'), responsesError] },
        responsesAnswer(2, 'Sunny.'),
      ],
      'responses',
    );
    expect(requests.map((r) => r.stream)).toEqual([true, true]);
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([1000]);
    expect(await result.text).toBe('Sunny.');
    // Only the winner's text block: the failed attempt's text-start never reached the consumer.
    expect(parts.filter((p) => p.type === 'text-start').map((p) => p.id)).toEqual(['msg_2']);
    const attempts = (await result.providerMetadata)?.['graceful-ai']?.attempts as unknown[] | undefined;
    expect(attempts?.[0]).toMatchObject({ error: { message: 'The server had an error.' } });
  });

  it('a clean end after response.created (no response.completed) → a new streamed request', async () => {
    const { result, requests } = await run(
      [{ sse: started('resp_1') }, responsesAnswer(2, 'Sunny.')],
      'responses',
    );
    expect(requests.map((r) => r.stream)).toEqual([true, true]);
    expect(await result.text).toBe('Sunny.');
  });
});

describe('streamGuard + @ai-sdk/openai responses: reasoning items survive a recovery', () => {
  const weather = tool({
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => `Sunny in ${city}`,
  });
  const reasoningItem = (id: string, encrypted: string, summary: string[] = []) => ({
    id,
    type: 'reasoning',
    encrypted_content: encrypted,
    summary: summary.map((text) => ({ type: 'summary_text', text })),
  });
  const cutMidReasoning: Reply = {
    sse: [
      ...started('resp_1'),
      event({
        type: 'response.output_item.added',
        output_index: 0,
        item: reasoningItem('rs_1', 'gAAAA-first'),
      }),
      event({
        type: 'response.reasoning_summary_part.added',
        item_id: 'rs_1',
        output_index: 0,
        summary_index: 0,
        part: { type: 'summary_text', text: '' },
      }),
      event({
        type: 'response.reasoning_summary_text.delta',
        item_id: 'rs_1',
        output_index: 0,
        summary_index: 0,
        delta: '**Checking the weather**',
      }),
    ],
    end: 'reset',
  };
  const call = {
    id: 'fc_2',
    type: 'function_call',
    status: 'completed',
    arguments: '{"city":"Paris"}',
    call_id: 'call_2',
    name: 'weather',
  };
  const recovered = (summary: string): Reply => ({
    json: responseObject('resp_2', 'completed', [reasoningItem('rs_2', 'gAAAA-second', [summary]), call]),
  });

  it.each([
    ['continues what was shown', '**Checking the weather**\n\nI will call the weather tool.', false],
    ['differs from what was shown (a reset)', '**Weather lookup**', true],
  ])(
    'the recovered answer %s → the next step sends the recovered reasoning item, encrypted content included',
    async (_name, summary, reset) => {
      const { requests, parts, result } = await run(
        [cutMidReasoning, recovered(summary), responsesAnswer(3, 'It is sunny in Paris.')],
        'responses',
        { tools: { weather } },
      );
      expect(requests.map((r) => r.stream)).toEqual([true, false, true]);
      expect(parts.some((p) => p.type === 'custom' && p.kind === 'graceful-ai.reset')).toBe(reset);
      expect(await result.text).toBe('It is sunny in Paris.');
      const input = requests[2]?.body.input as Array<Record<string, unknown>>;
      expect(input.filter((item) => item.type === 'reasoning')).toEqual([
        {
          type: 'reasoning',
          id: 'rs_2',
          encrypted_content: 'gAAAA-second',
          summary: [{ type: 'summary_text', text: summary }],
        },
      ]);
      expect(input.find((item) => item.type === 'function_call')).toMatchObject({ call_id: 'call_2' });
    },
  );
});
