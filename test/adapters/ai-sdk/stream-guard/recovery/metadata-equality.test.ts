/**
 * Whether a recovered block's provider metadata is the one the consumer was shown (`kind-cursor.ts`) is decided by
 * the AI SDK's own comparator of data, `isDeepEqualData` from `ai`: JSON equality, whatever the order of object keys.
 */
import { isDeepEqualData } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

describe('isDeepEqualData, as the guard compares provider metadata', () => {
  it('ignores the order of object keys, not of array items', () => {
    expect(isDeepEqualData({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBe(true);
    expect(isDeepEqualData([1, 2], [2, 1])).toBe(false);
    expect(isDeepEqualData({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(isDeepEqualData({ 0: 'x' }, ['x'])).toBe(false);
    expect(isDeepEqualData(undefined, undefined)).toBe(true);
    expect(isDeepEqualData(undefined, {})).toBe(false);
  });

  it('property: agrees with equality of the parsed JSON, key order aside', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        expect(isDeepEqualData(a, structuredClone(a))).toBe(true);
        expect(isDeepEqualData(a, b)).toBe(JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b)));
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
