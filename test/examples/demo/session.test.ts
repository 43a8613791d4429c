import { describe, expect, it } from 'vitest';
import { retryLine } from '../../../examples/demo/session.js';

describe('demo retry line', () => {
  const event = { attempt: 1, maxRetries: 3, delayMs: 2000, errorMessage: '429' };

  it('reads as the issue specifies on a terminal', () => {
    expect(retryLine(event, true)).toBe('Retrying (1/3) in 2s… (esc to cancel)');
  });

  it('offers no Esc where Esc cannot work', () => {
    expect(retryLine({ ...event, delayMs: 1400 }, false)).toBe('Retrying (1/3) in 1.4s…');
  });
});
