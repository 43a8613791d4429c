import { describe, expect, it } from 'vitest';
import { errorText } from '../../../src/errors/error-text.js';

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
