import type { LanguageModelV4CallOptions, LanguageModelV4Content } from '@ai-sdk/provider';
import { isStepCount, type ModelMessage, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { withCleanPrompt } from '../../../../adapters/ai-sdk/drop-in/discarded-prompt.js';
import { generateText } from '../../../../adapters/ai-sdk/drop-in/generate-text.js';
import { resetPart, withoutDiscardedMessages } from '../../../../src/stream/reset-part.js';

/** A reset part as it sits in a model message (the SDK moves `providerMetadata` to `providerOptions`). */
const reset = {
  type: 'custom',
  kind: 'graceful-ai.reset',
  providerOptions: resetPart({ textIds: ['0'], reasoningIds: [], toolInputIds: [], discardedChars: 12 })
    .providerMetadata,
} as const;

const user: ModelMessage = { role: 'user', content: 'Add 1 and 2.' };
const dirty: ModelMessage = {
  role: 'assistant',
  content: [
    { type: 'text', text: 'Hmm, let me ' },
    reset,
    { type: 'text', text: 'I will add them.' },
    { type: 'tool-call', toolCallId: 'c1', toolName: 'add', input: { a: 1, b: 2 } },
  ],
};
const clean: ModelMessage = {
  role: 'assistant',
  content: [
    { type: 'text', text: 'I will add them.' },
    { type: 'tool-call', toolCallId: 'c1', toolName: 'add', input: { a: 1, b: 2 } },
  ],
};
const toolMessage: ModelMessage = {
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'add', output: { type: 'json', value: 3 } }],
};

/** What the SDK hands `prepareStep` (only the fields the wrapper reads matter). */
const stepArgs = (messages: ModelMessage[], responseMessages: ModelMessage[] = []) =>
  ({
    messages,
    initialMessages: [user],
    responseMessages,
    stepNumber: 1,
    steps: [],
  }) as unknown as Parameters<ReturnType<typeof withCleanPrompt>>[0];

describe('withoutDiscardedMessages', () => {
  it('removes the discarded text and the reset part from assistant messages, without mutating them', () => {
    const messages = [user, dirty, toolMessage];
    const cleaned = withoutDiscardedMessages(messages);
    expect(cleaned).toEqual([user, clean, toolMessage]);
    expect(cleaned[0]).toBe(user);
    expect(cleaned[2]).toBe(toolMessage);
    expect((dirty.content as unknown[]).length).toBe(4);
  });

  it('returns the same array when no message holds a reset', () => {
    const messages = [user, clean, toolMessage, { role: 'assistant', content: 'plain text' } as ModelMessage];
    expect(withoutDiscardedMessages(messages)).toBe(messages);
  });
});

describe('withCleanPrompt', () => {
  it('without a caller function: nothing to clean → undefined (the SDK’s own step); else the clean messages', async () => {
    const prepare = withCleanPrompt(undefined);
    expect(await prepare(stepArgs([user, clean, toolMessage]))).toBeUndefined();
    expect(await prepare(stepArgs([user, dirty, toolMessage]))).toEqual({
      messages: [user, clean, toolMessage],
    });
  });

  it('the caller sees the clean messages and response messages; its other settings are kept', async () => {
    const caller = vi.fn(() => ({ toolChoice: 'none' as const }));
    const result = await withCleanPrompt(caller)(stepArgs([user, dirty, toolMessage], [dirty, toolMessage]));
    const seen = caller.mock.calls[0] as unknown as [
      { messages: ModelMessage[]; responseMessages: ModelMessage[] },
    ];
    expect(seen[0].messages).toEqual([user, clean, toolMessage]);
    expect(seen[0].responseMessages).toEqual([clean, toolMessage]);
    expect(result).toEqual({ toolChoice: 'none', messages: [user, clean, toolMessage] });
  });

  it('without a reset the caller gets the SDK’s own argument and its result is returned as it is', async () => {
    const own = { toolChoice: 'auto' as const };
    const caller = vi.fn(() => own);
    const args = stepArgs([user, clean, toolMessage]);
    expect(await withCleanPrompt(caller)(args)).toBe(own);
    expect(caller).toHaveBeenCalledWith(args);
  });

  it('messages the caller returns are cleaned too', async () => {
    const caller = vi.fn(() => ({ messages: [user, dirty, toolMessage] }));
    expect(await withCleanPrompt(caller)(stepArgs([user]))).toEqual({ messages: [user, clean, toolMessage] });
  });
});

describe('generateText: a model whose answer holds a reset (e.g. a stream collected into a generate result)', () => {
  it('the next step’s prompt holds only the recovered answer', async () => {
    const prompts: LanguageModelV4CallOptions['prompt'][] = [];
    const first: LanguageModelV4Content[] = [
      { type: 'text', text: 'Hmm, let me ' },
      resetPart({ textIds: ['0'], reasoningIds: [], toolInputIds: [], discardedChars: 12 }),
      { type: 'text', text: 'I will add them.' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'add', input: '{"a":1,"b":2}' },
    ];
    const model = new MockLanguageModelV4({
      doGenerate: async (call) => {
        prompts.push(call.prompt);
        const done = prompts.length > 1;
        return {
          content: done ? [{ type: 'text', text: '1 + 2 = 3.' }] : first,
          finishReason: { unified: done ? 'stop' : 'tool-calls', raw: undefined },
          usage: {
            inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: 1, text: 1, reasoning: 0 },
          },
          warnings: [],
        };
      },
    });
    const add = tool({
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => a + b,
    });
    const result = await generateText({
      model,
      prompt: 'Add 1 and 2.',
      tools: { add },
      stopWhen: isStepCount(2),
    });
    expect(result.text).toBe('1 + 2 = 3.');
    const assistant = prompts[1]?.find((message) => message.role === 'assistant');
    expect(assistant?.content).toEqual([
      expect.objectContaining({ type: 'text', text: 'I will add them.' }),
      expect.objectContaining({ type: 'tool-call', toolCallId: 'c1' }),
    ]);
  });
});
