import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import {
  isResetPart,
  removeDiscarded,
  resetPart,
  withoutDiscardedMessages,
} from '../../../src/stream/reset-part.js';

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

  it('withoutDiscardedMessages copies each assistant message holding a reset part without the discarded parts', () => {
    const call = { type: 'tool-call' as const, toolCallId: 'a', toolName: 'weather', input: {} };
    const assistant: LanguageModelV4Prompt[number] = {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'unsigned, discarded' },
        { type: 'custom', kind: 'graceful-ai.reset', providerOptions: reset.providerMetadata },
        { type: 'reasoning', text: 'signed', providerOptions: { anthropic: { signature: 's' } } },
        call,
      ],
    };
    const prompt: LanguageModelV4Prompt = [
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      assistant,
    ];
    const cleaned = withoutDiscardedMessages(prompt);
    expect(cleaned[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'signed', providerOptions: { anthropic: { signature: 's' } } },
        call,
      ],
    });
    expect(cleaned[0]).toBe(prompt[0]);
    expect(assistant.content).toHaveLength(4); // the caller's message is left as it is
    const clean: LanguageModelV4Prompt = [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }];
    expect(withoutDiscardedMessages(clean)).toBe(clean);
  });
});
