/**
 * Dangling tool calls through the drop-ins: a history with a tool call but no result (an aborted turn, a crash between
 * call and result) or a result without its call makes every later request fail — ai 7 refuses the first before
 * sending (`MissingToolResultsError`; through `streamText`, `NoOutputGeneratedError`). The drop-ins send each request
 * repaired, the guard records the repair (attempt record, `tool_history_repaired`), the caller's messages stay as
 * they are.
 */
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import {
  isStepCount,
  MissingToolResultsError,
  type ModelMessage,
  NoOutputGeneratedError,
  generateText as sdkGenerateText,
  streamText as sdkStreamText,
  tool,
  wrapLanguageModel,
} from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { generateText } from '../../../../adapters/ai-sdk/drop-in/generate-text.js';
import { streamText } from '../../../../adapters/ai-sdk/drop-in/stream-text.js';
import type { StreamGuardEvent } from '../../../../adapters/ai-sdk/stream-guard/options.js';
import { streamGuard } from '../../../../adapters/ai-sdk/stream-guard/stream-guard.js';
import { ModelRetry } from '../../../../src/errors/model-retry.js';
import { modelText } from '../../../../src/model-text/model-text.js';
import { scriptedModel } from '../scripted-model.js';

/** A conversation whose last turn ended between a tool call and its result, and a new user message. */
const dangling: ModelMessage[] = [
  { role: 'user', content: 'What is the weather in Oslo?' },
  {
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: { city: 'Oslo' } }],
  },
  { role: 'user', content: 'Hello?' },
];

/** A result whose call is not in the history (a client that dropped the assistant message). */
const orphan: ModelMessage[] = [
  { role: 'user', content: 'Hi' },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'x9',
        toolName: 'weather',
        output: { type: 'text', value: 'sunny' },
      },
    ],
  },
  { role: 'user', content: 'Hello?' },
];

const interruptedOutput = { type: 'error-text', value: modelText.interruptedToolCall };

/** The tool messages of the prompt the model received. */
const toolMessages = (call: LanguageModelV4CallOptions) => call.prompt.filter((m) => m.role === 'tool');

const answering = () => scriptedModel(() => ({ text: 'Sorry, where were we?' }));

describe('without the drop-ins (what users report)', () => {
  it("ai's generateText refuses a dangling call before sending; streamText fails with NoOutputGeneratedError", async () => {
    const model = answering();
    await expect(sdkGenerateText({ model, messages: dangling, maxRetries: 0 })).rejects.toSatisfy(
      MissingToolResultsError.isInstance,
    );
    const streamed = sdkStreamText({ model, messages: dangling, maxRetries: 0, onError: () => {} });
    await expect(streamed.text).rejects.toSatisfy(NoOutputGeneratedError.isInstance);
    expect(model.doGenerateCalls).toHaveLength(0);
    expect(model.doStreamCalls).toHaveLength(0);
  });
});

describe('the drop-ins repair every request', () => {
  it('generateText: the call gets a synthetic "interrupted" result; the guard records the repair', async () => {
    const model = answering();
    const events: StreamGuardEvent[] = [];
    const messages = structuredClone(dangling);
    const result = await generateText({ model, messages, streamGuard: { onEvent: (e) => events.push(e) } });
    expect(result.text).toBe('Sorry, where were we?');
    const [sent] = model.doGenerateCalls;
    expect(toolMessages(sent!)).toMatchObject([
      {
        content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'weather', output: interruptedOutput }],
      },
    ]);
    // The note for the guard never reaches the provider.
    expect(sent!.providerOptions?.['graceful-ai']).toBeUndefined();
    const repair = { interrupted: ['weather#c1'], dropped: [] };
    expect(result.providerMetadata?.['graceful-ai']).toMatchObject({
      attempts: [{ toolHistoryRepair: repair }],
    });
    expect(events).toEqual([{ type: 'tool_history_repaired', repair }]);
    expect(messages).toEqual(dangling); // the caller's history is what happened
  });

  it('streamText: the same, and the answer streams', async () => {
    const model = answering();
    const result = streamText({ model, messages: dangling });
    expect(await result.text).toBe('Sorry, where were we?');
    expect(toolMessages(model.doStreamCalls[0]!)).toMatchObject([
      { content: [{ output: interruptedOutput }] },
    ]);
    expect((await result.providerMetadata)?.['graceful-ai']).toMatchObject({
      attempts: [{ toolHistoryRepair: { interrupted: ['weather#c1'], dropped: [] } }],
    });
  });

  it('a result without its call is dropped', async () => {
    const model = answering();
    const result = await generateText({ model, messages: orphan });
    expect(toolMessages(model.doGenerateCalls[0]!)).toEqual([]);
    expect(result.providerMetadata?.['graceful-ai']).toMatchObject({
      attempts: [{ toolHistoryRepair: { interrupted: [], dropped: ['weather#x9'] } }],
    });
  });

  it('with streamGuard: false the request is repaired all the same (nothing records it)', async () => {
    const model = answering();
    const result = await generateText({ model, messages: dangling, streamGuard: false });
    expect(result.text).toBe('Sorry, where were we?');
    expect(toolMessages(model.doGenerateCalls[0]!)).toMatchObject([
      { content: [{ output: interruptedOutput }] },
    ]);
    expect(model.doGenerateCalls[0]!.providerOptions?.['graceful-ai']).toBeUndefined();
  });

  it("messages the caller's prepareStep returns are repaired too; the caller's own providerOptions are kept", async () => {
    const model = answering();
    const prepareStep = vi.fn(() => ({ messages: dangling, providerOptions: { openai: { user: 'u1' } } }));
    await generateText({ model, prompt: 'Hi', prepareStep });
    const [sent] = model.doGenerateCalls;
    expect(toolMessages(sent!)).toMatchObject([{ content: [{ output: interruptedOutput }] }]);
    expect(sent!.providerOptions).toEqual({ openai: { user: 'u1' } });
  });

  it('a synthetic result is no failure of the tool: it does not count against retries', async () => {
    // The history ends with an unanswered call of `flaky`; the model calls it again, it fails once, then answers.
    const flaky = tool({
      inputSchema: z.object({}),
      execute: async (): Promise<string> => {
        throw new ModelRetry('not yet');
      },
    });
    const model = scriptedModel((step) => (step === 1 ? { calls: [['flaky', {}]] } : { text: 'gave up' }));
    const result = await generateText({
      model,
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: 'c0', toolName: 'flaky', input: {} }],
        },
      ],
      tools: { flaky },
      stopWhen: isStepCount(3),
      gracefulTools: { retries: 1 },
    });
    expect(result.text).toBe('gave up');
  });
});

describe('the guard as middleware alone', () => {
  it('drops a result without its call from the prompt it sends, and records it', async () => {
    const model = answering();
    const events: StreamGuardEvent[] = [];
    const guarded = wrapLanguageModel({ model, middleware: streamGuard({ onEvent: (e) => events.push(e) }) });
    const result = await sdkGenerateText({ model: guarded, messages: orphan, maxRetries: 0 });
    expect(toolMessages(model.doGenerateCalls[0]!)).toEqual([]);
    expect(events).toEqual([
      { type: 'tool_history_repaired', repair: { interrupted: [], dropped: ['weather#x9'] } },
    ]);
    expect(result.providerMetadata?.['graceful-ai']).toMatchObject({ attempts: [{ toolHistoryRepair: {} }] });
  });
});
