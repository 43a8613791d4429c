import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundedErrorText, maxErrorTextChars } from '../../../src/redact/bounded-error-text.js';
import { errorText } from '../../../src/util/error-text.js';
import { truncateText } from '../../../src/util/truncate.js';

describe('errorText', () => {
  it('gives the message, the name for an empty message, strings as is and other values as JSON', () => {
    expect(errorText(new TypeError('bad input'))).toBe('bad input');
    expect(errorText(new RangeError(''))).toBe('RangeError');
    expect(errorText('plain')).toBe('plain');
    expect(errorText({ code: 42 })).toBe('{"code":42}');
    expect(errorText(undefined)).toBe('undefined');
  });

  it('never throws, even for a value whose JSON and message getters throw', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(errorText(cyclic)).toBe('[object Object]');
    const hostile = new Error('x');
    Object.defineProperty(hostile, 'message', {
      get() {
        throw new Error('getter');
      },
    });
    expect(errorText(hostile)).toBe('Unknown error');
  });
});

describe('errorText: always a string', () => {
  it('renders an error whose message is a BigInt or a cyclic object (JSON.stringify would throw on the entry)', () => {
    expect(errorText(Object.assign(new Error('x'), { message: 10n }))).toBe('10');
    const cyclic: Record<string, unknown> = { code: 'loop' };
    cyclic.self = cyclic;
    expect(errorText(Object.assign(new Error('x'), { message: cyclic }))).toBe('[object Object]');
    expect(errorText(Object.assign(new Error('x'), { message: { code: 'E1' } }))).toBe('{"code":"E1"}');
    expect(errorText(Object.assign(new Error(''), { name: '' }))).toBe('Error');
    expect(errorText(Symbol('s'))).toBe('Symbol(s)');
  });
});

describe('boundedErrorText: the one rendering events and session entries carry', () => {
  it('redacts secrets (through redactSecrets) and bounds the text, marking the cut', () => {
    const key = 'sk-abc123DEF456ghi789JKL012mno345';
    expect(boundedErrorText(new Error(`bad key ${key}`))).toBe('bad key [REDACTED]');
    const long = boundedErrorText(new Error('y'.repeat(100_000)), 100);
    expect(long).toHaveLength(100);
    const [, kept, count] = /^(y+)… \[truncated (\d+) chars\]$/.exec(long) ?? [];
    // The count is honest: what was cut before redaction is counted too.
    expect(kept!.length + Number(count)).toBe(100_000);
  });

  it('a 5 MB message renders within the bound (2000 characters by default)', () => {
    const huge = new Error(`${'a:'.repeat(2_500_000)}//x:y@`);
    expect(boundedErrorText(huge)).toHaveLength(maxErrorTextChars);
    expect(maxErrorTextChars).toBe(2000);
  });

  it('never throws', () => {
    const hostile = new Error('x');
    Object.defineProperty(hostile, 'message', {
      get() {
        throw new Error('getter');
      },
    });
    expect(boundedErrorText(hostile)).toBe('Unknown error');
  });
});

describe('truncateText', () => {
  it('never exceeds the bound, and its marker counts every character missing', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 3000 }),
        fc.integer({ min: 40, max: 400 }),
        fc.nat(10_000),
        (text, max, dropped) => {
          const out = truncateText(text, max, dropped);
          expect(out.length).toBeLessThanOrEqual(max);
          if (text.length <= max && dropped === 0) {
            expect(out).toBe(text);
            return;
          }
          const match = /… \[truncated (\d+) chars\]$/.exec(out);
          expect(match).not.toBeNull();
          expect(out.length - match![0].length + Number(match![1])).toBe(text.length + dropped);
        },
      ),
    );
  });
});
