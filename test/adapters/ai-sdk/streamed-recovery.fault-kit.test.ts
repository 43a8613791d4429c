/**
 * `recovery: 'stream'` through the real `@ai-sdk/openai` provider (chat and responses) and the fault kit: after a
 * cut, a NEW streamed request whose output is swallowed while it repeats what was shown, streamed live once past
 * it, and answered with a reset part the moment it diverges; its own failures follow the guard's rules.
 */
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModel, TextStreamPart, ToolSet } from 'ai';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { isResetPart } from '../../../adapters/ai-sdk/reset-part.js';
import type { StreamGuardEvent, StreamGuardOptions } from '../../../adapters/ai-sdk/stream-guard.js';
import { streamText } from '../../../adapters/ai-sdk/stream-text.js';
import { reply, type Step, streamFault } from '../../../mocks/index.js';
import { mockHandlers } from '../../../mocks/msw.js';

const msw = setupServer();
beforeAll(() => msw.listen({ onUnhandledFrame: 'error' }));
afterEach(() => msw.resetHandlers());
afterAll(() => msw.close());

const openai = createOpenAI({ apiKey: 'sk-test' });
const ANSWER = 'The quick brown fox jumps over the lazy dog.';
const SHOWN = 'The quick br';
const cut = (text = ANSWER, afterChars = SHOWN.length) =>
  reply.text(text, { fault: streamFault.cut({ afterChars }) });

async function run(model: LanguageModel, steps: Step[], guard: StreamGuardOptions = {}, maxRetries = 2) {
  const handlers = mockHandlers(steps);
  msw.use(...handlers);
  const events: StreamGuardEvent[] = [];
  const sleep = vi.fn(async (_ms: number) => {});
  const result = streamText({
    model,
    prompt: 'Say the pangram.',
    maxRetries,
    streamGuard: { recovery: 'stream', sleep, random: () => 0.5, onEvent: (e) => events.push(e), ...guard },
    onError: () => {},
  });
  const parts: TextStreamPart<ToolSet>[] = [];
  for await (const part of result.fullStream) parts.push(part);
  return { result, parts, requests: handlers.requests, events, sleep };
}

const deltas = (parts: TextStreamPart<ToolSet>[]) =>
  parts.flatMap((p) => (p.type === 'text-delta' ? [p.text] : []));
/** What a consumer shows: every delta, minus what a reset told it to discard. */
function shownText(parts: TextStreamPart<ToolSet>[]): string {
  let text = '';
  for (const part of parts) {
    if (isResetPart(part)) text = '';
    else if (part.type === 'text-delta') text += part.text;
  }
  return text;
}

describe.each([
  ['chat', openai.chat('gpt-4o')],
  ['responses', openai.responses('gpt-4o')],
] as const)("recovery: 'stream' on OpenAI %s", (_api, model) => {
  it('the same answer again → swallowed while it repeats what was shown, then streamed live: each character once', async () => {
    const { result, parts, requests } = await run(model, [cut(), reply.text(ANSWER, { chunkChars: 3 })]);
    expect(requests.map((r) => r.stream)).toEqual([true, true]);
    expect(deltas(parts).join('')).toBe(ANSWER);
    expect(parts.some(isResetPart)).toBe(false);
    // The remainder arrives delta by delta (not in one piece), in the block the cut left open.
    const shownDeltas = deltas(parts).findIndex((_d, i, all) => all.slice(0, i + 1).join('') === SHOWN);
    expect(deltas(parts).length - shownDeltas - 1).toBeGreaterThan(5);
    expect(new Set(parts.filter((p) => p.type === 'text-start').map((p) => p.id)).size).toBe(1);
    expect(await result.text).toBe(ANSWER);
    const attempts = (await result.providerMetadata)?.['graceful-ai']?.attempts;
    expect(attempts).toMatchObject([
      { attempt: 1, mode: 'stream', outcome: 'failed', charsEmitted: SHOWN.length },
      {
        attempt: 2,
        mode: 'stream',
        outcome: 'ok',
        recovery: 'regenerate',
        charsEmitted: ANSWER.length - SHOWN.length,
      },
    ]);
  });

  it('a different answer → a reset part the moment it diverges, then the new answer streamed live', async () => {
    const other = 'The quick answer: a pangram uses every letter.';
    const { result, parts } = await run(model, [cut(), reply.text(other, { chunkChars: 3 })]);
    const resetAt = parts.findIndex(isResetPart);
    expect(resetAt).toBeGreaterThan(0);
    // Nothing of the recovery reached the consumer before the reset: the shown text, then the reset.
    expect(deltas(parts.slice(0, resetAt)).join('')).toBe(SHOWN);
    // The reset came at the divergence ("The quick " is shared, "a" differs), not after the whole answer.
    const after = deltas(parts.slice(resetAt));
    expect(after[0]).toBe('The quick an'); // the delta it diverged in
    expect(after.length).toBeGreaterThan(5);
    expect(shownText(parts)).toBe(other);
    expect(await result.text).toBe(other);
  });

  it('the streamed recovery is cut too → a new streamed recovery after the backoff, counted against maxRetries', async () => {
    const { result, parts, requests, events, sleep } = await run(model, [
      cut(),
      cut(ANSWER, 30),
      reply.text(ANSWER),
    ]);
    expect(requests.map((r) => r.stream)).toEqual([true, true, true]);
    expect(deltas(parts).join('')).toBe(ANSWER);
    expect(parts.some(isResetPart)).toBe(false);
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([1000]);
    expect(events.map((e) => e.type)).toEqual(['stream_degraded', 'stream_retry']);
    expect(await result.text).toBe(ANSWER);
  });

  it('with maxRetries: 0 a failed streamed recovery ends the call: an error part, and result.text rejects', async () => {
    const { result, parts, requests } = await run(model, [cut(), cut(ANSWER, 30)], {}, 0);
    expect(requests).toHaveLength(2);
    expect(parts.filter((p) => p.type === 'error')).toHaveLength(1);
    await expect(result.text).rejects.toThrow();
  });
});
