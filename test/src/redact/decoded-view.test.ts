import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DecodedView, decodedView, originalIndex } from '../../../src/redact/decoded-view.js';

/** The original text each view character came from. */
const origins = (original: string, view: DecodedView): string[] =>
  Array.from(view.text, (_, i) => original.slice(originalIndex(view, i), originalIndex(view, i + 1)));

describe('decodedView', () => {
  it('is the text itself, without a map, when nothing needs decoding', () => {
    const view = decodedView('plain text: a=1, b="x", 100 percent');
    expect(view).toEqual({ text: 'plain text: a=1, b="x", 100 percent' });
  });

  it.each([
    ['percent-escapes', 'a%3Db%20c', 'a=b c', ['a', '%3D', 'b', '%20', 'c']],
    ['a UTF-8 sequence as one character', 'caf%C3%A9!', 'café!', ['c', 'a', 'f', '%C3%A9', '!']],
    ['JSON escapes', 'x\\"y\\\\z\\/\\n', 'x"y\\z/\n', ['x', '\\"', 'y', '\\\\', 'z', '\\/', '\\n']],
    ['unicode and hex escapes', '\\u0073k\\x2d', 'sk-', ['\\u0073', 'k', '\\x2d']],
  ])('decodes %s and maps each character to its original form', (_kind, original, text, from) => {
    const view = decodedView(original);
    expect(view.text).toBe(text);
    expect(origins(original, view)).toEqual(from);
  });

  it('removes invisible characters and ANSI sequences, giving them to the character before', () => {
    const original = 'a\u200bb\ufeffc\x1b[1;31md\x1b]0;title\x07e\u00adf';
    const view = decodedView(original);
    expect(view.text).toBe('abcdef');
    expect(origins(original, view)).toEqual([
      'a\u200b',
      'b\ufeff',
      'c\x1b[1;31m',
      'd\x1b]0;title\x07',
      'e\u00ad',
      'f',
    ]);
  });

  it('removes invisible characters that were escaped, and Unicode tag characters', () => {
    expect(decodedView('s%E2%80%8Bk\\u200d-x\u{e0041}y').text).toBe('sk-xy');
  });

  it('decodes nested encodings in further passes, at most four', () => {
    expect(decodedView('{\\"k\\":\\"\\\\u0073\\"}').text).toBe('{"k":"s"}');
    expect(decodedView('%5Cu0073').text).toBe('s');
    expect(decodedView('\\\\u001b[31mred').text).toBe('red');
    // Five levels of percent-encoding: four are undone.
    expect(decodedView('%2525252541').text).toBe('%41');
  });

  it('keeps what does not decode, and reads a broken UTF-8 sequence as replacement characters', () => {
    expect(decodedView('100% \\q %zz %E2%80 \x1b').text).toBe('100% \\q %zz \ufffd\ufffd ');
  });

  it('maps every view position into the original, in order, ending at its length', () => {
    // Removed characters at the very start belong to no view character, so the first may start after them.
    const alphabet = fc.constantFrom(...'ab%20C3A9E2808B\\u0073"x1b[m;\u200b\u00ad\x1b'.split(''));
    fc.assert(
      fc.property(fc.string({ unit: alphabet, maxLength: 60 }), (original) => {
        const view = decodedView(original);
        let previous = -1;
        for (let i = 0; i <= view.text.length; i++) {
          const at = originalIndex(view, i);
          expect(at).toBeGreaterThan(previous);
          previous = at;
        }
        expect(originalIndex(view, view.text.length)).toBe(original.length);
      }),
      { numRuns: 500 },
    );
  });
});
