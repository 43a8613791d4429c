import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sameJson } from '../../../src/util/shape.js';

describe('sameJson', () => {
  it('ignores the order of object keys, not of array items', () => {
    expect(sameJson({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBe(true);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameJson({ 0: 'x' }, ['x'])).toBe(false);
    expect(sameJson(undefined, undefined)).toBe(true);
    expect(sameJson(undefined, {})).toBe(false);
  });

  it('property: agrees with equality of the parsed JSON, key order aside', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        expect(sameJson(a, structuredClone(a))).toBe(true);
        expect(sameJson(a, b)).toBe(JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b)));
      }),
    );
  });
});

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}
