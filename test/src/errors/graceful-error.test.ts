import { describe, expect, it } from 'vitest';
import { errorMarker, GracefulError, hasMarker } from '../../../src/errors/graceful-error.js';

describe('GracefulError', () => {
  it('is recognised by marker, also on a structurally foreign copy', () => {
    const err = new GracefulError('Demo', 'boom', { cause: 1 });
    expect(GracefulError.isInstance(err)).toBe(true);
    expect(hasMarker(err, errorMarker('Demo'))).toBe(true);
    expect(err.name).toBe('Demo');
    expect(err.cause).toBe(1);
    const foreign = { [Symbol.for('graceful-ai.error')]: true };
    expect(GracefulError.isInstance(foreign)).toBe(true);
    expect(GracefulError.isInstance(new Error('x'))).toBe(false);
    expect(GracefulError.isInstance(null)).toBe(false);
  });
});
