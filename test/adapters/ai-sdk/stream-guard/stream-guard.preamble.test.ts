/**
 * The commit point (`adapters/ai-sdk/stream-guard/attempt/preamble.ts`), provider-agnostic: what counts as content, the preamble held
 * back until an attempt commits, and a stream that ends before any content.
 */
import { wrapLanguageModel } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { isContent } from '../../../../adapters/ai-sdk/stream-guard/attempt/preamble.js';
import { streamGuard } from '../../../../adapters/ai-sdk/stream-guard/stream-guard.js';
import { StreamInterruptedError } from '../../../../src/errors/stream-interrupted-error.js';
import type { AttemptRecord } from '../../../../src/stream/attempt-record.js';
import {
  apiError,
  finish,
  inBandError,
  type Part,
  preamble,
  scriptedModel,
  streamOf,
  textParts,
} from '../stream-guard-fixtures.js';

function guarded(model: ReturnType<typeof scriptedModel>, maxRetries = 2) {
  const sleep = vi.fn(async (_ms: number, _signal?: AbortSignal) => {});
  const wrapped = wrapLanguageModel({
    model,
    middleware: streamGuard({ sleep, random: () => 0.5, maxRetries }),
  });
  return { wrapped, sleep };
}

async function readAll(stream: ReadableStream<Part>): Promise<Part[]> {
  const parts: Part[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) parts.push(next.value);
  return parts;
}

const attemptsOf = (parts: Part[]) => {
  const done = parts.find((p) => p.type === 'finish');
  return (done?.type === 'finish' ? done.providerMetadata?.['graceful-ai']?.attempts : undefined) as
    | AttemptRecord[]
    | undefined;
};

/** Everything a provider may send before its first token. */
const earlyParts = (id: string): Part[] => [
  ...preamble(id),
  { type: 'custom', kind: 'provider.message_start', providerMetadata: { provider: { id } } },
  { type: 'reasoning-start', id: `r-${id}` },
  { type: 'reasoning-delta', id: `r-${id}`, delta: '', providerMetadata: { provider: { signature: id } } },
  { type: 'reasoning-end', id: `r-${id}` },
  { type: 'text-start', id: `t-${id}` },
  { type: 'tool-input-start', id: `call-${id}`, toolName: 'search' },
  { type: 'tool-input-delta', id: `call-${id}`, delta: '' },
  { type: 'raw', rawValue: { id } },
  { type: 'ping' },
];

describe('what counts as content', () => {
  it.each<[Part, boolean]>([
    [{ type: 'text-delta', id: 't', delta: 'a' }, true],
    [{ type: 'reasoning-delta', id: 'r', delta: 'a' }, true],
    [{ type: 'tool-input-delta', id: 'c', delta: '{' }, true],
    [{ type: 'tool-call', toolCallId: 'c', toolName: 'search', input: '{}' }, true],
    [{ type: 'tool-result', toolCallId: 'c', toolName: 'search', result: 'ok' }, true],
    [{ type: 'tool-approval-request', approvalId: 'a', toolCallId: 'c' }, true],
    [{ type: 'file', mediaType: 'image/png', data: { type: 'data', data: 'iVBO' } }, true],
    [{ type: 'source', sourceType: 'url', id: 's', url: 'https://example.com' }, true],
    [{ type: 'text-delta', id: 't', delta: '' }, false],
    ...earlyParts('x').map((part): [Part, boolean] => [part, false]),
  ])('%j → %s', (part, content) => {
    expect(isContent(part)).toBe(content);
  });
});

describe('streamGuard: the preamble is held back until the attempt commits', () => {
  const winner = [...earlyParts('good'), { type: 'text-delta', id: 't-good', delta: 'Hi' } as Part, finish()];

  it.each([
    ['an error part', streamOf([...earlyParts('bad'), { type: 'error', error: apiError(529) }])],
    [
      'an in-band provider error',
      streamOf([
        ...earlyParts('bad'),
        { type: 'error', error: inBandError({ message: 'Overloaded', statusCode: 529 }) },
      ]),
    ],
    ['a rejected stream', streamOf(earlyParts('bad'), apiError(503))],
    ['a clean end', streamOf(earlyParts('bad'))],
    ["a finish 'interrupted'", streamOf([...earlyParts('bad'), finish('interrupted')])],
  ])(
    'a failure after a whole preamble (%s) → a new stream after the backoff; the consumer sees the winner’s preamble only',
    async (_name, failing) => {
      const model = scriptedModel([failing, streamOf(winner)]);
      const { wrapped, sleep } = guarded(model);
      const parts = await readAll((await wrapped.doStream({ prompt: [] })).stream);
      expect(model.doStreamCalls).toHaveLength(2);
      expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([1000]);
      // Exactly the winner's parts, in order (its text-start before its first delta, with its id), then its finish.
      expect(parts.slice(0, -1)).toEqual(winner.slice(0, -1));
      expect(JSON.stringify(parts)).not.toContain('bad');
    },
  );

  it('a finish that is not interrupted commits the attempt: an empty answer is an answer', async () => {
    const parts = [
      ...preamble('r1'),
      { type: 'text-start', id: 't1' } as Part,
      { type: 'text-end', id: 't1' } as Part,
      finish(),
    ];
    const model = scriptedModel([streamOf(parts)]);
    const out = await readAll((await guarded(model).wrapped.doStream({ prompt: [] })).stream);
    expect(out).toEqual(parts);
    expect(model.doStreamCalls).toHaveLength(1);
  });

  it('a clean end before content, every attempt → the stream errors with StreamInterruptedError after 3 requests', async () => {
    const model = scriptedModel([
      streamOf(preamble('a')),
      streamOf(preamble('b')),
      streamOf([...preamble('c'), finish('interrupted')]),
    ]);
    const { wrapped, sleep } = guarded(model);
    const error = await readAll((await wrapped.doStream({ prompt: [] })).stream).catch((e: unknown) => e);
    expect(StreamInterruptedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ ending: 'interrupted', charsEmitted: 0 });
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([1000, 2000]);
    expect(model.doStreamCalls).toHaveLength(3);
  });

  it('records the early end as transient: finish:missing (no finish part), finish:interrupted', async () => {
    const model = scriptedModel([
      streamOf(preamble('a')),
      streamOf([...preamble('b'), finish('interrupted')]),
      streamOf([...preamble('c'), ...textParts('Hi'), finish()]),
    ]);
    const parts = await readAll((await guarded(model).wrapped.doStream({ prompt: [] })).stream);
    expect(attemptsOf(parts)).toMatchObject([
      {
        error: { name: 'StreamInterruptedError' },
        classification: { kind: 'transient', reason: 'finish:missing' },
      },
      {
        error: { name: 'StreamInterruptedError' },
        classification: { kind: 'transient', reason: 'finish:interrupted' },
      },
      { outcome: 'ok' },
    ]);
  });
});
