import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatToolError } from '../../../src/model-text/format-for-model.js';
import { CHANGE } from '../../../src/redact/decoded-view.js';
import { MAX_REDACTED_CHARS, redactSecrets } from '../../../src/redact/redact.js';
import { RULES } from '../../../src/redact/scan.js';
import { AFTER, BEFORE_DELIMITED, ENCODINGS, leakedPiece, secretKinds } from './secret-samples.js';

/** The largest bound a rule's expression may repeat anything by. */
const MAX_REPEAT = 1024;

/**
 * The quantifiers of a regular expression's source, as their largest counts (Infinity when unbounded), and whether
 * one repeats a group that holds another quantifier: the shapes whose cost per position is not a constant.
 */
function quantifiers(source: string): { counts: number[]; nested: boolean } {
  const counts: number[] = [];
  let nested = false;
  // Per open group: whether it holds a quantifier.
  const holds: boolean[] = [false];
  let closedGroupHeld: boolean | undefined;
  for (let i = 0; i < source.length; ) {
    const c = source[i]!;
    const group = closedGroupHeld;
    closedGroupHeld = undefined;
    if (c === '\\') i += 2;
    else if (c === '[') {
      i += source[i + 1] === '^' ? 2 : 1;
      while (source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
      i++;
    } else if (c === '(') {
      holds.push(false);
      i++;
      if (source[i] === '?') i += source[i + 1] === '<' && '=!'.includes(source[i + 2]!) ? 3 : 2;
    } else if (c === ')') {
      closedGroupHeld = holds.pop()!;
      if (closedGroupHeld) holds[holds.length - 1] = true;
      i++;
    } else {
      const bound = /^(?:[*+?]|\{(\d+)(,(\d*))?\})/.exec(source.slice(i));
      if (bound === null) {
        i++;
        continue;
      }
      const [token, min, comma, max] = bound;
      const count =
        token === '?'
          ? 1
          : token.length === 1 || max === ''
            ? Number.POSITIVE_INFINITY
            : Number(comma ? max : min);
      counts.push(count);
      if (group === true && count > 1) nested = true;
      holds[holds.length - 1] = true;
      i += token.length;
      if (source[i] === '?') i++;
    }
  }
  return { counts, nested };
}

describe('the cost of a redaction is bounded', () => {
  it('reads the check of its own expressions', () => {
    expect(quantifiers('a{0,3}b?c')).toEqual({ counts: [3, 1], nested: false });
    expect(quantifiers('[*+]x+')).toEqual({ counts: [Number.POSITIVE_INFINITY], nested: false });
    expect(quantifiers('(?:ab{1,2}){0,4}')).toEqual({ counts: [2, 4], nested: true });
    expect(quantifiers('(?<![a-z])(?:x{2})?\\{5,\\}')).toEqual({ counts: [2, 1], nested: false });
  });

  it.each(
    [...RULES.map(([find]) => find), CHANGE].map((find, n) => [n, find.source.slice(0, 40), find] as const),
  )(
    'expression %i (%s…) repeats nothing without a bound, and no repetition holds another',
    (_n, _source, find) => {
      const { counts, nested } = quantifiers(find.source);
      expect(counts.every((count) => count <= MAX_REPEAT)).toBe(true);
      expect(nested).toBe(false);
    },
  );

  it('reads at most the cap: longer text is cut at a line break or a space before it, and the cut is marked', () => {
    const words = 'word '.repeat(4000);
    const out = redactSecrets(words);
    const [, kept, count] = /^((?:word ?)+)… \[truncated (\d+) chars\]$/.exec(out) ?? [];
    expect(kept!.length).toBeLessThanOrEqual(MAX_REDACTED_CHARS);
    expect(kept!.length).toBeGreaterThan(MAX_REDACTED_CHARS - 8);
    expect(kept!.length + Number(count)).toBe(words.length);
    const lines = redactSecrets(`${'line of text\n'.repeat(700)}`);
    expect(lines).toMatch(/^(line of text\n)+line of text… \[truncated \d+ chars\]$/);
    // No line break nor space within 1024 characters: the cut is at the cap.
    expect(redactSecrets('x'.repeat(20_000))).toBe(
      `${'x'.repeat(MAX_REDACTED_CHARS)}… [truncated 11808 chars]`,
    );
    // Within the cap, nothing is cut.
    expect(redactSecrets('y'.repeat(MAX_REDACTED_CHARS))).toBe('y'.repeat(MAX_REDACTED_CHARS));
  });

  it('applies extra patterns before it marks the cut', () => {
    const out = redactSecrets('1 '.repeat(5000), /\d/);
    const [, kept, count] = /^([\s\S]*)… \[truncated (\d+) chars\]$/.exec(out) ?? [];
    expect(kept).toBe(`${'[REDACTED] '.repeat(4095)}[REDACTED]`);
    expect(count).toBe('1809');
  });

  it('bounds what the model sees of an error at the cap, even with a larger maxErrorChars', () => {
    const error = new Error('failed', { cause: new Error(`${'upstream said no. '.repeat(1500)}`) });
    const text = formatToolError(error, { maxErrorChars: 50_000, guidance: 'none' });
    expect(text).toMatch(
      /^Error: failed\nCaused by: Error: (upstream said no\. )+upstream said no\.… \[truncated \d+ chars\]$/,
    );
    expect(text.length).toBeLessThanOrEqual(MAX_REDACTED_CHARS + 30);
  });

  it('never shows a secret the cap would cut in half, nor one past it', () => {
    const filler = fc.array(fc.constantFrom('error ', 'at step 3\n', 'retrying; ', 'upstream said: '), {
      minLength: 2000,
      maxLength: 2000,
    });
    const secret = fc.constantFrom(...secretKinds).chain((kind) =>
      fc.record({
        sample: kind.sample,
        before: fc.constantFrom(...BEFORE_DELIMITED),
        after: fc.constantFrom(...AFTER),
        encoding: fc.constantFrom(...Object.keys(ENCODINGS)),
      }),
    );
    fc.assert(
      fc.property(
        filler,
        secret,
        fc.integer({ min: MAX_REDACTED_CHARS - 1500, max: MAX_REDACTED_CHARS + 200 }),
        (words, s, at) => {
          const text = words.join('');
          const embedded = `${text.slice(0, at)} login failed: ${s.before}${ENCODINGS[s.encoding]!(s.sample.text)}${s.after} ${text.slice(at)}`;
          const out = redactSecrets(embedded);
          expect(leakedPiece(out, s.sample.secret), out.slice(MAX_REDACTED_CHARS - 1500)).toBe(undefined);
          expect(out.length).toBeLessThanOrEqual(MAX_REDACTED_CHARS + 30);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('stays within the cap on adversarial inputs of any length', () => {
    // The shapes that made scanners super-linear: long runs a rule can start at everywhere, separators without
    // values, escapes in a row. At the cap each costs a bounded number of reads per character; past it, nothing.
    const shapes = [
      'a',
      'a:',
      '://x:',
      'sk-',
      'sk-a-b-c-',
      'Bearer ',
      'x',
      'eyJ',
      `eyJ${'a'.repeat(20)}.`,
      'password=',
      'token=x',
      '"password":"x',
      'a=',
      'AKIA',
      '%41',
      '%E2%80%8B',
      '\\u0073',
      '%5Cu0073',
      '\x1b[',
      '-----BEGIN PRIVATE KEY-----',
      '-----END PRIVATE KEY-----',
      '-',
    ];
    for (const unit of shapes) {
      expect(redactSecrets(unit.repeat(Math.ceil(MAX_REDACTED_CHARS / unit.length))).length).toBeGreaterThan(
        0,
      );
      const huge = unit.repeat(Math.ceil(1_000_000 / unit.length));
      const count = /… \[truncated (\d+) chars\]$/.exec(redactSecrets(huge))?.[1];
      expect(Number(count), unit).toBeGreaterThanOrEqual(huge.length - MAX_REDACTED_CHARS);
    }
  });
});
