/**
 * Continuation recovery through the real `@ai-sdk/anthropic` provider and the fault kit's Anthropic Messages wire:
 * after a cut, the recovery request ends with the shown text as an assistant prefill (no trailing whitespace) and
 * the consumer gets only the continuation, joined exactly; the fallbacks to regeneration (thinking in the step, a
 * tool input cut mid-arguments, a prefill the model rejects with 400) and the streamed recovery.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { isStepCount, type TextStreamPart, type ToolSet, tool } from 'ai';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isResetPart } from '../../../adapters/ai-sdk/reset-part.js';
import type { StreamGuardOptions } from '../../../adapters/ai-sdk/stream-guard.js';
import { streamText } from '../../../adapters/ai-sdk/stream-text.js';
import {
  assistantPrefill,
  fault,
  type RecordedRequest,
  reply,
  type ScriptFunction,
  streamFault,
} from '../../../mocks/index.js';
import { mockHandlers } from '../../../mocks/msw.js';

const msw = setupServer();
beforeAll(() => msw.listen({ onUnhandledFrame: 'error' }));
afterEach(() => msw.resetHandlers());
afterAll(() => msw.close());

const anthropic = createAnthropic({ apiKey: 'sk-ant-test' });

type Message = { role: string; content: Array<{ type: string; text?: string }> | string };
const messagesOf = (request: RecordedRequest | undefined) =>
  ((request?.body as { messages?: Message[] } | undefined)?.messages ?? []) as Message[];

const SHOWN = 'The quick brown '; // what the consumer sees before the cut: it ends with whitespace
const ANSWER = 'The quick brown fox jumps over the lazy dog.';

/** The first stream is cut after `SHOWN`; a continuation request gets `continuation`, any other one `regenerated`. */
function cutThenContinue(continuation: string, regenerated = ANSWER): ScriptFunction {
  return (request, { index }) => {
    if (index === 0) return reply.text(ANSWER, { fault: streamFault.cut({ afterChars: SHOWN.length }) });
    return assistantPrefill(request) === undefined ? reply.text(regenerated) : reply.text(continuation);
  };
}

async function run(
  script: ScriptFunction,
  options: { guard?: StreamGuardOptions; tools?: ToolSet; model?: string; thinking?: boolean } = {},
) {
  const handlers = mockHandlers(script);
  msw.use(...handlers);
  const result = streamText({
    model: anthropic(options.model ?? 'claude-sonnet-4-5'),
    prompt: 'Say the pangram.',
    tools: options.tools,
    stopWhen: isStepCount(3),
    providerOptions: options.thinking
      ? { anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } } }
      : undefined,
    streamGuard: { sleep: async () => {}, ...options.guard },
    onError: () => {},
  });
  const parts: TextStreamPart<ToolSet>[] = [];
  for await (const part of result.fullStream) parts.push(part);
  return { result, parts, requests: handlers.requests };
}

const consumerText = (parts: TextStreamPart<ToolSet>[]) =>
  parts.map((p) => (p.type === 'text-delta' ? p.text : '')).join('');
const attemptsOf = async (result: { providerMetadata: PromiseLike<unknown> }) =>
  ((await result.providerMetadata) as { 'graceful-ai'?: { attempts?: unknown[] } } | undefined)?.[
    'graceful-ai'
  ]?.attempts;

describe('continuation on Anthropic Messages (default)', () => {
  it('the recovery request ends with the shown text as a prefill, trailing whitespace trimmed; the consumer reads the one answer, the shared space once', async () => {
    const { result, parts, requests } = await run(cutThenContinue(' fox jumps over the lazy dog.'));
    expect(requests.map((r) => r.stream)).toEqual([true, false]);
    expect(assistantPrefill(requests[1]!)).toBe('The quick brown');
    expect(messagesOf(requests[1]).at(-2)?.role).toBe('user');
    expect(consumerText(parts)).toBe(ANSWER);
    expect(parts.some(isResetPart)).toBe(false);
    expect(await result.text).toBe(ANSWER);
    expect((await result.steps).map((s) => s.text)).toEqual([ANSWER]);
    expect(await attemptsOf(result)).toMatchObject([
      { attempt: 1, mode: 'stream', outcome: 'failed', charsEmitted: SHOWN.length },
      { attempt: 2, mode: 'generate', outcome: 'ok', recovery: 'continue' },
    ]);
  });

  it('a continuation that does not start with the whitespace shown goes on right after it', async () => {
    const { parts } = await run(cutThenContinue('fox jumps over the lazy dog.'));
    expect(consumerText(parts)).toBe(ANSWER);
  });

  it('steps, responseMessages and the next step hold the one joined answer (a tool turn)', async () => {
    const weather = tool({ inputSchema: z.object({ city: z.string() }), execute: async () => 'sunny' });
    const shown = 'Let me check the ';
    const script: ScriptFunction = (request, { index }) => {
      if (index === 0)
        return reply.toolCalls([{ name: 'weather', args: { city: 'Paris' } }], {
          text: 'Let me check the weather.',
          fault: streamFault.cut({ afterChars: shown.length }),
        });
      if (index === 1) {
        expect(assistantPrefill(request)).toBe('Let me check the');
        return reply.toolCalls([{ name: 'weather', args: { city: 'Paris' } }], { text: ' weather.' });
      }
      return reply.text('It is sunny.');
    };
    const { result, parts, requests } = await run(script, { tools: { weather } });
    expect(parts.some(isResetPart)).toBe(false);
    const steps = await result.steps;
    expect(steps[0]?.text).toBe('Let me check the weather.');
    expect(steps[0]?.toolCalls.map((c) => c.toolName)).toEqual(['weather']);
    const [assistant] = (await result.responseMessages).filter((m) => m.role === 'assistant');
    // (The SDK keeps Anthropic's `message_start` custom part in the message; the provider sends nothing for it.)
    const content = Array.isArray(assistant?.content) ? assistant.content : [];
    expect(content.filter((c) => c.type !== 'custom')).toEqual([
      expect.objectContaining({ type: 'text', text: 'Let me check the weather.' }),
      expect.objectContaining({ type: 'tool-call', toolName: 'weather' }),
    ]);
    // The next step's request: one assistant turn with the joined text, then the tool result.
    const next = messagesOf(requests[2]);
    const turn = next.find((m) => m.role === 'assistant');
    expect(turn?.content).toEqual([
      expect.objectContaining({ type: 'text', text: 'Let me check the weather.' }),
      expect.objectContaining({ type: 'tool_use', name: 'weather' }),
    ]);
    expect(await result.text).toBe('It is sunny.');
  });

  it("recovery: 'stream' → a new streamed request with the prefill; the continuation streams live", async () => {
    const { result, parts, requests } = await run(cutThenContinue(' fox jumps over the lazy dog.'), {
      guard: { recovery: 'stream' },
    });
    expect(requests.map((r) => r.stream)).toEqual([true, true]);
    expect(assistantPrefill(requests[1]!)).toBe('The quick brown');
    expect(consumerText(parts)).toBe(ANSWER);
    const afterCut = parts.filter((p) => p.type === 'text-delta').map((p) => (p as { text: string }).text);
    expect(afterCut.length).toBeGreaterThan(5); // delta by delta, not one piece
    expect(parts.some(isResetPart)).toBe(false);
    expect(new Set(parts.filter((p) => p.type === 'text-start').map((p) => p.id)).size).toBe(1);
    expect(await attemptsOf(result)).toMatchObject([
      { mode: 'stream', outcome: 'failed' },
      { mode: 'stream', outcome: 'ok', recovery: 'continue' },
    ]);
  });

  it("continuation: 'off' → a regeneration, no prefill", async () => {
    const { parts, requests } = await run(cutThenContinue('unused'), { guard: { continuation: 'off' } });
    expect(assistantPrefill(requests[1]!)).toBeUndefined();
    expect(consumerText(parts)).toBe(ANSWER);
  });
});

describe('continuation falls back to regeneration', () => {
  it('thinking in the step (extended thinking) → no prefill; a regeneration reconciled as before', async () => {
    const script: ScriptFunction = (_request, { index }) =>
      index === 0
        ? reply.text(ANSWER, {
            reasoning: { text: 'A pangram.', signature: 'EqQBsig' },
            fault: streamFault.cut({ afterChars: 'A pangram.'.length + SHOWN.length }),
          })
        : reply.text(ANSWER, { reasoning: { text: 'A pangram.', signature: 'EqQBsig' } });
    const { result, parts, requests } = await run(script, { thinking: true });
    expect(requests.map((r) => r.stream)).toEqual([true, false]);
    expect(assistantPrefill(requests[1]!)).toBeUndefined();
    expect(consumerText(parts)).toBe(ANSWER);
    expect(parts.some(isResetPart)).toBe(false);
    expect(await attemptsOf(result)).toMatchObject([{}, { recovery: 'regenerate' }]);
  });

  it('a tool input cut mid-arguments → no prefill; the tool runs once', async () => {
    const executed: string[] = [];
    const weather = tool({
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }) => {
        executed.push(city);
        return 'sunny';
      },
    });
    const call = [{ name: 'weather', args: { city: 'Paris' } }];
    const text = 'Checking.';
    const script: ScriptFunction = (_request, { index }) => {
      if (index === 0)
        return reply.toolCalls(call, { text, fault: streamFault.cut({ afterChars: text.length + 5 }) });
      if (index === 1) return reply.toolCalls(call, { text });
      return reply.text('Sunny.');
    };
    const { requests, result } = await run(script, { tools: { weather } });
    expect(assistantPrefill(requests[1]!)).toBeUndefined();
    expect(executed).toEqual(['Paris']);
    expect((await result.steps)[0]?.text).toBe(text);
  });

  it('a prefill rejected with 400 → one regeneration (no reset: it begins with what was shown); the model is not asked for a prefill again', async () => {
    const rejection = fault.http(400, {
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: 'Prefilling assistant messages is not supported for this model.',
      },
    });
    const script: ScriptFunction = (request, { index }) => {
      if (index === 0 || index === 3)
        return reply.text(ANSWER, { fault: streamFault.cut({ afterChars: SHOWN.length }) });
      return assistantPrefill(request) === undefined ? reply.text(ANSWER) : rejection;
    };
    const model = 'claude-opus-4-6';
    const { result, parts, requests } = await run(script, { model });
    expect(requests.map((r) => [r.stream, assistantPrefill(r)])).toEqual([
      [true, undefined],
      [false, 'The quick brown'],
      [false, undefined],
    ]);
    expect(consumerText(parts)).toBe(ANSWER);
    expect(parts.some(isResetPart)).toBe(false);
    expect(await attemptsOf(result)).toMatchObject([
      { outcome: 'failed' },
      { outcome: 'failed', recovery: 'continue', classification: { kind: 'permanent' } },
      { outcome: 'ok', recovery: 'regenerate' },
    ]);
    // The same model later: straight to a regeneration.
    const again = await run(script, { model });
    expect(again.requests.map((r) => assistantPrefill(r))).toEqual([undefined, undefined]);
  });

  it('a regeneration after a rejected prefill that diverges → a reset, then the whole new answer', async () => {
    const script: ScriptFunction = (request, { index }) => {
      if (index === 0) return reply.text(ANSWER, { fault: streamFault.cut({ afterChars: SHOWN.length }) });
      return assistantPrefill(request) === undefined
        ? reply.text('A pangram: sphinx of black quartz.')
        : fault.http(400, { type: 'error', error: { type: 'invalid_request_error', message: 'prefill' } });
    };
    const { result, parts } = await run(script, { model: 'claude-opus-4-7' });
    expect(parts.filter(isResetPart)).toHaveLength(1);
    expect(await result.text).toBe('A pangram: sphinx of black quartz.');
  });
});
