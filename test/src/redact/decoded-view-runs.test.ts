import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DecodedView, decodedView, originalIndex } from '../../../src/redact/decoded-view.js';

/** The original text each view character came from. */
const origins = (original: string, view: DecodedView): string[] =>
  Array.from(view.text, (_, i) => original.slice(originalIndex(view, i), originalIndex(view, i + 1)));

// Runs of escapes, one right after another: each maps back to its own escape, and a run stops where the kind changes.
describe('decodedView over runs of escapes', () => {
  it.each([
    ['percent-escapes', '%41%42%43x', 'ABCx', ['%41', '%42', '%43', 'x']],
    ['unicode escapes', '\\u0073\\u006b\\u002d', 'sk-', ['\\u0073', '\\u006b', '\\u002d']],
    ['an escape of another length', '%41%42\\u0043%44', 'ABCD', ['%41', '%42', '\\u0043', '%44']],
    ['a broken escape', '%41%42%4g%43', 'AB%4gC', ['%41', '%42', '%', '4', 'g', '%43']],
    ['a decoded invisible character', '%41%E2%80%8B%42', 'AB', ['%41%E2%80%8B', '%42']],
    ['ESC before one character', '\x1b[\x1b[\x1bx\x1b[', '[[x[', ['[\x1b', '[\x1b', 'x\x1b', '[']],
    [
      'zero-width characters between letters',
      'a\u200bb\u200bc\u200b\u200bd',
      'abcd',
      ['a\u200b', 'b\u200b', 'c\u200b\u200b', 'd'],
    ],
    ['ESC before an escape', '\x1b[\x1b%41\x1b[', '[A[', ['[\x1b', '%41\x1b', '[']],
  ])('stops a run at %s', (_kind, original, text, from) => {
    const view = decodedView(original);
    expect(view.text).toBe(text);
    expect(origins(original, view)).toEqual(from);
  });

  it('maps every character of mixed runs back to its own escape', () => {
    const unit = fc.constantFrom(
      '%41',
      '%4a',
      '\\u0062',
      '\\x63',
      '\\"',
      '\x1b[',
      '\x1b',
      '\u200b',
      'd',
      '%E2%80%8B',
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }), (units) => {
        const original = units.join('');
        const view = decodedView(original);
        let at = 0;
        for (let i = 0; i <= view.text.length; i++) {
          const source = originalIndex(view, i);
          expect(source).toBeGreaterThanOrEqual(at);
          at = source;
        }
        expect(origins(original, view).join('')).toBe(original.slice(originalIndex(view, 0)));
      }),
    );
  });
});
