/**
 * Conformance of the fault kit with the official `openai` npm client: the loopback server, driven the way the
 * client's README drives the real API (chat and responses, streamed and not), and every fault, with what the client
 * raises and how its retries read `retry-after`, `retry-after-ms` and `x-should-retry`.
 */

import { setupServer } from 'msw/node';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  fault,
  type MockServer,
  reply,
  type Script,
  startMockServer,
  streamFault,
} from '../../mocks/index.js';
import { mockHandlers } from '../../mocks/msw.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ script: [] });
});
afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(() => mock.close());

/** A client of the loopback mock playing `script`. */
function clientFor(script: Script, maxRetries = 0): OpenAI {
  mock.setScript(script);
  return new OpenAI({ baseURL: mock.urls.openai, apiKey: 'test', maxRetries });
}

const messages = [{ role: 'user' as const, content: 'hi' }];
const chat = { model: 'gpt-4o', messages };
const responses = { model: 'gpt-4o', input: 'hi' };

/**
 * Records the delays of the client's retry sleeps and runs them at once. Only a `setTimeout` called from the
 * client's sleep helper (openai/internal/utils/sleep) is shortened: Node's fetch (undici) schedules its own timers
 * through the same global, and they keep real time.
 */
function recordSleeps(): number[] {
  const sleeps: number[] = [];
  const realSetTimeout = globalThis.setTimeout;
  const shortened = (handler: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const fromSleep = /openai[\\/]internal[\\/]utils[\\/]sleep/.test(new Error().stack ?? '');
    if (fromSleep) sleeps.push(ms ?? 0);
    return realSetTimeout(handler, fromSleep ? 0 : ms, ...args);
  };
  vi.spyOn(globalThis, 'setTimeout').mockImplementation(shortened as typeof setTimeout);
  return sleeps;
}

/** The first `code` along an error's cause chain. */
function causeCode(error: unknown): unknown {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code !== undefined) return e.code;
  }
  return undefined;
}

describe('answers, as the README reads them', () => {
  it('chat, non-streamed: message content, finish reason and usage', async () => {
    const client = clientFor([reply.text('Hello', { usage: { inputTokens: 7, outputTokens: 2 } })]);
    const completion = await client.chat.completions.create(chat);
    expect(completion.choices[0]?.message.content).toBe('Hello');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage).toEqual({ prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 });
  });

  it('chat, streamed without include_usage: every chunk has a choice, no chunk has usage', async () => {
    const client = clientFor([reply.text('Hello world', { chunkChars: 3 })]);
    const stream = await client.chat.completions.create({ ...chat, stream: true });
    let text = '';
    let chunks = 0;
    // The README loop: it would throw on a `choices: []` chunk.
    for await (const chunk of stream) {
      text += chunk.choices[0]!.delta.content ?? '';
      expect(chunk).not.toHaveProperty('usage');
      chunks++;
    }
    expect(text).toBe('Hello world');
    expect(chunks).toBe(6); // role, four deltas, finish
  });

  it('chat, streamed with include_usage: usage null on every chunk, then one choices: [] chunk with usage', async () => {
    const client = clientFor([reply.text('Hello', { usage: { inputTokens: 3, outputTokens: 1 } })]);
    const stream = await client.chat.completions.create({
      ...chat,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const last = chunks.pop();
    expect(last).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
    });
    expect(chunks.map((c) => [c.choices.length, c.usage])).toEqual(chunks.map(() => [1, null]));
  });

  it("chat stream helper: the client's accumulator rebuilds text and parallel tool calls", async () => {
    const client = clientFor([
      reply.text('Hello world'),
      reply.toolCalls([{ name: 'read_file', args: { path: 'a.txt' } }, { name: 'ls' }], {
        text: 'Let me look.',
      }),
    ]);
    const text = await client.chat.completions.stream(chat).finalChatCompletion();
    expect(text.choices[0]?.message.content).toBe('Hello world');
    const calls = await client.chat.completions.stream(chat).finalChatCompletion();
    expect(calls.choices[0]?.finish_reason).toBe('tool_calls');
    expect(calls.choices[0]?.message.content).toBe('Let me look.');
    expect(calls.choices[0]?.message.tool_calls).toEqual([
      {
        id: 'call_mock_2_0',
        type: 'function',
        function: { name: 'read_file', arguments: '{"path":"a.txt"}' },
      },
      { id: 'call_mock_2_1', type: 'function', function: { name: 'ls', arguments: '{}' } },
    ]);
  });

  it('responses, non-streamed: output_text and function calls', async () => {
    const client = clientFor([reply.text('Hello'), reply.toolCall('read_file', { path: 'a.txt' })]);
    const text = await client.responses.create(responses);
    expect(text.output_text).toBe('Hello');
    expect(text.status).toBe('completed');
    const call = await client.responses.create(responses);
    expect(call.output).toMatchObject([
      { type: 'function_call', call_id: 'call_mock_2_0', name: 'read_file', arguments: '{"path":"a.txt"}' },
    ]);
  });

  it("responses, streamed: the event loop and the client's stream helper", async () => {
    const client = clientFor([reply.text('Hello world'), reply.toolCall('read_file', { path: 'a.txt' })]);
    const stream = await client.responses.create({ ...responses, stream: true });
    let text = '';
    const types = new Set<string>();
    for await (const event of stream) {
      types.add(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
    }
    expect(text).toBe('Hello world');
    expect([...types].at(-1)).toBe('response.completed');
    const final = await client.responses.stream(responses).finalResponse();
    expect(final.output).toMatchObject([
      { type: 'function_call', name: 'read_file', arguments: '{"path":"a.txt"}' },
    ]);
  });
});

describe('HTTP faults: the client error classes', () => {
  it.each([
    ['rate limit', fault.rateLimit(), OpenAI.RateLimitError, 'rate_limit_exceeded'],
    ['quota', fault.insufficientQuota(), OpenAI.RateLimitError, 'insufficient_quota'],
    ['500', fault.serverError(), OpenAI.InternalServerError, null],
    ['401', fault.unauthorized(), OpenAI.AuthenticationError, 'invalid_api_key'],
    ['403', fault.forbidden(), OpenAI.PermissionDeniedError, 'unsupported_country_region_territory'],
    ['404', fault.notFound(), OpenAI.NotFoundError, 'model_not_found'],
    ['400 context length', fault.contextLengthExceeded(), OpenAI.BadRequestError, 'context_length_exceeded'],
  ] as const)('%s', async (_name, step, ErrorClass, code) => {
    const client = clientFor([step, step]);
    await expect(client.chat.completions.create(chat)).rejects.toSatisfy(
      (e) => e instanceof ErrorClass && e.code === code,
    );
    await expect(client.responses.create(responses)).rejects.toBeInstanceOf(ErrorClass);
  });

  it('a rate limit reads as OpenAI writes it: TPM wording, type tokens, retry-after and x-ratelimit-* headers', async () => {
    const client = clientFor([fault.rateLimit()]);
    const error = (await client.chat.completions.create(chat).catch((e) => e)) as InstanceType<
      typeof OpenAI.RateLimitError
    >;
    expect(error.error).toEqual({
      message:
        'Rate limit reached for gpt-4o in organization org-mock on tokens per min (TPM): Limit 30000, Used 29000, Requested 1500. Please try again in 11.054s. Visit https://platform.openai.com/account/rate-limits to learn more.',
      type: 'tokens',
      param: null,
      code: 'rate_limit_exceeded',
    });
    const headers: Record<string, string> = {};
    error.headers.forEach((value, name) => {
      headers[name] = value;
    });
    expect(headers).toMatchObject({
      'retry-after': '12',
      'x-ratelimit-limit-requests': '500',
      'x-ratelimit-limit-tokens': '30000',
      'x-ratelimit-remaining-requests': '499',
      'x-ratelimit-remaining-tokens': '1000',
      'x-ratelimit-reset-requests': '120ms',
      'x-ratelimit-reset-tokens': '11.054s',
    });
    expect(error.headers.get('retry-after-ms')).toBeNull();
  });
});

describe('the client retries as the headers say', () => {
  it('waits retry-after (12 s for "try again in 11.054s"), then retries', async () => {
    const sleeps = recordSleeps();
    const client = clientFor([fault.rateLimit(), reply.text('ok')], 1);
    expect((await client.chat.completions.create(chat)).choices[0]?.message.content).toBe('ok');
    expect(sleeps).toEqual([12_000]);
    expect(mock.requests).toHaveLength(2);
  });

  it("reads Azure's retry-after-ms before retry-after", async () => {
    const sleeps = recordSleeps();
    const client = clientFor([fault.rateLimit({ retryAfterMs: 1500 }), reply.text('ok')], 1);
    expect((await client.responses.create(responses)).output_text).toBe('ok');
    expect(sleeps).toEqual([1500]);
  });

  it.each([
    ['a rate limit without retry-after', fault.rateLimit({ retryAfterHeader: false })],
    [
      'insufficient_quota (no retry-after; the client retries although it cannot help)',
      fault.insufficientQuota(),
    ],
  ])('%s: its own backoff, 0.5 s less up to 25%% jitter', async (_name, step) => {
    const sleeps = recordSleeps();
    const client = clientFor([step, step], 1);
    expect(await client.chat.completions.create(chat).catch((e: unknown) => e)).toBeInstanceOf(
      OpenAI.RateLimitError,
    );
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThanOrEqual(375);
    expect(sleeps[0]).toBeLessThanOrEqual(500);
    expect(mock.requests).toHaveLength(2);
  });

  it("never retries the mock's own errors (x-should-retry: false): an exhausted script, an unknown route", async () => {
    const sleeps = recordSleeps();
    const client = clientFor([], 2);
    const exhausted = await client.chat.completions.create(chat).catch((e: unknown) => e);
    expect(exhausted).toBeInstanceOf(OpenAI.InternalServerError);
    expect((exhausted as InstanceType<typeof OpenAI.APIError>).code).toBe('mock_script_exhausted');
    expect(mock.requests).toHaveLength(1);
    const unknown = await client.models.list().catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(OpenAI.NotFoundError);
    expect((unknown as InstanceType<typeof OpenAI.APIError>).headers?.get('x-should-retry')).toBe('false');
    expect(sleeps).toEqual([]);
  });
});

describe('network errors', () => {
  it.each([
    ['reset', 'ECONNRESET'],
    ['refused', 'UND_ERR_SOCKET'],
    ['dns', 'UND_ERR_SOCKET'],
  ] as const)('%s over TCP: APIConnectionError (cause %s), retried with backoff', async (failure, code) => {
    const once = clientFor([fault.networkError({ failure })]);
    const error = await once.chat.completions.create(chat).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(causeCode(error)).toBe(code);
    const sleeps = recordSleeps();
    const client = clientFor([fault.networkError({ failure }), reply.text('ok')], 1);
    expect((await client.chat.completions.create(chat)).choices[0]?.message.content).toBe('ok');
    expect(sleeps).toHaveLength(1);
  });

  it('a truly refused connection (a closed port) is the same APIConnectionError, caused by ECONNREFUSED', async () => {
    const closed = await startMockServer({ script: [] });
    await closed.close();
    const client = new OpenAI({ baseURL: closed.urls.openai, apiKey: 'test', maxRetries: 0 });
    const error = await client.chat.completions.create(chat).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(causeCode(error)).toBe('ECONNREFUSED');
  });

  it('timeout: the server never answers; the client gives up with APIConnectionTimeoutError', async () => {
    const client = clientFor([fault.networkError({ failure: 'timeout' })]);
    const error = await client.chat.completions.create(chat, { timeout: 50 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    expect(mock.requests).toHaveLength(1);
  });

  describe('over MSW, refused and dns carry the system error undici raises', () => {
    const msw = setupServer();
    beforeAll(() => msw.listen({ onUnhandledFrame: 'error' }));
    afterAll(() => msw.close());

    it.each([
      ['refused', 'ECONNREFUSED'],
      ['dns', 'ENOTFOUND'],
    ] as const)(
      '%s: APIConnectionError caused by %s (MSW prints it as an unhandled exception)',
      async (failure, code) => {
        const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
        msw.use(...mockHandlers([fault.networkError({ failure })]));
        const client = new OpenAI({ apiKey: 'test', maxRetries: 0 });
        const error = await client.chat.completions.create(chat).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(OpenAI.APIConnectionError);
        expect(causeCode(error)).toBe(code);
        expect(printed).toHaveBeenCalled();
        msw.resetHandlers();
      },
    );
  });
});

describe('faults inside a stream', () => {
  it('a cut: the deltas before it arrive, then the iterator rejects', async () => {
    const client = clientFor([reply.text('Hello world', { fault: streamFault.cut({ afterChars: 5 }) })]);
    const stream = await client.chat.completions.create({ ...chat, stream: true });
    let text = '';
    await expect(
      (async () => {
        for await (const chunk of stream) text += chunk.choices[0]!.delta.content ?? '';
      })(),
    ).rejects.toThrow();
    expect(text).toBe('Hello');
  });

  it.each([
    ['rate_limit_exceeded', 'tokens'],
    ['context_length_exceeded', 'invalid_request_error'],
    ['insufficient_quota', 'insufficient_quota'],
  ] as const)(
    'responseFailed %s: the error event is thrown as an APIError (no status) on both APIs',
    async (code, type) => {
      const step = reply.text('Hello world', { fault: streamFault.responseFailed({ afterChars: 5, code }) });
      const client = clientFor([step, step]);
      const seen: string[] = [];
      const error = await (async () => {
        for await (const event of await client.responses.create({ ...responses, stream: true }))
          seen.push(event.type);
      })().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect(error).toMatchObject({ status: undefined, code, type });
      expect(seen).toContain('response.output_text.delta');
      const chatError = await (async () => {
        for await (const _chunk of await client.chat.completions.create({ ...chat, stream: true })) {
          // read on until the error chunk
        }
      })().catch((e: unknown) => e);
      expect(chatError).toMatchObject({ status: undefined, code, type });
    },
  );

  it('response.failed alone (errorEvent: false) is an event the loop must check, not an error', async () => {
    const client = clientFor([
      reply.text('Hello', {
        fault: streamFault.responseFailed({ afterChars: 0, code: 'rate_limit_exceeded', errorEvent: false }),
      }),
    ]);
    const events = [];
    for await (const event of await client.responses.create({ ...responses, stream: true }))
      events.push(event);
    expect(events.at(-1)).toMatchObject({
      type: 'response.failed',
      response: { status: 'failed', error: { code: 'rate_limit_exceeded' } },
    });
  });
});
