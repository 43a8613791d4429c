import type { LanguageModelV4Content, SharedV4ProviderMetadata } from '@ai-sdk/provider';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EmittedContent } from '../../../adapters/ai-sdk/emitted-content.js';
import { withRecoveredPartMetadata } from '../../../adapters/ai-sdk/recovered-metadata.js';
import { isResetPart, removeDiscarded, resetPart } from '../../../adapters/ai-sdk/reset-part.js';
import { generated, type Part, textParts, usage } from './stream-guard-fixtures.js';

/** An EmittedContent that has seen `parts`, as the guard tracks them on their way to the consumer. */
function seen(parts: Part[]): EmittedContent {
  const emitted = new EmittedContent();
  for (const part of parts) emitted.track(part);
  return emitted;
}

/** The text a consumer ends up with: every text delta, minus what a reset part told it to discard. */
function consumerText(parts: Part[]): string {
  let text = '';
  for (const part of parts) {
    if (isResetPart(part)) text = '';
    else if (part.type === 'text-delta') text += part.delta;
  }
  return text;
}

describe('EmittedContent.completeWith', () => {
  it('an answer that begins with what was emitted → only the remainder, in the open block, which is then closed', () => {
    const before = textParts('The quick', { open: true });
    const emitted = seen(before);
    expect(emitted.chars).toBe(9);
    expect(emitted.completeWith(generated('The quick brown fox'), 2)).toEqual([
      { type: 'text-delta', id: 't1', delta: ' brown fox' },
      { type: 'text-end', id: 't1' },
    ]);
  });

  it('the same text → nothing but the closing of the open block', () => {
    expect(seen(textParts('Hi', { open: true })).completeWith(generated('Hi'), 2)).toEqual([
      { type: 'text-end', id: 't1' },
    ]);
  });

  it('no block open → the remainder as a new, complete block', () => {
    const emitted = seen(textParts('The quick'));
    expect(emitted.completeWith(generated('The quick brown fox'), 3)).toEqual([
      { type: 'text-start', id: 'graceful-ai-3-text-0' },
      { type: 'text-delta', id: 'graceful-ai-3-text-0', delta: ' brown fox' },
      { type: 'text-end', id: 'graceful-ai-3-text-0' },
    ]);
  });

  it('a different answer → open blocks closed, a reset part naming what to discard, then the whole answer', () => {
    const emitted = seen([
      { type: 'reasoning-start', id: 'r1' },
      { type: 'reasoning-delta', id: 'r1', delta: 'hmm' },
      ...textParts('Partial ', { open: true }),
      { type: 'tool-input-start', id: 'call-1', toolName: 'search' },
    ]);
    expect(emitted.completeWith(generated('Full answer'), 2)).toEqual([
      { type: 'reasoning-end', id: 'r1' },
      { type: 'text-end', id: 't1' },
      resetPart({ textIds: ['t1'], reasoningIds: ['r1'], toolInputIds: ['call-1'], discardedChars: 11 }),
      { type: 'text-start', id: 'graceful-ai-2-text-0' },
      { type: 'text-delta', id: 'graceful-ai-2-text-0', delta: 'Full answer' },
      { type: 'text-end', id: 'graceful-ai-2-text-0' },
    ]);
  });

  it('reasoning that differs resets too, even when the text continues', () => {
    const emitted = seen([
      { type: 'reasoning-start', id: 'r1' },
      { type: 'reasoning-delta', id: 'r1', delta: 'first thought' },
      { type: 'reasoning-end', id: 'r1' },
    ]);
    const parts = emitted.completeWith(
      generated('Answer', [{ type: 'reasoning', text: 'other thought' }]),
      2,
    );
    expect(parts.filter(isResetPart)).toHaveLength(1);
    expect(parts.filter((part) => part.type === 'reasoning-delta')).toEqual([
      { type: 'reasoning-delta', id: 'graceful-ai-2-reasoning-0', delta: 'other thought' },
    ]);
  });

  it('a tool call already emitted (same tool, same input as JSON) is not emitted again; a new one is', () => {
    const emitted = seen([
      ...textParts('Looking'),
      { type: 'tool-call', toolCallId: 'a', toolName: 'search', input: '{"q": "fox"}' },
    ]);
    const again = { type: 'tool-call', toolCallId: 'b', toolName: 'search', input: '{"q":"fox"}' } as const;
    const fresh = { type: 'tool-call', toolCallId: 'c', toolName: 'search', input: '{"q":"dog"}' } as const;
    const parts = emitted.completeWith(generated('Looking', [again, fresh]), 2);
    expect(parts).toEqual([fresh]);
  });

  it('property: the consumer ends up with exactly the answer, each character once, every block closed once', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (before, answer) => {
        const emittedParts = textParts(before, { open: true });
        const emitted = seen(emittedParts);
        const parts = emitted.completeWith(generated(answer), 2);
        const all = [...emittedParts, ...parts];
        expect(consumerText(all)).toBe(answer);
        const reset = parts.find(isResetPart);
        if (answer.startsWith(before)) expect(reset).toBeUndefined();
        else expect(reset?.providerMetadata['graceful-ai'].reset.discardedChars).toBe(before.length);
        const starts = all.filter((part) => part.type === 'text-start').map((part) => part.id);
        const ends = all.filter((part) => part.type === 'text-end').map((part) => part.id);
        expect(ends.sort()).toEqual(starts.sort());
      }),
    );
  });
});

type Kind = 'text' | 'reasoning';
interface Assembled {
  type: Kind;
  text: string;
  providerMetadata: SharedV4ProviderMetadata | undefined;
}

/**
 * The step content the AI SDK builds from stream parts (`streamText`: a block's `providerMetadata` is set by its
 * start and replaced by each delta or end that carries one), after the drop-in's `removeDiscarded`.
 */
function assemble(parts: Part[]): Array<Assembled | Part> {
  const content: Array<Assembled | Part> = [];
  const open = new Map<string, Assembled>();
  for (const part of parts) {
    switch (part.type) {
      case 'text-start':
      case 'reasoning-start': {
        const entry: Assembled = {
          type: part.type === 'text-start' ? 'text' : 'reasoning',
          text: '',
          providerMetadata: part.providerMetadata,
        };
        open.set(part.id, entry);
        content.push(entry);
        break;
      }
      case 'text-delta':
      case 'reasoning-delta':
      case 'text-end':
      case 'reasoning-end': {
        const entry = open.get(part.id)!;
        if ('delta' in part) entry.text += part.delta;
        entry.providerMetadata = part.providerMetadata ?? entry.providerMetadata;
        if (part.type.endsWith('-end')) open.delete(part.id);
        break;
      }
      default:
        content.push(part);
    }
  }
  removeDiscarded(content);
  return content;
}

const answer = (content: LanguageModelV4Content[]) => ({
  content,
  finishReason: { unified: 'tool-calls' as const, raw: 'tool_use' },
  usage,
  warnings: [],
});
const signed = (signature: string) => ({ anthropic: { signature } });

describe("EmittedContent.completeWith keeps the answer's provider metadata", () => {
  const call = {
    type: 'tool-call',
    toolCallId: 'toolu_2',
    toolName: 'weather',
    input: '{"city":"Paris"}',
  } as const;

  it('a cut mid-thinking, same thinking → the remainder and the end carry the signature; the tool call follows', () => {
    const emitted = seen([
      { type: 'reasoning-start', id: '0' },
      { type: 'reasoning-delta', id: '0', delta: 'Let me' },
    ]);
    const parts = emitted.completeWith(
      answer([{ type: 'reasoning', text: 'Let me check.', providerMetadata: signed('sig-2') }, call]),
      2,
    );
    expect(parts).toEqual([
      { type: 'reasoning-delta', id: '0', delta: ' check.', providerMetadata: signed('sig-2') },
      { type: 'reasoning-end', id: '0', providerMetadata: signed('sig-2') },
      call,
    ]);
  });

  it('thinking shown in full but cut before its signature → the end alone brings the signature', () => {
    const emitted = seen([
      { type: 'reasoning-start', id: '0' },
      { type: 'reasoning-delta', id: '0', delta: 'Let me check.' },
    ]);
    expect(
      emitted.completeWith(
        answer([{ type: 'reasoning', text: 'Let me check.', providerMetadata: signed('s') }]),
        2,
      ),
    ).toEqual([{ type: 'reasoning-end', id: '0', providerMetadata: signed('s') }]);
  });

  it("a reset → every part in the answer's order, each block with its metadata; empty redacted thinking kept", () => {
    const emitted = seen([
      { type: 'reasoning-start', id: '0' },
      { type: 'reasoning-delta', id: '0', delta: 'First try' },
    ]);
    const redacted = { anthropic: { redactedData: 'EmwKAhgB' } };
    const text = { google: { thoughtSignature: 'CiQB' } };
    const parts = emitted.completeWith(
      answer([
        { type: 'reasoning', text: '', providerMetadata: redacted },
        { type: 'reasoning', text: 'Other thought', providerMetadata: signed('sig-2') },
        { type: 'text', text: 'Checking.', providerMetadata: text },
        call,
      ]),
      2,
    );
    expect(parts.slice(2)).toEqual([
      { type: 'reasoning-start', id: 'graceful-ai-2-reasoning-0', providerMetadata: redacted },
      { type: 'reasoning-end', id: 'graceful-ai-2-reasoning-0', providerMetadata: redacted },
      { type: 'reasoning-start', id: 'graceful-ai-2-reasoning-1', providerMetadata: signed('sig-2') },
      {
        type: 'reasoning-delta',
        id: 'graceful-ai-2-reasoning-1',
        delta: 'Other thought',
        providerMetadata: signed('sig-2'),
      },
      { type: 'reasoning-end', id: 'graceful-ai-2-reasoning-1', providerMetadata: signed('sig-2') },
      { type: 'text-start', id: 'graceful-ai-2-text-2', providerMetadata: text },
      { type: 'text-delta', id: 'graceful-ai-2-text-2', delta: 'Checking.', providerMetadata: text },
      { type: 'text-end', id: 'graceful-ai-2-text-2', providerMetadata: text },
      call,
    ]);
  });

  it("text continued in its open block ends with the answer's metadata (Gemini thoughtSignature)", () => {
    const emitted = seen(textParts('There are', { id: '0', open: true }));
    const meta = { google: { thoughtSignature: 'EqsF' } };
    expect(
      emitted.completeWith(answer([{ type: 'text', text: 'There are 3.', providerMetadata: meta }]), 2),
    ).toEqual([
      { type: 'text-delta', id: '0', delta: ' 3.', providerMetadata: meta },
      { type: 'text-end', id: '0', providerMetadata: meta },
    ]);
  });

  it('empty blocks match by position: a redacted block shown stays; one the stream never showed means a reset', () => {
    const redacted = { anthropic: { redactedData: 'EmwKAhgB' } };
    const streamed: Part[] = [
      { type: 'reasoning-start', id: '0', providerMetadata: redacted },
      { type: 'reasoning-end', id: '0' },
      { type: 'reasoning-start', id: '1' },
      { type: 'reasoning-delta', id: '1', delta: 'Let' },
    ];
    const both = answer([
      { type: 'reasoning', text: '', providerMetadata: redacted },
      { type: 'reasoning', text: 'Let me', providerMetadata: signed('s') },
    ]);
    expect(seen(streamed).completeWith(both, 2)).toEqual([
      { type: 'reasoning-delta', id: '1', delta: ' me', providerMetadata: signed('s') },
      { type: 'reasoning-end', id: '1', providerMetadata: signed('s') },
    ]);
    // The answer has a redacted block before the thinking shown, which the stream never sent: not a continuation.
    expect(seen(streamed.slice(2)).completeWith(both, 2).some(isResetPart)).toBe(true);
    // The stream sent a redacted block the answer does not have: not a continuation either.
    const thinkingOnly = answer([{ type: 'reasoning', text: 'Let me', providerMetadata: signed('s') }]);
    expect(seen(streamed).completeWith(thinkingOnly, 2).some(isResetPart)).toBe(true);
  });

  const kind = fc.constantFrom<Kind>('text', 'reasoning');
  const metadata = fc.option(fc.record({ p: fc.record({ sig: fc.string({ minLength: 1 }) }) }), {
    nil: undefined,
  });
  const answerParts = fc.array(fc.record({ type: kind, text: fc.string(), providerMetadata: metadata }), {
    maxLength: 5,
  });
  /** What the AI SDK keeps of an answer's parts: every one with text or metadata. */
  const kept = (parts: Assembled[]) => parts.filter((p) => p.text !== '' || p.providerMetadata !== undefined);
  // Each stale block has its own metadata, as item ids and signatures are unique.
  let staleCount = 0;
  const stale = () => ({ p: { sig: `from the failed response ${++staleCount}` } });
  /** A step's parts as the guard sends and the drop-in keeps them: recovered metadata in place of stale. */
  const asKept = (parts: Assembled[]) =>
    kept(withRecoveredPartMetadata(parts, 'providerMetadata') as Assembled[]);

  it("property: the answer streamed as it is and cut anywhere → the step holds exactly the answer's parts and metadata (a block shown in full under stale metadata gets the answer's later); no reset where the text is the same", () => {
    fc.assert(
      fc.property(answerParts, fc.nat(), fc.boolean(), (parts, at, staleEnds) => {
        // The stream sends the answer's own blocks; as Anthropic does, a block's metadata comes with its end: the
        // answer's own, or (another response's stream) a stale one.
        const streamed: Part[] = [];
        parts.forEach((p, i) => {
          const id = `s${i}`;
          streamed.push({ type: `${p.type}-start`, id });
          for (const ch of p.text) streamed.push({ type: `${p.type}-delta`, id, delta: ch });
          const metadata = staleEnds ? stale() : p.providerMetadata;
          streamed.push({ type: `${p.type}-end`, id, ...(metadata && { providerMetadata: metadata }) });
        });
        const shown = streamed.slice(0, at % (streamed.length + 1));
        const recovered = seen(shown).completeWith(answer(parts), 2);
        expect(asKept(assemble([...shown, ...recovered]) as Assembled[])).toEqual(kept(parts));
        // A reset only for an empty block (nothing was read twice) whose stale metadata is all it holds.
        const emptyStale = parts.some((p) => p.text === '');
        if (!staleEnds || !emptyStale) expect(recovered.some(isResetPart)).toBe(false);
      }),
    );
  });

  it('property: after a reset the step holds exactly the answer, metadata included, in its order', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), kind, answerParts, (before, shownKind, parts) => {
        const shown: Part[] = [
          { type: `${shownKind}-start`, id: 'x' },
          { type: `${shownKind}-delta`, id: 'x', delta: before },
        ];
        const recovered = seen(shown).completeWith(answer(parts), 2);
        fc.pre(recovered.some(isResetPart));
        expect(assemble([...shown, ...recovered])).toEqual(kept(parts));
      }),
    );
  });
});
