import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EmittedContent } from '../../../adapters/ai-sdk/emitted-content.js';
import { isResetPart, resetPart } from '../../../adapters/ai-sdk/reset-part.js';
import { generated, type Part, textParts } from './stream-guard-fixtures.js';

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
      { type: 'text-start', id: 'graceful-ai-2-text-1' },
      { type: 'text-delta', id: 'graceful-ai-2-text-1', delta: 'Full answer' },
      { type: 'text-end', id: 'graceful-ai-2-text-1' },
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
