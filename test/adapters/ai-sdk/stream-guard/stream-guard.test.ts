import { APICallError, streamText as sdkStreamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import type { StreamGuardEventMap } from '../../../../adapters/ai-sdk/stream-guard/options.js';
import { streamGuard } from '../../../../adapters/ai-sdk/stream-guard/stream-guard.js';
import { abortableSleep } from '../../../../src/policy/sleep.js';
import type { AttemptRecord } from '../../../../src/stream/attempt-record.js';
import { defaultLogger } from '../../../../src/util/logger.js';
import {
  apiError,
  finish,
  generated,
  inBandError,
  type Part,
  preamble,
  scriptedModel,
  stallingStream,
  streamOf,
  textParts,
} from '../stream-guard-fixtures.js';

type Model = ReturnType<typeof scriptedModel>;

function guarded(model: Model, options: Parameters<typeof streamGuard>[0] = {}) {
  const sleep = vi.fn(async (_ms: number, _signal?: AbortSignal) => {});
  const events: Array<{ type: string }> = [];
  const wrapped = wrapLanguageModel({
    model,
    middleware: streamGuard({ sleep, random: () => 0.5, onEvent: (event) => events.push(event), ...options }),
  });
  return { wrapped, sleep, events };
}

async function readAll(stream: ReadableStream<Part>): Promise<Part[]> {
  const parts: Part[] = [];
  await collect(stream, parts);
  return parts;
}

/** Reads `stream` into `into` (kept on failure, so a test can see what came before the error). */
async function collect(stream: ReadableStream<Part>, into: Part[]): Promise<void> {
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) into.push(next.value);
}

async function streamParts(model: Model, options: Parameters<typeof streamGuard>[0] = {}) {
  const g = guarded(model, options);
  const { stream } = await g.wrapped.doStream({ prompt: [] });
  return { ...g, parts: await readAll(stream) };
}

const textOf = (parts: Part[]) => parts.map((p) => (p.type === 'text-delta' ? p.delta : '')).join('');
const attemptsOf = (parts: Part[]) => {
  const done = parts.find((p) => p.type === 'finish');
  return (done?.type === 'finish'
    ? done.providerMetadata?.['graceful-ai']?.attempts
    : undefined) as unknown as AttemptRecord[] | undefined;
};

describe('streamGuard: clean streams', () => {
  it('passes every part through unchanged, finish included: a clean first attempt adds no attempt records', async () => {
    const parts = [...preamble('r1'), ...textParts('Hello world'), finish()];
    const model = scriptedModel([streamOf(parts)]);
    const { parts: out } = await streamParts(model);
    expect(out).toEqual(parts);
    expect(attemptsOf(out)).toBeUndefined();
  });

  it('records every attempt, JSON-safe, once a retry happened', async () => {
    const parts = [...preamble('r1'), ...textParts('Hello world'), finish()];
    const model = scriptedModel([{ throws: apiError(503) }, streamOf(parts)]);
    const { parts: out } = await streamParts(model, { sleep: async () => {} });
    expect(attemptsOf(out)).toMatchObject([
      { attempt: 1, mode: 'stream', outcome: 'failed' },
      { attempt: 2, mode: 'stream', outcome: 'ok', charsEmitted: 11 },
    ]);
    expect(JSON.parse(JSON.stringify(attemptsOf(out)))).toEqual(attemptsOf(out));
  });

  it('reads the provider only as fast as the consumer reads (backpressure)', async () => {
    const parts = [...preamble('r1'), ...textParts('a'.repeat(40), { size: 1 }), finish()];
    let pulled = 0;
    const counting = new ReadableStream<Part>(
      {
        pull(controller) {
          if (pulled < parts.length) controller.enqueue(parts[pulled++]!);
          else controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    const { wrapped } = guarded(scriptedModel([counting]));
    const reader = (await wrapped.doStream({ prompt: [] })).stream.getReader();
    for (let i = 0; i < 5; i++) await reader.read();
    await new Promise((resolve) => setImmediate(resolve));
    // The preamble (2) and the first content part are read to commit; then one part ahead of the consumer.
    expect(pulled).toBeLessThanOrEqual(5 + 2);
    await reader.cancel();
  });

  it('a slow consumer gets every part sent before a terminal error, then the error', async () => {
    const error = apiError(401);
    const model = scriptedModel([
      streamOf([...preamble('r1'), ...textParts('Hello world', { open: true, size: 1 })], error),
    ]);
    const { wrapped } = guarded(model);
    const reader = (await wrapped.doStream({ prompt: [] })).stream.getReader();
    const seen: Part[] = [];
    const failure = (async () => {
      for (;;) {
        await new Promise((resolve) => setImmediate(resolve));
        const next = await reader.read();
        if (next.done) return undefined;
        seen.push(next.value);
      }
    })().catch((e: unknown) => e);
    expect(await failure).toBe(error);
    expect(textOf(seen)).toBe('Hello world');
  });
});

describe('streamGuard: failures before the first content part', () => {
  const answer = [...preamble('good'), ...textParts('Answer'), finish()];

  it.each([
    ['a throw from doStream', { throws: apiError(503) }],
    ['a rejected stream', streamOf(preamble('bad'), apiError(502))],
    ['an error part', streamOf([...preamble('bad'), { type: 'error', error: apiError(500) }])],
    [
      'an in-band provider error',
      streamOf([
        ...preamble('bad'),
        { type: 'error', error: inBandError({ message: 'Overloaded', statusCode: 529 }) },
      ]),
    ],
  ])('%s → a new streamed request, one preamble (the winner’s)', async (_name, failing) => {
    const model = scriptedModel([failing, streamOf(answer)]);
    const { parts, sleep, events } = await streamParts(model);
    expect(model.doStreamCalls).toHaveLength(2);
    expect(parts.filter((p) => p.type === 'stream-start')).toHaveLength(1);
    expect(parts.filter((p) => p.type === 'response-metadata')).toEqual([
      { type: 'response-metadata', id: 'good', modelId: 'mock' },
    ]);
    expect(textOf(parts)).toBe('Answer');
    expect(sleep).toHaveBeenCalledWith(1000, undefined);
    expect(events.map((e) => e.type)).toEqual(['stream_retry']);
    expect(attemptsOf(parts)?.map((a) => a.outcome)).toEqual(['failed', 'ok']);
  });

  it('honours retry-after from a 429 (the delay requested, not wall time)', async () => {
    const model = scriptedModel([
      { throws: apiError(429, { headers: { 'retry-after': '7' } }) },
      streamOf(answer),
    ]);
    const { sleep, parts } = await streamParts(model);
    expect(sleep).toHaveBeenCalledTimes(1);
    expect(sleep.mock.calls[0]?.[0]).toBe(7000);
    expect(textOf(parts)).toBe('Answer');
  });

  it('backs off exponentially and gives up after maxRetries', async () => {
    const model = scriptedModel([
      { throws: apiError(503) },
      { throws: apiError(503) },
      { throws: apiError(503) },
    ]);
    const { wrapped, sleep, events } = guarded(model, { maxRetries: 2 });
    const { stream } = await wrapped.doStream({ prompt: [] });
    await expect(readAll(stream)).rejects.toMatchObject({ statusCode: 503 });
    expect(sleep.mock.calls.map((c) => c[0])).toEqual([1000, 2000]);
    expect(model.doStreamCalls).toHaveLength(3);
    expect(events.map((e) => e.type)).toEqual(['stream_retry', 'stream_retry', 'stream_failed']);
  });

  it.each([
    ['permanent (401)', apiError(401)],
    ['overflow', apiError(400, { body: '{"error":{"code":"context_length_exceeded"}}' })],
  ])('%s is surfaced at once, with no retry', async (_name, error) => {
    const model = scriptedModel([{ throws: error }]);
    const { wrapped, sleep } = guarded(model);
    const { stream } = await wrapped.doStream({ prompt: [] });
    await expect(readAll(stream)).rejects.toBe(error);
    expect(sleep).not.toHaveBeenCalled();
    expect(model.doStreamCalls).toHaveLength(1);
  });

  it('an abort during the backoff ends the call with the caller’s reason, without another request', async () => {
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      const model = scriptedModel([{ throws: apiError(503) }, streamOf(answer)]);
      const wrapped = wrapLanguageModel({ model, middleware: streamGuard({ random: () => 0.5 }) });
      const opening = wrapped.doStream({ prompt: [], abortSignal: controller.signal });
      await vi.advanceTimersByTimeAsync(500);
      controller.abort(new Error('user left'));
      const { stream } = await opening;
      await expect(readAll(stream)).rejects.toThrow('user left');
      expect(model.doStreamCalls).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('streamGuard: failures after content', () => {
  const cut = (text: string, error: unknown = apiError(503)) =>
    streamOf([...preamble('r1'), ...textParts(text, { open: true })], error);

  it('degrades to one doGenerate and emits only the remainder when the answer begins with what was shown', async () => {
    const model = scriptedModel([cut('The quick brown')], [generated('The quick brown fox jumps.')]);
    const { parts, events } = await streamParts(model);
    expect(textOf(parts)).toBe('The quick brown fox jumps.');
    expect(model.doStreamCalls).toHaveLength(1);
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(parts.some((p) => p.type === 'custom')).toBe(false);
    expect(parts.filter((p) => p.type === 'text-start')).toHaveLength(1);
    expect(parts.at(-2)).toEqual({ type: 'text-end', id: 't1' });
    expect(events.map((e) => e.type)).toEqual(['stream_degraded']);
    expect(attemptsOf(parts)).toMatchObject([
      { mode: 'stream', outcome: 'failed', charsEmitted: 15 },
      { mode: 'generate', outcome: 'ok', charsEmitted: 11 },
    ]);
  });

  it('emits a reset part, then the complete new answer, when the answer differs', async () => {
    const model = scriptedModel([cut('Partial ')], [generated('Full answer')]);
    const { parts } = await streamParts(model);
    const reset = parts.findIndex((p) => p.type === 'custom');
    expect(parts[reset]).toEqual({
      type: 'custom',
      kind: 'graceful-ai.reset',
      providerMetadata: {
        'graceful-ai': { reset: { textIds: ['t1'], reasoningIds: [], toolInputIds: [], discardedChars: 8 } },
      },
    });
    expect(textOf(parts.slice(0, reset))).toBe('Partial ');
    expect(parts[reset - 1]).toEqual({ type: 'text-end', id: 't1' });
    expect(textOf(parts.slice(reset))).toBe('Full answer');
  });

  it('treats an in-band error part after content like a cut', async () => {
    const model = scriptedModel(
      [
        streamOf([
          ...preamble('r1'),
          ...textParts('Hello', { open: true }),
          { type: 'error', error: inBandError({ message: 'Overloaded', type: 'overloaded_error' }) },
        ]),
      ],
      [generated('Hello there')],
    );
    const { parts } = await streamParts(model);
    expect(textOf(parts)).toBe('Hello there');
  });

  it("treats a clean end with finish reason 'interrupted' as a cut", async () => {
    const model = scriptedModel(
      [streamOf([...preamble('r1'), ...textParts('Hello'), finish('interrupted')])],
      [generated('Hello there')],
    );
    const { parts } = await streamParts(model);
    expect(textOf(parts)).toBe('Hello there');
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'stop' } });
  });

  it('never emits an already emitted tool call twice (ids differ between requests)', async () => {
    const call: Part = {
      type: 'tool-call',
      toolCallId: 'call_A',
      toolName: 'weather',
      input: '{"city":"Paris"}',
    };
    const model = scriptedModel(
      [streamOf([...preamble('r1'), call], apiError(503))],
      [
        generated('', [
          { type: 'tool-call', toolCallId: 'call_B', toolName: 'weather', input: '{ "city": "Paris" }' },
          { type: 'tool-call', toolCallId: 'call_C', toolName: 'weather', input: '{"city":"Rome"}' },
        ]),
      ],
    );
    const { parts } = await streamParts(model);
    expect(
      parts.filter((p) => p.type === 'tool-call').map((p) => p.type === 'tool-call' && p.toolCallId),
    ).toEqual(['call_A', 'call_C']);
  });

  it.each([
    ['401 (auth revoked)', inBandError({ message: 'Invalid API key', statusCode: 401 }), 'StreamFailedError'],
    ['overflow', apiError(400, { body: '{"error":{"code":"context_length_exceeded"}}' }), 'AI_APICallError'],
  ])('%s is terminal: the stream errors, no retry, no degrade', async (_name, error, name) => {
    const model = scriptedModel([cut('Partial', error)]);
    const { wrapped, events } = guarded(model);
    const { stream } = await wrapped.doStream({ prompt: [] });
    const seen: Part[] = [];
    await expect(collect(stream, seen)).rejects.toMatchObject({ name });
    expect(textOf(seen)).toBe('Partial');
    expect(model.doStreamCalls).toHaveLength(1);
    expect(model.doGenerateCalls).toHaveLength(0);
    expect(events.map((e) => e.type)).toEqual(['stream_failed']);
  });

  it('a failing doGenerate is terminal with its own error', async () => {
    const model = scriptedModel([cut('Partial')], [{ throws: apiError(500) }]);
    const { wrapped, events } = guarded(model);
    const { stream } = await wrapped.doStream({ prompt: [] });
    await expect(readAll(stream)).rejects.toMatchObject({ statusCode: 500 });
    expect(events.map((e) => e.type)).toEqual(['stream_degraded', 'stream_failed']);
  });

  it("with degrade: false an 'interrupted' finish is terminal: a partial answer never passes as complete", async () => {
    const model = scriptedModel([
      streamOf([...preamble('r1'), ...textParts('Hello'), finish('interrupted')]),
    ]);
    const { wrapped } = guarded(model, { degrade: false });
    const { stream } = await wrapped.doStream({ prompt: [] });
    await expect(readAll(stream)).rejects.toMatchObject({
      name: 'StreamInterruptedError',
      ending: 'interrupted',
      charsEmitted: 5,
    });
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('with degrade: false a transient failure after content is terminal', async () => {
    const model = scriptedModel([cut('Partial')]);
    const { wrapped } = guarded(model, { degrade: false });
    const { stream } = await wrapped.doStream({ prompt: [] });
    await expect(readAll(stream)).rejects.toMatchObject({ statusCode: 503 });
    expect(model.doGenerateCalls).toHaveLength(0);
  });
});

describe('streamGuard: endings that are no completion', () => {
  const answer = [...preamble('good'), ...textParts('Hello there'), finish()];
  const shownThenEnds = (ending: Part[]) =>
    streamOf([...preamble('r1'), ...textParts('Hello', { open: true }), ...ending]);
  const unfinished: Array<[string, Part[]]> = [
    ['no finish part at all (the AI Gateway)', []],
    ["finish 'other' with no provider reason (Bedrock, xAI, DeepSeek, Azure)", [finish('other', undefined)]],
    ["finish 'other' with an empty reason", [finish('other', '')]],
    ["finish 'interrupted'", [finish('interrupted', undefined)]],
    [
      "finish 'error' (DeepSeek's insufficient_system_resource)",
      [finish('error', 'insufficient_system_resource')],
    ],
    ["finish 'other' with vLLM's 'abort'", [finish('other', 'abort')]],
    ["finish 'other' with OpenRouter's 'error'", [finish('other', 'error')]],
    [
      "finish 'other' with Gemini's FINISH_REASON_UNSPECIFIED",
      [finish('other', 'FINISH_REASON_UNSPECIFIED')],
    ],
  ];

  it.each(unfinished)(
    'after content, %s → recovered like a cut: the remainder only',
    async (_name, ending) => {
      const model = scriptedModel([shownThenEnds(ending)], [generated('Hello there')]);
      const { parts, events } = await streamParts(model);
      expect(textOf(parts)).toBe('Hello there');
      expect(model.doGenerateCalls).toHaveLength(1);
      expect(parts.some((p) => p.type === 'custom')).toBe(false);
      expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'stop' } });
      expect(events.map((e) => e.type)).toEqual(['stream_degraded']);
      expect(attemptsOf(parts)?.[0]).toMatchObject({
        outcome: 'failed',
        charsEmitted: 5,
        error: { name: 'StreamInterruptedError' },
      });
    },
  );

  it.each(unfinished)(
    'before content, %s → a new streamed request after the backoff',
    async (_name, ending) => {
      const model = scriptedModel([streamOf([...preamble('bad'), ...ending]), streamOf(answer)]);
      const { parts, sleep } = await streamParts(model);
      expect(textOf(parts)).toBe('Hello there');
      expect(model.doStreamCalls).toHaveLength(2);
      expect(sleep).toHaveBeenCalledWith(1000, undefined);
    },
  );

  it.each([
    ["'other' with a reason of the provider's", finish('other', 'pause_turn')],
    ["'length'", finish('length', 'max_tokens')],
    ["'content-filter'", finish('content-filter', 'refusal')],
    ["'tool-calls'", finish('tool-calls', 'tool_use')],
  ])('a finish %s is a completion: passed on, no recovery', async (_name, done) => {
    const model = scriptedModel([shownThenEnds([{ type: 'text-end', id: 't1' }, done])]);
    const { parts } = await streamParts(model);
    expect(textOf(parts)).toBe('Hello');
    expect(parts.at(-1)).toEqual(done);
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('the error names the ending and the provider reason', async () => {
    const model = scriptedModel([shownThenEnds([finish('other', 'abort')])]);
    const { wrapped } = guarded(model, { degrade: false });
    const { stream } = await wrapped.doStream({ prompt: [] });
    const error = await readAll(stream).catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'StreamInterruptedError',
      ending: 'other',
      rawFinishReason: 'abort',
    });
    expect(String(error)).toContain(
      "after 5 characters, with finish reason 'other' (the provider said 'abort')",
    );
  });

  it('without recovery (degrade: false), a stream with no finish is terminal: StreamInterruptedError', async () => {
    const model = scriptedModel([shownThenEnds([])]);
    const { wrapped } = guarded(model, { degrade: false });
    const { stream } = await wrapped.doStream({ prompt: [] });
    await expect(readAll(stream)).rejects.toMatchObject({
      name: 'StreamInterruptedError',
      ending: 'no-finish',
    });
  });

  it("a streamed recovery that ends with finish 'other' and no reason is retried, within maxRetries", async () => {
    const model = scriptedModel([
      shownThenEnds([finish('other', undefined)]),
      streamOf([...preamble('r2'), ...textParts('Hello th', { open: true }), finish('other', undefined)]),
      streamOf(answer),
    ]);
    const { parts } = await streamParts(model, { recovery: 'stream' });
    expect(textOf(parts)).toBe('Hello there');
    expect(model.doStreamCalls).toHaveLength(3);
  });
});

describe('streamGuard: errors nobody recognises', () => {
  it('before content, a plain Error is reported at once, as the SDK reports it: no retry, no wait', async () => {
    const boom = new Error('boom');
    const model = scriptedModel([{ throws: boom }]);
    const { wrapped, sleep } = guarded(model);
    const { stream } = await wrapped.doStream({ prompt: [] });
    await expect(readAll(stream)).rejects.toBe(boom);
    expect(model.doStreamCalls).toHaveLength(1);
    expect(sleep).not.toHaveBeenCalled();
  });

  it("before content, classify.unknown: 'transient' makes the guard retry it", async () => {
    const model = scriptedModel([
      { throws: new Error('boom') },
      streamOf([...preamble('good'), ...textParts('Hi'), finish()]),
    ]);
    const { parts } = await streamParts(model, { classify: { unknown: 'transient' } });
    expect(textOf(parts)).toBe('Hi');
    expect(model.doStreamCalls).toHaveLength(2);
  });

  it('before content, what the SDK itself would retry (an APICallError marked isRetryable, no status) is retried', async () => {
    const unreachable = new APICallError({
      message: 'Cannot connect to API: other side closed',
      url: 'https://api.example/v1',
      requestBodyValues: {},
      isRetryable: true,
      cause: new TypeError('fetch failed'),
    });
    const model = scriptedModel([
      { throws: unreachable },
      streamOf([...preamble('good'), ...textParts('Hi'), finish()]),
    ]);
    const { parts } = await streamParts(model);
    expect(textOf(parts)).toBe('Hi');
    expect(attemptsOf(parts)?.[0]).toMatchObject({ classification: { kind: 'transient' } });
  });

  it('after content, a plain Error is recovered: the alternative is a partial answer', async () => {
    const model = scriptedModel(
      [streamOf([...preamble('r1'), ...textParts('Hello', { open: true })], new Error('boom'))],
      [generated('Hello there')],
    );
    const { parts } = await streamParts(model);
    expect(textOf(parts)).toBe('Hello there');
  });

  it('generate calls: a plain Error is reported at once', async () => {
    const boom = new Error('boom');
    const model = scriptedModel([], [{ throws: boom }]);
    const { wrapped } = guarded(model);
    await expect(wrapped.doGenerate({ prompt: [] })).rejects.toBe(boom);
    expect(model.doGenerateCalls).toHaveLength(1);
  });
});

describe('streamGuard: stalls', () => {
  it('a stall after content aborts only the inner request and degrades', async () => {
    vi.useFakeTimers();
    try {
      const model = scriptedModel(
        [stallingStream([...preamble('r1'), ...textParts('Hello', { open: true })])],
        [generated('Hello world')],
      );
      const wrapped = wrapLanguageModel({ model, middleware: streamGuard({ stallTimeoutMs: 5000 }) });
      const { stream } = await wrapped.doStream({ prompt: [] });
      const reading = readAll(stream);
      await vi.advanceTimersByTimeAsync(5000);
      const parts = await reading;
      expect(textOf(parts)).toBe('Hello world');
      expect(model.doStreamCalls[0]?.abortSignal?.aborted).toBe(true);
      expect(attemptsOf(parts)?.[0]).toMatchObject({
        error: { name: 'StreamStalledError' },
        classification: { reason: 'stall' },
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('a slow stream whose parts each come within the timeout is not a stall', async () => {
    vi.useFakeTimers();
    try {
      const parts = [...preamble('r1'), ...textParts('Slow but steady', { size: 1 }), finish()];
      let i = 0;
      const slow = new ReadableStream<Part>(
        {
          async pull(controller) {
            await new Promise((resolve) => setTimeout(resolve, 3000));
            if (i < parts.length) controller.enqueue(parts[i++]!);
            else controller.close();
          },
        },
        { highWaterMark: 0 },
      );
      const model = scriptedModel([slow]);
      const wrapped = wrapLanguageModel({ model, middleware: streamGuard({ stallTimeoutMs: 5000 }) });
      const reading = wrapped.doStream({ prompt: [] }).then(({ stream }) => readAll(stream));
      await vi.advanceTimersByTimeAsync(3000 * (parts.length + 1));
      const out = await reading;
      expect(textOf(out)).toBe('Slow but steady');
      expect(attemptsOf(out)).toBeUndefined(); // one clean attempt
      expect(model.doStreamCalls[0]?.abortSignal?.aborted).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a consumer pausing 10× stallTimeoutMs between parts is not a stall: no degrade, one request', async () => {
    vi.useFakeTimers();
    try {
      const model = scriptedModel([
        streamOf([...preamble('r1'), ...textParts('Paused consumer', { size: 1 }), finish()]),
      ]);
      const { wrapped, events } = guarded(model, { stallTimeoutMs: 5000, sleep: abortableSleep });
      const reader = (await wrapped.doStream({ prompt: [] })).stream.getReader();
      const parts: Part[] = [];
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        parts.push(next.value);
        await vi.advanceTimersByTimeAsync(50_000);
      }
      expect(textOf(parts)).toBe('Paused consumer');
      expect(model.doStreamCalls).toHaveLength(1);
      expect(model.doGenerateCalls).toHaveLength(0);
      expect(events).toEqual([]);
      expect(attemptsOf(parts)).toBeUndefined(); // one clean attempt
    } finally {
      vi.useRealTimers();
    }
  });

  it('a provider that stops sending while a paused consumer waits is a stall, timed from the read', async () => {
    vi.useFakeTimers();
    try {
      const model = scriptedModel(
        [stallingStream([...preamble('r1'), ...textParts('Hello', { open: true, size: 1 })])],
        [generated('Hello world')],
      );
      const { wrapped, events } = guarded(model, { stallTimeoutMs: 5000, sleep: abortableSleep });
      const reader = (await wrapped.doStream({ prompt: [] })).stream.getReader();
      const parts: Part[] = [];
      // Every part the provider sent, each after a pause far longer than the stall timeout: no stall.
      while (textOf(parts) !== 'Hello') {
        const next = await reader.read();
        if (!next.done) parts.push(next.value);
        if (textOf(parts) !== 'Hello') await vi.advanceTimersByTimeAsync(50_000);
      }
      expect(model.doStreamCalls[0]?.abortSignal?.aborted).toBe(false);
      // Now the guard's read of the silent provider is pending while the consumer waits: that is a stall.
      await vi.advanceTimersByTimeAsync(4999);
      expect(model.doStreamCalls[0]?.abortSignal?.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(model.doStreamCalls[0]?.abortSignal?.aborted).toBe(true);
      for (let next = await reader.read(); !next.done; next = await reader.read()) parts.push(next.value);
      expect(textOf(parts)).toBe('Hello world');
      expect(model.doStreamCalls).toHaveLength(1);
      expect(model.doGenerateCalls).toHaveLength(1);
      expect(events.map((e) => e.type)).toEqual(['stream_degraded']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a doStream that never returns (the provider reads ahead to the first output and the stream stalled) is a stall: aborted, then a new stream', async () => {
    vi.useFakeTimers();
    try {
      const signals: Array<AbortSignal | undefined> = [];
      const answer = streamOf([...preamble('good'), ...textParts('Hi'), finish()]);
      const model = new MockLanguageModelV4({
        doStream: async ({ abortSignal }) => {
          signals.push(abortSignal);
          if (signals.length > 1) return { stream: answer };
          // As @ai-sdk/openai's doStream does while it waits for the first output chunk: it returns only on abort.
          return new Promise((_, reject) =>
            abortSignal?.addEventListener('abort', () => reject(abortSignal.reason)),
          );
        },
      });
      const wrapped = wrapLanguageModel({
        model,
        middleware: streamGuard({ stallTimeoutMs: 5000, initialDelayMs: 10, jitter: 0 }),
      });
      const opening = wrapped.doStream({ prompt: [] });
      await vi.advanceTimersByTimeAsync(5010);
      const parts = await readAll((await opening).stream);
      expect(textOf(parts)).toBe('Hi');
      expect(signals).toHaveLength(2);
      expect(signals[0]?.reason).toMatchObject({ name: 'StreamStalledError' });
      expect(attemptsOf(parts)?.[0]).toMatchObject({
        outcome: 'failed',
        classification: { reason: 'stall' },
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('a stall before content starts a new stream', async () => {
    vi.useFakeTimers();
    try {
      const model = scriptedModel([
        stallingStream(preamble('stalled')),
        streamOf([...preamble('good'), ...textParts('Hi'), finish()]),
      ]);
      const wrapped = wrapLanguageModel({
        model,
        middleware: streamGuard({ stallTimeoutMs: 5000, initialDelayMs: 10, jitter: 0 }),
      });
      const opening = wrapped.doStream({ prompt: [] });
      await vi.advanceTimersByTimeAsync(5010);
      const parts = await readAll((await opening).stream);
      expect(textOf(parts)).toBe('Hi');
      expect(parts.filter((p) => p.type === 'response-metadata')).toMatchObject([{ id: 'good' }]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('streamGuard events', () => {
  it('event names are checked by the compiler: a misspelled name does not compile', () => {
    expectTypeOf<keyof StreamGuardEventMap>().toEqualTypeOf<
      | 'stream_retry'
      | 'stream_degraded'
      | 'stream_failed'
      | 'stream_failover'
      | 'model_breaker'
      | 'tool_history_repaired'
    >();
    // Compile-time proofs (checked by `tsc`); never called.
    const misspelled = () =>
      streamGuard({
        onEvent: (event) => {
          // @ts-expect-error 'stream_degrade' is not an event of the guard
          if (event.type === 'stream_degrade') return;
        },
      });
    expect(misspelled).toBeTypeOf('function');
  });

  it('a listener that throws is logged and ignored: the call goes on', async () => {
    const warn = vi.spyOn(defaultLogger, 'warn').mockImplementation(() => {});
    try {
      const answer = [...preamble('r1'), ...textParts('Hello'), finish()];
      const model = scriptedModel([{ throws: apiError(503) }, streamOf(answer)]);
      const { parts } = await streamParts(model, {
        onEvent: () => {
          throw new Error('a bug in the listener');
        },
      });
      expect(textOf(parts)).toBe('Hello');
      expect(warn).toHaveBeenCalledWith(expect.stringContaining("'stream_retry' listener threw"), {
        error: expect.objectContaining({ message: 'a bug in the listener' }),
      });
    } finally {
      warn.mockRestore();
    }
  });
});

describe('streamGuard: the prompt it sends', () => {
  it('never carries what a reset discarded: every request (stream, retry, recovery) gets the cleaned prompt', async () => {
    const prompt = [
      { role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] },
      {
        role: 'assistant' as const,
        content: [
          { type: 'text' as const, text: 'Partial ' },
          { type: 'custom' as const, kind: 'graceful-ai.reset' as const },
          { type: 'text' as const, text: 'Full answer' },
        ],
      },
      { role: 'user' as const, content: [{ type: 'text' as const, text: 'more' }] },
    ];
    const model = scriptedModel(
      [
        { throws: apiError(503) },
        streamOf([...preamble('r1'), ...textParts('Hel', { open: true })], apiError(503)),
      ],
      [generated('Hello')],
    );
    const { wrapped } = guarded(model);
    await readAll((await wrapped.doStream({ prompt })).stream);
    const sent = [...model.doStreamCalls, ...model.doGenerateCalls].map((call) => call.prompt[1]);
    expect(sent).toHaveLength(3);
    for (const message of sent) {
      expect(message).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Full answer' }] });
    }
    expect(prompt[1]?.content).toHaveLength(3);
  });
});

describe('streamGuard with the plain SDK streamText', () => {
  it('a terminal error after content makes result.text reject with the original error', async () => {
    const error = apiError(401);
    const model = scriptedModel([
      streamOf([...preamble('r1'), ...textParts('Partial', { open: true })], error),
    ]);
    const { wrapped } = guarded(model);
    const result = sdkStreamText({ model: wrapped, prompt: 'hi', maxRetries: 0, onError: () => {} });
    await expect(result.text).rejects.toBe(error);
  });

  it('generate calls retry transient errors with the same policy', async () => {
    const model = scriptedModel([], [{ throws: apiError(503) }, generated('ok')]);
    const { wrapped, sleep } = guarded(model);
    const result = await wrapped.doGenerate({ prompt: [] });
    expect(result.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(sleep).toHaveBeenCalledWith(1000, undefined);
    expect(result.providerMetadata?.['graceful-ai']?.attempts).toMatchObject([
      { mode: 'generate', outcome: 'failed' },
      { mode: 'generate', outcome: 'ok' },
    ]);
  });
});
