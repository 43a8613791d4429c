/**
 * A reset as `reset-step`: what a client holds after the rendered stream is exactly what `withoutDiscarded` keeps of
 * the stream with the reset as a custom part, for any step (text, reasoning, tool calls with results, incomplete tool
 * inputs, sources, data), one reset or several.
 */
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gracefulUIChunks } from '../../../../adapters/ai-sdk/ui-stream/ui-chunks.js';
import { withoutDiscarded } from '../../../../adapters/ui/index.js';
import { resetPart } from '../../../../src/stream/reset-part.js';

type Chunk = UIMessageChunk;

const stream = (chunks: Chunk[]) =>
  new ReadableStream<Chunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });

async function finalMessage(chunks: ReadableStream<Chunk>): Promise<UIMessage> {
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream: chunks })) last = message;
  if (last === undefined) throw new Error('no message');
  return last;
}

async function rendered(chunks: Chunk[]): Promise<Chunk[]> {
  const out: Chunk[] = [];
  const reader = gracefulUIChunks(stream(chunks), true).getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) out.push(next.value);
  return out;
}

const reset = (toolInputIds: string[] = []): Chunk =>
  resetPart({ textIds: [], reasoningIds: [], toolInputIds, discardedChars: 0 }) as Chunk;

/** One thing a step can show, as the chunks that show it (`n` makes ids unique). */
type Block = (n: number) => { chunks: Chunk[]; incompleteToolInput?: string };

const blocks: Record<string, Block> = {
  text: (n) => ({
    chunks: [
      { type: 'text-start', id: `t${n}` },
      { type: 'text-delta', id: `t${n}`, delta: `text ${n}` },
      { type: 'text-end', id: `t${n}` },
    ],
  }),
  reasoning: (n) => ({
    chunks: [
      { type: 'reasoning-start', id: `r${n}` },
      { type: 'reasoning-delta', id: `r${n}`, delta: `thought ${n}` },
      { type: 'reasoning-end', id: `r${n}` },
    ],
  }),
  toolCall: (n) => ({
    chunks: [
      { type: 'tool-input-start', toolCallId: `c${n}`, toolName: 'add' },
      { type: 'tool-input-delta', toolCallId: `c${n}`, inputTextDelta: '{"a":1}' },
      { type: 'tool-input-available', toolCallId: `c${n}`, toolName: 'add', input: { a: 1 } },
      { type: 'tool-output-available', toolCallId: `c${n}`, output: n },
    ],
  }),
  incompleteToolInput: (n) => ({
    chunks: [
      { type: 'tool-input-start', toolCallId: `i${n}`, toolName: 'add' },
      { type: 'tool-input-delta', toolCallId: `i${n}`, inputTextDelta: '{"a":' },
    ],
    incompleteToolInput: `i${n}`,
  }),
  source: (n) => ({ chunks: [{ type: 'source-url', sourceId: `s${n}`, url: `https://example.com/${n}` }] }),
  data: (n) => ({ chunks: [{ type: 'data-note', id: `d${n}`, data: { n } }] }),
  metadata: (n) => ({ chunks: [{ type: 'message-metadata', messageMetadata: { n } }] }),
};

const blockName = fc.constantFrom(...Object.keys(blocks));

/** A step: blocks, then a reset listing the incomplete tool inputs; `rounds` times; then the final answer. */
function step(rounds: string[][], offset: number): Chunk[] {
  let n = offset;
  const chunks: Chunk[] = [{ type: 'start-step' }];
  for (const round of rounds) {
    const shown = round.map((name) => blocks[name]!(n++));
    chunks.push(...shown.flatMap((b) => b.chunks));
    chunks.push(reset(shown.flatMap((b) => (b.incompleteToolInput ? [b.incompleteToolInput] : []))));
  }
  chunks.push(...blocks.text!(n).chunks, { type: 'finish-step' });
  return chunks;
}

describe('resets as reset-step (gracefulUIChunks)', () => {
  it('a client of the rendered stream holds what withoutDiscarded keeps of the original (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.array(blockName, { maxLength: 5 }), { minLength: 1, maxLength: 3 }), {
          minLength: 1,
          maxLength: 3,
        }),
        async (steps) => {
          const chunks: Chunk[] = [
            { type: 'start', messageId: 'm1' },
            ...steps.flatMap((rounds, i) => step(rounds, i * 100)),
            { type: 'finish' },
          ];
          const original = await finalMessage(stream(chunks));
          const out = await rendered(chunks);
          expect(out.filter((c) => c.type === 'custom')).toEqual([]);
          expect(await finalMessage(stream(out))).toEqual(withoutDiscarded(original));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a tool call made before the reset is sent again once, after reset-step; the discarded text is not', async () => {
    const chunks: Chunk[] = [
      { type: 'start-step' },
      ...blocks.text!(1).chunks,
      ...blocks.toolCall!(2).chunks,
      reset(),
      ...blocks.text!(3).chunks,
    ];
    expect((await rendered(chunks)).map((c) => c.type)).toEqual([
      'start-step',
      'text-start',
      'text-delta',
      'text-end',
      'tool-input-start',
      'tool-input-delta',
      'tool-input-available',
      'tool-output-available',
      'reset-step',
      'tool-input-start',
      'tool-input-delta',
      'tool-input-available',
      'tool-output-available',
      'text-start',
      'text-delta',
      'text-end',
    ]);
  });

  it('chunks that add no part (transient data, metadata, errors) are not sent again', async () => {
    const chunks: Chunk[] = [
      { type: 'start-step' },
      { type: 'data-progress', data: { done: 1 }, transient: true },
      { type: 'message-metadata', messageMetadata: { a: 1 } },
      { type: 'error', errorText: 'x' },
      reset(),
    ];
    expect((await rendered(chunks)).slice(4)).toEqual([{ type: 'reset-step' }]);
  });

  it('other custom chunks pass, and are kept by a reset', async () => {
    const other: Chunk = { type: 'custom', kind: 'anthropic.message_start' };
    expect(await rendered([{ type: 'start-step' }, other, reset()])).toEqual([
      { type: 'start-step' },
      other,
      { type: 'reset-step' },
      other,
    ]);
  });

  it('a stream that ends with an error and no finish gets finish after it, unless sendFinish is false', async () => {
    const failedEarly: Chunk[] = [{ type: 'start' }, { type: 'error', errorText: 'An error occurred.' }];
    const read = async (sendFinish: boolean | undefined) => {
      const out: Chunk[] = [];
      const reader = gracefulUIChunks(stream(failedEarly), sendFinish).getReader();
      for (let next = await reader.read(); !next.done; next = await reader.read()) out.push(next.value);
      return out;
    };
    expect(await read(undefined)).toEqual([...failedEarly, { type: 'finish', finishReason: 'error' }]);
    expect(await read(false)).toEqual(failedEarly);
    // A stream that finished after its error is left as it is.
    const finished: Chunk[] = [
      ...failedEarly,
      { type: 'finish-step' },
      { type: 'finish', finishReason: 'error' },
    ];
    expect(await rendered(finished)).toEqual(finished);
  });
});
