/**
 * The stream guard on the real `@ai-sdk/anthropic` provider, served Anthropic's wire frames. Frame shapes follow the
 * AI SDK's recorded fixtures (github.com/vercel/ai, `packages/anthropic/src/`): `__fixtures__/anthropic-clear-thinking.1`
 * (`.chunks.txt`: message_start, a thinking block with thinking_delta and signature_delta, a text block; `.json`: the
 * same answer non-streamed), `__fixtures__/anthropic-tool-no-args` and `__fixtures__/spliced-message-start.chunks.txt`
 * (tool_use blocks after thinking), and the in-band `event: error` overloaded_error of
 * `anthropic-language-model.test.ts` ('should forward overloaded error during streaming'). Texts, ids and signatures
 * are shortened.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { isStepCount, RetryError, type TextStreamPart, type ToolSet, tool } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { streamText } from '../../../../adapters/ai-sdk/drop-in/stream-text.js';
import { type Reply, replayFetch, sseEvent } from '../provider-wire.js';

const model = 'claude-sonnet-4-5-20250929';

const messageStart = (id: string) =>
  sseEvent({
    type: 'message_start',
    message: {
      model,
      id,
      type: 'message',
      role: 'assistant',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: 69,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: 2,
      },
    },
  } as { type: string });
const overloaded = sseEvent({
  type: 'error',
  error: { details: null, type: 'overloaded_error', message: 'Overloaded' },
} as { type: string });
const blockStart = (index: number, block: Record<string, unknown>) =>
  sseEvent({ type: 'content_block_start', index, content_block: block } as { type: string });
const delta = (index: number, d: Record<string, unknown>) =>
  sseEvent({ type: 'content_block_delta', index, delta: d } as { type: string });
const blockStop = (index: number) => sseEvent({ type: 'content_block_stop', index } as { type: string });
const messageEnd = (stopReason: 'end_turn' | 'tool_use') => [
  sseEvent({
    type: 'message_delta',
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: 53 },
  } as { type: string }),
  sseEvent({ type: 'message_stop' }),
];
/** A text block at `index`, one delta per piece. */
const textBlock = (index: number, ...pieces: string[]) => [
  blockStart(index, { type: 'text', text: '' }),
  ...pieces.map((text) => delta(index, { type: 'text_delta', text })),
  blockStop(index),
];
const answer = (id: string, ...pieces: string[]) => [
  messageStart(id),
  ...textBlock(0, ...pieces),
  ...messageEnd('end_turn'),
];

const sleep = () => vi.fn(async (_ms: number, _signal?: AbortSignal) => {});

async function run(replies: Reply[], options: { tools?: ToolSet; thinking?: boolean } = {}) {
  const wire = replayFetch(replies);
  const anthropic = createAnthropic({ apiKey: 'sk-ant-test', fetch: wire.fetch });
  const wait = sleep();
  const result = streamText({
    model: anthropic(model),
    prompt: 'What is the weather in Paris?',
    tools: options.tools,
    stopWhen: isStepCount(2),
    providerOptions: options.thinking
      ? { anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } } }
      : undefined,
    streamGuard: { sleep: wait, random: () => 0.5 },
    onError: () => {},
  });
  const parts: TextStreamPart<ToolSet>[] = [];
  for await (const part of result.fullStream) parts.push(part);
  return { result, parts, requests: wire.requests, sleep: wait };
}

const textOf = (parts: TextStreamPart<ToolSet>[]) =>
  parts.map((p) => (p.type === 'text-delta' ? p.text : '')).join('');

describe('streamGuard + @ai-sdk/anthropic: failures before the first token', () => {
  it('an in-band overloaded_error right after message_start, twice → two new streamed requests after 1 s and 2 s', async () => {
    const { result, parts, requests, sleep } = await run([
      { sse: [messageStart('msg_1'), overloaded] },
      { sse: [messageStart('msg_2'), blockStart(0, { type: 'text', text: '' }), overloaded] },
      { sse: answer('msg_3', 'Sunny', ' in Paris.') },
    ]);
    expect(requests.map((r) => r.stream)).toEqual([true, true, true]);
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([1000, 2000]);
    expect(await result.text).toBe('Sunny in Paris.');
    expect(await result.finishReason).toBe('stop');
    expect(parts.some((p) => p.type === 'error')).toBe(false);
    const attempts = (await result.providerMetadata)?.['graceful-ai']?.attempts as unknown[] | undefined;
    expect(attempts).toMatchObject([
      { mode: 'stream', outcome: 'failed', classification: { kind: 'transient', reason: 'status:529' } },
      { mode: 'stream', outcome: 'failed', classification: { kind: 'transient', reason: 'status:529' } },
      { mode: 'stream', outcome: 'ok' },
    ]);
  });

  it("the consumer sees only the winning attempt's preamble: one message_start part, its text-start before its first delta", async () => {
    const { parts, result } = await run([
      { sse: [messageStart('msg_1'), blockStart(0, { type: 'text', text: '' }), overloaded] },
      { sse: answer('msg_2', 'Sunny.') },
    ]);
    const starts = parts.filter((p) => p.type === 'custom' && p.kind === 'anthropic.message_start');
    expect(starts).toHaveLength(1);
    expect(starts[0]).toMatchObject({ providerMetadata: { anthropic: { id: 'msg_2' } } });
    expect((await result.response).id).toBe('msg_2');
    const blocks = parts.filter((p) => p.type.startsWith('text-')).map((p) => p.type);
    expect(blocks).toEqual(['text-start', 'text-delta', 'text-end']);
  });

  it('overloaded three times → the SDK-shaped RetryError after three streamed requests', async () => {
    const { result, parts, requests } = await run([
      { sse: [messageStart('msg_1'), overloaded] },
      { sse: [messageStart('msg_2'), overloaded] },
      { sse: [messageStart('msg_3'), overloaded] },
    ]);
    expect(requests).toHaveLength(3);
    const error = await Promise.resolve(result.text).catch((e: unknown) => e);
    expect(RetryError.isInstance(error)).toBe(true);
    expect((error as RetryError).reason).toBe('maxRetriesExceeded');
    expect(parts.filter((p) => p.type === 'error')).toHaveLength(1);
  });

  it.each([
    ['after message_start', [messageStart('msg_1')]],
    ['after a text block started', [messageStart('msg_1'), blockStart(0, { type: 'text', text: '' })]],
  ])('a clean end %s (no message_stop) → a new streamed request after the backoff', async (_when, frames) => {
    const { result, requests, sleep } = await run([{ sse: frames }, { sse: answer('msg_2', 'Sunny.') }]);
    expect(requests.map((r) => r.stream)).toEqual([true, true]);
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([1000]);
    expect(await result.text).toBe('Sunny.');
    const attempts = (await result.providerMetadata)?.['graceful-ai']?.attempts as unknown[] | undefined;
    expect(attempts?.[0]).toMatchObject({
      error: { name: 'StreamInterruptedError' },
      classification: { kind: 'transient', reason: 'finish:missing' },
    });
  });
});

describe('streamGuard + @ai-sdk/anthropic: extended thinking + tools, cut mid-thinking', () => {
  const weather = tool({
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => `Sunny in ${city}`,
  });
  const thinkingCut: Reply = {
    sse: [
      messageStart('msg_1'),
      blockStart(0, { type: 'thinking', thinking: '', signature: '' }),
      delta(0, { type: 'thinking_delta', thinking: 'The user wants' }),
      delta(0, { type: 'thinking_delta', thinking: ' the weather' }),
    ],
    end: 'reset',
  };
  const toolUse = { type: 'tool_use', id: 'toolu_01', name: 'weather', input: { city: 'Paris' } };
  const recovered = (content: unknown[]): Reply => ({
    json: {
      model,
      id: 'msg_2',
      type: 'message',
      role: 'assistant',
      content,
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 69, output_tokens: 33 },
    },
  });
  const finalAnswer: Reply = { sse: answer('msg_3', 'It is sunny in Paris.') };

  /** The assistant turn of the request that followed the tool call (step 2), as sent to Anthropic. */
  const assistantTurn = (requests: Array<{ body: Record<string, unknown> }>) => {
    const messages = requests[2]?.body.messages as Array<{ role: string; content: unknown[] }>;
    return messages.find((m) => m.role === 'assistant')?.content;
  };

  it.each([
    [
      'continues what was shown (the remainder only)',
      'The user wants the weather in Paris; I will call the tool.',
    ],
    ['differs from what was shown (a reset)', 'Paris weather: call the weather tool.'],
  ])(
    'the recovered answer %s → the next step sends the signed thinking block, then the tool_use',
    async (_name, thinking) => {
      const { result, requests } = await run(
        [
          thinkingCut,
          recovered([{ type: 'thinking', thinking, signature: 'EvQBCkYICxgCKkAx' }, toolUse]),
          finalAnswer,
        ],
        { tools: { weather }, thinking: true },
      );
      expect(requests.map((r) => r.stream)).toEqual([true, false, true]);
      expect(await result.text).toBe('It is sunny in Paris.');
      expect(assistantTurn(requests)).toMatchObject([
        { type: 'thinking', thinking, signature: 'EvQBCkYICxgCKkAx' },
        { type: 'tool_use', id: 'toolu_01', name: 'weather', input: { city: 'Paris' } },
      ]);
      expect(assistantTurn(requests)).toHaveLength(2);
    },
  );

  it('redacted thinking in the recovered answer reaches the next step as a redacted_thinking block', async () => {
    const { requests } = await run(
      [
        thinkingCut,
        recovered([
          { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
          { type: 'thinking', thinking: 'Call the tool.', signature: 'EvQBCkYICxgCKkAx' },
          toolUse,
        ]),
        finalAnswer,
      ],
      { tools: { weather }, thinking: true },
    );
    expect(assistantTurn(requests)).toMatchObject([
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
      { type: 'thinking', thinking: 'Call the tool.', signature: 'EvQBCkYICxgCKkAx' },
      { type: 'tool_use', id: 'toolu_01' },
    ]);
  });

  it('a cut after the signed thinking block, mid-text, the same answer → no reset: the thinking shown keeps its signature, the text gets its remainder', async () => {
    const { result, requests, parts } = await run(
      [
        {
          sse: [
            messageStart('msg_1'),
            blockStart(0, { type: 'thinking', thinking: '', signature: '' }),
            delta(0, { type: 'thinking_delta', thinking: 'Call the tool.' }),
            delta(0, { type: 'signature_delta', signature: 'EvQBCkYICxgCKkAx' }),
            blockStop(0),
            blockStart(1, { type: 'text', text: '' }),
            delta(1, { type: 'text_delta', text: 'Let me ' }),
          ],
          end: 'reset',
        },
        recovered([
          { type: 'thinking', thinking: 'Call the tool.', signature: 'EvQBCkYICxgCKkAx' },
          { type: 'text', text: 'Let me check.' },
          toolUse,
        ]),
        finalAnswer,
      ],
      { tools: { weather }, thinking: true },
    );
    expect(assistantTurn(requests)).toMatchObject([
      { type: 'thinking', thinking: 'Call the tool.', signature: 'EvQBCkYICxgCKkAx' },
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_use', id: 'toolu_01' },
    ]);
    expect((await result.steps)[0]?.text).toBe('Let me check.');
    expect(parts.some((p) => p.type === 'custom' && p.kind === 'graceful-ai.reset')).toBe(false);
  });
});

describe('streamGuard + @ai-sdk/anthropic: the content rule', () => {
  it('text shown before an overload is never shown twice: the remainder comes from one non-streamed request', async () => {
    const { result, parts, requests } = await run([
      {
        sse: [
          messageStart('msg_1'),
          blockStart(0, { type: 'text', text: '' }),
          delta(0, { type: 'text_delta', text: 'Sunny' }),
          overloaded,
        ],
      },
      {
        json: {
          model,
          id: 'msg_2',
          type: 'message',
          role: 'assistant',
          content: [{ type: 'text', text: 'Sunny in Paris.' }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 12, output_tokens: 5 },
        },
      },
    ]);
    expect(requests.map((r) => r.stream)).toEqual([true, false]);
    expect(textOf(parts)).toBe('Sunny in Paris.');
    expect(await result.text).toBe('Sunny in Paris.');
  });
});
