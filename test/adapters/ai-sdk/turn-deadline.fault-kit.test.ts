import { createOpenAI } from '@ai-sdk/openai';
import { isStepCount, tool } from 'ai';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { generateText } from '../../../adapters/ai-sdk/generate-text.js';
import { streamText } from '../../../adapters/ai-sdk/stream-text.js';
import { lastToolResults, reply, type ToolResultSeen } from '../../../mocks/index.js';
import { mockHandlers } from '../../../mocks/msw.js';
import type { TurnDeadlineReport } from '../../../src/policy/turn-deadline.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => {
  server.resetHandlers();
  vi.useRealTimers();
});
afterAll(() => server.close());

const openai = createOpenAI({ apiKey: 'test-key' });
const models = { chat: () => openai.chat('gpt-4o'), responses: () => openai.responses('gpt-4o') };
const cases = (['chat', 'responses'] as const).flatMap((api) =>
  (['generateText', 'streamText'] as const).map((call) => ({ api, call })),
);
const input = z.object({ q: z.string() });
const TURN_MS = 10_000;

const ranOut = `this turn ran out of time (turnTimeoutMs: ${TURN_MS} ms).`;
const answerNow = 'Answer now with the information you already have.';

describe.each(cases)('turn deadline through the OpenAI provider ($api, $call)', ({ api, call }) => {
  it('abandons slow tools, skips a tool not started, answers in a tool-free step and reports all of it', async () => {
    // Only setTimeout is faked: the deadline is the one timer the test drives; MSW and streams run for real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const handlers = mockHandlers([
      reply.toolCalls([
        { name: 'fast', args: { q: 'a' }, id: 'call_fast' },
        { name: 'ignores', args: { q: 'b' }, id: 'call_ignores' },
        { name: 'honours', args: { q: 'c' }, id: 'call_honours' },
        { name: 'later', args: { q: 'd' }, id: 'call_later' },
      ]),
      reply.text('Partial answer from fast.'),
    ]);
    server.use(...handlers);

    let honoursSignal: AbortSignal | undefined;
    const later = vi.fn(async () => 'never');
    const tools = {
      fast: tool({ inputSchema: input, execute: async ({ q }) => `fast result ${q}` }),
      ignores: tool({ inputSchema: input, execute: () => new Promise<string>(() => {}) }),
      honours: tool({
        inputSchema: input,
        execute: (_input, { abortSignal }) =>
          new Promise<string>((_resolve, reject) => {
            honoursSignal = abortSignal;
            abortSignal?.addEventListener('abort', () => reject(abortSignal.reason));
          }),
      }),
      later: tool({ inputSchema: input, execute: later }),
    };
    const reports: TurnDeadlineReport[] = [];
    const settings = {
      model: models[api](),
      prompt: 'look it all up',
      tools,
      // Two at a time: `fast` frees its slot for `honours`; `later` waits behind the two slow ones.
      toolCallConcurrency: 2,
      stopWhen: isStepCount(10),
      maxRetries: 0,
      turnTimeoutMs: TURN_MS,
      onTurnDeadline: (report: TurnDeadlineReport) => reports.push(report),
    };
    const text =
      call === 'generateText'
        ? generateText(settings).then((r) => r.text)
        : Promise.resolve(streamText(settings).text);

    await vi.waitFor(() => expect(honoursSignal).toBeDefined());
    expect(handlers.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(TURN_MS);

    expect(await text).toBe('Partial answer from fast.');
    expect(later).not.toHaveBeenCalled();
    expect(honoursSignal?.aborted).toBe(true);
    expect(handlers.requests).toHaveLength(2);

    // What the model read, on the wire.
    const seen: Record<string, ToolResultSeen> = Object.fromEntries(
      lastToolResults(handlers.requests[1]!).map((r) => [r.toolName, r]),
    );
    expect(seen.fast?.error).toBeUndefined();
    expect(seen.fast?.output).toContain('fast result a');
    for (const name of ['ignores', 'honours']) {
      expect(seen[name]?.error).toContain(`Tool '${name}' was stopped before it finished: ${ranOut}`);
      expect(seen[name]?.error).toContain(answerNow);
    }
    expect(seen.later?.error).toContain(`Tool 'later' was not run: ${ranOut}`);
    expect(seen.later?.error).toContain(answerNow);
    for (const r of Object.values(seen)) expect(r.error ?? '').not.toContain('Fix the errors');

    // The first request offered the tools; the final one offers none.
    const first = handlers.requests[0]!.body as { tools?: unknown[] };
    expect(first.tools).toHaveLength(4);
    const final = handlers.requests[1]!.body as { tools?: unknown[]; tool_choice?: unknown };
    expect(final.tools ?? []).toEqual([]);
    expect([undefined, 'none']).toContain(final.tool_choice);

    expect(reports).toEqual([
      {
        expired: true,
        completed: ['fast#call_fast'],
        timedOut: ['ignores#call_ignores', 'honours#call_honours'],
        skipped: ['later#call_later'],
      },
    ]);
  });
});
