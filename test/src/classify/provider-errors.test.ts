import { describe, expect, it } from 'vitest';
import { classifyError, isContextOverflow } from '../../../src/classify/classify.js';
import { providerErrorCorpus } from '../../fixtures/provider-errors/index.js';
import { asShape, expectedKind, shapes } from '../../fixtures/provider-errors/shapes.js';

const clock = { now: () => Date.parse('2026-01-01T00:00:00Z') };
const modes = ['transient', 'permanent'] as const;

describe('classifyError over the corpus of real provider errors (test/fixtures/provider-errors)', () => {
  // docs/classification.md: "more than 350 real error messages from more than 60 providers, proxies and clients".
  it('holds more than 350 cited cases from more than 60 providers, each message once per provider', () => {
    expect(providerErrorCorpus.length).toBeGreaterThan(350);
    expect(new Set(providerErrorCorpus.map((c) => c.provider)).size).toBeGreaterThan(60);
    for (const c of providerErrorCorpus) expect(c.source, c.message).toMatch(/^(https:\/\/|github\.com\/)/);
    const keys = providerErrorCorpus.map(
      (c) => `${c.provider}|${c.status}|${c.message}|${JSON.stringify(c.body)}`,
    );
    expect(new Set(keys).size).toBe(keys.length);
  });

  describe.each(modes)('unknown: %s', (unknown) => {
    it.each(providerErrorCorpus.map((c, i) => ({ ...c, i })))('#$i $file/$provider: $message', (c) => {
      const wrong: string[] = [];
      for (const shape of shapes) {
        const result = classifyError(asShape(c, shape), { unknown, clock });
        const want = expectedKind(c, shape, unknown);
        if (result.kind !== want) wrong.push(`${shape}: ${result.kind} (${result.reason}), want ${want}`);
      }
      expect(wrong).toEqual([]);
      const full = classifyError(asShape(c, 'APICallError'), { unknown, clock });
      expect(full.retryAfterMs).toBe(c.retryAfterMs);
      expect(isContextOverflow(asShape(c, 'APICallError'))).toBe(c.kind === 'overflow');
    });
  });
});
