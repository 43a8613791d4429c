import { describe, expect, it } from 'vitest';
import { isResetPart, removeDiscarded, resetPart } from '../../../adapters/ai-sdk/reset-part.js';

const reset = resetPart({ textIds: ['t1'], reasoningIds: [], toolInputIds: [], discardedChars: 8 });

describe('reset part', () => {
  it('is a custom part of kind graceful-ai.reset carrying what to discard', () => {
    expect(reset).toEqual({
      type: 'custom',
      kind: 'graceful-ai.reset',
      providerMetadata: {
        'graceful-ai': { reset: { textIds: ['t1'], reasoningIds: [], toolInputIds: [], discardedChars: 8 } },
      },
    });
    expect(isResetPart(reset)).toBe(true);
    expect(isResetPart({ type: 'custom', kind: 'other.kind' })).toBe(false);
  });

  it('removeDiscarded drops the text and reasoning before the reset part and the part itself, keeping tool calls', () => {
    const call = { type: 'tool-call', toolCallId: 'a' };
    const content: unknown[] = [
      { type: 'reasoning', text: 'hmm' },
      { type: 'text', text: 'Partial ' },
      call,
      { ...reset },
      { type: 'text', text: 'Full answer' },
    ];
    expect(removeDiscarded(content)).toBe(true);
    expect(content).toEqual([call, { type: 'text', text: 'Full answer' }]);
  });

  it('leaves content without a reset part untouched', () => {
    const content: unknown[] = [{ type: 'text', text: 'Hello' }];
    expect(removeDiscarded(content)).toBe(false);
    expect(content).toEqual([{ type: 'text', text: 'Hello' }]);
  });
});
