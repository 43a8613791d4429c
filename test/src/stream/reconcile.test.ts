import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reconcile } from '../../../src/stream/reconcile.js';

describe('reconcile', () => {
  it('an answer that begins with what was emitted → only the remainder', () => {
    expect(reconcile('The quick', 'The quick brown fox')).toEqual({
      kind: 'continue',
      remainder: ' brown fox',
    });
  });

  it('nothing emitted → the whole answer as remainder; the same text → an empty remainder', () => {
    expect(reconcile('', 'Hi')).toEqual({ kind: 'continue', remainder: 'Hi' });
    expect(reconcile('Hi', 'Hi')).toEqual({ kind: 'continue', remainder: '' });
  });

  it('a different answer → a reset carrying the whole new answer', () => {
    expect(reconcile('Partial ', 'Full answer')).toEqual({
      kind: 'reset',
      discardedChars: 8,
      text: 'Full answer',
    });
  });

  it('property: the consumer always ends up with exactly the answer, each character once', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (emitted, answer) => {
        const plan = reconcile(emitted, answer);
        const seen = plan.kind === 'continue' ? emitted + plan.remainder : plan.text;
        expect(seen).toBe(answer);
        if (plan.kind === 'reset') expect(plan.discardedChars).toBe(emitted.length);
      }),
    );
  });
});
