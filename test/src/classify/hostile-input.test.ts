import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyError, isContextOverflow } from '../../../src/classify/classify.js';
import { parseRetryAfter } from '../../../src/classify/retry-after.js';
import { hostileValue } from './hostile.js';

const clock = { now: () => Date.parse('2026-01-01T00:00:00Z') };
const kinds = ['transient', 'permanent', 'overflow', 'abort'];

describe('the public classify entry points on values nobody can read', () => {
  it('parseRetryAfter reads a proxy that throws from every trap as no hint (it threw from `instanceof`)', () => {
    const trap = () => {
      throw new Error('hostile');
    };
    const proxy = new Proxy({}, { get: trap, has: trap, ownKeys: trap, getPrototypeOf: trap });
    const { proxy: revoked, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(parseRetryAfter(proxy)).toBeUndefined();
    expect(parseRetryAfter(revoked)).toBeUndefined();
    expect(parseRetryAfter({ 'retry-after': proxy })).toBeUndefined();
    // A bad option still says so.
    expect(() => parseRetryAfter({}, { clock: { now: 1 } as never })).toThrow(TypeError);
  });

  it('a Google payload whose details[] is a revoked proxy is read as no details (found by the property below)', () => {
    const { proxy: details, revoke } = Proxy.revocable([], {});
    revoke();
    const error = Object.assign(new Error('quota'), {
      data: { error: { status: 'RESOURCE_EXHAUSTED', details } },
    });
    expect(parseRetryAfter(error, { clock })).toBeUndefined();
    expect(classifyError(error, { clock }).kind).toBe('transient');
  });

  it('parseRetryAfter never throws and gives no hint or a finite delay (property)', () => {
    fc.assert(
      fc.property(hostileValue, (hostile) => {
        const ms = parseRetryAfter(hostile(), { clock });
        if (ms !== undefined) expect(Number.isFinite(ms) && ms >= 0).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('classifyError and isContextOverflow never throw (property)', () => {
    fc.assert(
      fc.property(
        hostileValue,
        fc.constantFrom('transient', 'permanent') as fc.Arbitrary<'transient' | 'permanent'>,
        (value, unknown) => {
          const result = classifyError(value, { clock, unknown, treatAsPermanent: [404, 'x_code', /never/] });
          expect(kinds).toContain(result.kind);
          expect(typeof result.reason).toBe('string');
          if (result.retryAfterMs !== undefined) expect(Number.isFinite(result.retryAfterMs)).toBe(true);
          expect(typeof isContextOverflow(value, { clock })).toBe('boolean');
        },
      ),
      { numRuns: 400 },
    );
  });
});
