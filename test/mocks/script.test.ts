/** Bad-input rules of the fault kit: construction errors, exhausted scripts, unparseable requests. */
import { createOpenAI } from '@ai-sdk/openai';
import { generateText } from 'ai';
import { describe, expect, it } from 'vitest';
import { fault, reply, type Step, startMockServer, streamFault } from '../../mocks/index.js';
import { mockHandlers } from '../../mocks/msw.js';
import { transports } from './harness.js';

describe('steps are validated at construction', () => {
  it.each<[string, () => unknown, RegExp]>([
    [
      'negative delay',
      () => reply.text('x', { delayMs: -1 }),
      /^reply\.text: option 'delayMs' must be a number of ms in \[0, 2147483647\]; got -1\.$/,
    ],
    [
      'negative frame delay',
      () => reply.text('x', { frameDelayMs: -5 }),
      /^reply\.text: option 'frameDelayMs' must be a number of ms in \[0, 2147483647\]; got -5\.$/,
    ],
    [
      'zero chunk size',
      () => reply.text('x', { chunkChars: 0 }),
      /^reply\.text: option 'chunkChars' must be an integer ≥ 1; got 0\.$/,
    ],
    [
      'negative fault position',
      () => reply.text('x', { fault: streamFault.stall({ afterChars: -1 }) }),
      /^streamFault\.stall: option 'afterChars' must be an integer ≥ 0; got -1\.$/,
    ],
    [
      'negative fault position in a hand-written fault',
      () => reply.text('x', { fault: { kind: 'stall', afterChars: -1 } }),
      /^reply\.text: option 'fault\.afterChars' must be an integer ≥ 0; got -1\.$/,
    ],
    [
      'bad HTTP status',
      () => fault.http(99, {}),
      /^fault\.http: option 'status' must be an integer HTTP status in \[200, 599\]; got 99\.$/,
    ],
    [
      'negative delay on a fault',
      () => fault.networkError({ delayMs: -1 }),
      /^fault\.networkError: option 'delayMs' must be a number of ms in \[0, 2147483647\]; got -1\.$/,
    ],
  ])('%s → RangeError naming the builder and the field', (_name, build, message) => {
    expect(build).toThrow(RangeError);
    expect(build).toThrow(message);
  });

  it.each<[string, () => unknown, RegExp]>([
    [
      'unknown finish reason',
      () => reply.text('x', { finishReason: 'done' as never }),
      /finishReason must be one of/,
    ],
    [
      'non-JSON tool args text',
      () => reply.toolCall('a', '{"path":'),
      /calls\[0\]\.args is a string but not JSON text/,
    ],
    [
      'non-serialisable tool args',
      () => reply.toolCall('a', { when: new Date() }),
      /calls\[0\]\.args must be JSON-serialisable/,
    ],
    [
      'NaN in tool args',
      () => reply.toolCall('a', { n: Number.NaN }),
      /calls\[0\]\.args must be JSON-serialisable/,
    ],
    ['empty tool name', () => reply.toolCalls([{ name: '' }]), /calls\[0\]\.name must be a non-empty string/],
    ['no tool calls', () => reply.toolCalls([]), /calls must be a non-empty array/],
    [
      'cut with two positions',
      () => reply.text('x', { fault: { kind: 'cut', afterChars: 1, afterFrames: 1 } }),
      /exactly one of/,
    ],
    [
      'unknown error format',
      () => reply.text('x', { fault: streamFault.error({ afterChars: 0, format: 'x' as never }) }),
      /^streamFault\.error: format must be one of/,
    ],
    [
      'unknown error format in a hand-written fault',
      () => reply.text('x', { fault: { kind: 'error', afterChars: 0, format: 'x' as never } }),
      /^reply\.text: fault\.format must be one of/,
    ],
    [
      'reasoning of another type',
      () => reply.text('x', { reasoning: 5 as never }),
      /^reply\.text: reasoning must be a string/,
    ],
    [
      'reasoning without text',
      () => reply.text('x', { reasoning: { signature: 's' } as never }),
      /^reply\.text: reasoning\.text must be a string$/,
    ],
    [
      'an empty signature',
      () => reply.toolCall('a', {}, { reasoning: { text: 'x', signature: '' } }),
      /^reply\.toolCall: reasoning\.signature must be a non-empty string$/,
    ],
    [
      'redacted and text at once',
      () => reply.text('x', { reasoning: { redacted: 'd', text: 'x' } as never }),
      /^reply\.text: reasoning give text \(and signature\) or redacted, not both$/,
    ],
    [
      'an empty redacted reasoning',
      () => reply.text('x', { reasoning: { redacted: '' } }),
      /^reply\.text: reasoning\.redacted must be a non-empty string$/,
    ],
    [
      'an unknown provider error',
      () => mockHandlers([{ kind: 'apiError', error: 'teapot' } as never]),
      /^mock script step 0 \(apiError\): error must be one of rateLimit, .*, got "teapot"$/,
    ],
    [
      'a provider error with a text field of another type',
      () => mockHandlers([{ kind: 'apiError', error: 'notFound', model: 4 } as never]),
      /^mock script step 0 \(apiError\): model must be a string$/,
    ],
    [
      'an html flag of another type',
      () => mockHandlers([{ kind: 'apiError', error: 'serverError', status: 502, html: 'yes' } as never]),
      /^mock script step 0 \(apiError\): html must be a boolean$/,
    ],
  ])('%s → TypeError naming the field', (_name, build, message) => {
    expect(build).toThrow(TypeError);
    expect(build).toThrow(message);
  });

  it('a hand-written script names the step index and the field', () => {
    const steps = [reply.text('ok'), { kind: 'text', text: 'x', delayMs: -1 }] as Step[];
    expect(() => mockHandlers(steps)).toThrow(RangeError);
    expect(() => mockHandlers(steps)).toThrow(
      /^mock script step 1 \(text\): option 'delayMs' must be a number of ms in \[0, 2147483647\]; got -1\.$/,
    );
    expect(() => mockHandlers([{ kind: 'sing' } as unknown as Step])).toThrow(
      /mock script step 0 \(sing\): kind must be one of text, toolCalls, http, networkError/,
    );
  });

  it('a loopback server refuses an invalid script before listening', async () => {
    await expect(startMockServer({ script: [{ kind: 'text' } as Step] })).rejects.toThrow(
      /step 0 \(text\): text must be a string/,
    );
  });
});

describe.each(transports)('request-time rules over $name', (t) => {
  t.use();

  it('a request with no step gets HTTP 500 "mock script exhausted after N requests"', async () => {
    const { openai, requests } = await t.start([reply.text('one')]);
    const model = openai.chat('gpt-4o');
    await generateText({ model, prompt: 'hi', maxRetries: 0 });
    const error = await generateText({ model, prompt: 'hi', maxRetries: 0 }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      statusCode: 500,
      message: expect.stringMatching(/^mock script exhausted after 1 requests/),
    });
    expect(requests).toHaveLength(2);
  });

  it('a script function that returns nothing exhausts the script; an invalid step it returns is a 500', async () => {
    const { openai } = await t.start((_request, { index }) =>
      index === 0 ? ({ kind: 'text', text: 1 } as unknown as Step) : undefined,
    );
    const model = openai.responses('gpt-4o');
    await expect(generateText({ model, prompt: 'hi', maxRetries: 0 })).rejects.toMatchObject({
      statusCode: 500,
      message: expect.stringMatching(/step 0 \(from the script function\) \(text\): text must be a string/),
    });
    await expect(generateText({ model, prompt: 'hi', maxRetries: 0 })).rejects.toMatchObject({
      message: expect.stringMatching(/^mock script exhausted after 1 requests/),
    });
  });
});

describe('unparseable requests get HTTP 400 with a JSON error', () => {
  it('over the loopback server (and unknown paths get 404)', async () => {
    const mock = await startMockServer({ script: [reply.text('never used')] });
    try {
      const response = await fetch(`${mock.urls.openai}/chat/completions`, {
        method: 'POST',
        body: '{not json',
      });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('mock_unparseable_request');
      expect(body.error.message).toMatch(/^mock could not parse the request body/);
      expect(mock.requests).toMatchObject([{ api: 'chat', body: undefined, stream: false }]);
      expect((await fetch(`${mock.urls.openai}/models`)).status).toBe(404);
      // The unparseable request did not use up the step.
      const openai = createOpenAI({ apiKey: 'k', baseURL: mock.urls.openai });
      expect((await generateText({ model: openai.chat('m'), prompt: 'hi', maxRetries: 0 })).text).toBe(
        'never used',
      );
    } finally {
      await mock.close();
    }
  });
});

describe('the loopback server', () => {
  it('setScript replaces the script and clears the recorded requests in place', async () => {
    const mock = await startMockServer({ script: [reply.text('first')] });
    try {
      const model = createOpenAI({ apiKey: 'k', baseURL: mock.urls.openai }).chat('m');
      await generateText({ model, prompt: 'hi', maxRetries: 0 });
      const requests = mock.requests;
      mock.setScript([reply.text('second')]);
      expect(requests).toHaveLength(0);
      expect((await generateText({ model, prompt: 'hi', maxRetries: 0 })).text).toBe('second');
      expect(requests).toHaveLength(1);
    } finally {
      await mock.close();
    }
  });

  it('stamps requests and answers with the injected clock', async () => {
    const mock = await startMockServer({
      script: [reply.text('x')],
      clock: { now: () => 1_700_000_000_500 },
    });
    try {
      const model = createOpenAI({ apiKey: 'k', baseURL: mock.urls.openai }).chat('m');
      const result = await generateText({ model, prompt: 'hi', maxRetries: 0 });
      expect(mock.requests[0]?.time).toBe(1_700_000_000_500);
      expect(result.response.timestamp).toEqual(new Date(1_700_000_000_000));
    } finally {
      await mock.close();
    }
  });

  it('close() ends a stalled stream instead of waiting for it', async () => {
    const mock = await startMockServer({
      script: [reply.text('Hello', { fault: streamFault.stall({ afterChars: 2 }) })],
    });
    const response = await fetch(`${mock.urls.openai}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', stream: true, messages: [] }),
    });
    const reader = response.body!.getReader();
    await reader.read();
    await mock.close();
    await expect(
      (async () => {
        while (!(await reader.read()).done);
      })(),
    ).rejects.toThrow();
  });
});
