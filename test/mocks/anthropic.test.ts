/**
 * The Anthropic Messages wire, driven through the real `@ai-sdk/anthropic` provider with `generateText` and
 * `streamText`, over MSW and over the loopback server: answers, thinking, tool calls, every provider error and
 * stream fault as the SDK classifies them, request recording and the request helpers.
 */
import { APICallError, generateText, isStepCount, type LanguageModel, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import {
  fault,
  lastToolResults,
  lastUserText,
  offeredToolNames,
  reply,
  type Step,
  streamFault,
} from '../../mocks/index.js';
import { consume, errorName } from './consume.js';
import { transports } from './harness.js';
import { readFile } from './read-file-tool.js';

describe.each(transports)('Anthropic Messages over $name', (t) => {
  t.use();
  const start = async (steps: Step[]) => {
    const m = await t.start(steps);
    return { ...m, model: m.anthropic('claude-sonnet-4-5') as LanguageModel };
  };

  describe('answers', () => {
    it('text, non-streamed and streamed, with usage, the finish reason and the message id', async () => {
      const step = reply.text('Hello world', { usage: { inputTokens: 7, outputTokens: 3 } });
      const { model, requests } = await start([step, step]);
      const generated = await generateText({ model, prompt: 'hi', maxRetries: 0 });
      expect(generated.text).toBe('Hello world');
      expect(generated.finishReason).toBe('stop');
      expect(generated.usage).toMatchObject({ inputTokens: 7, outputTokens: 3, totalTokens: 10 });
      expect(generated.response.id).toBe('msg_mock_1');
      const streamed = await consume(model);
      expect(streamed.text).toEqual({ value: 'Hello world' });
      expect(streamed.deltas).toEqual(['Hell', 'o wo', 'rld']);
      expect(streamed.finishReason).toBe('stop');
      expect((await streamed.result.usage).outputTokens).toBe(3);
      expect(requests.map((r) => [r.api, r.stream, r.path])).toEqual([
        ['messages', false, '/v1/messages'],
        ['messages', true, '/v1/messages'],
      ]);
    });

    it.each([
      ['length', 'length'],
      ['content_filter', 'content-filter'],
    ] as const)('finishReason %s arrives as %s (max_tokens / refusal)', async (finishReason, sdk) => {
      const step = reply.text('Hel', { finishReason });
      const { model } = await start([step, step]);
      expect((await generateText({ model, prompt: 'hi', maxRetries: 0 })).finishReason).toBe(sdk);
      expect((await consume(model)).finishReason).toBe(sdk);
    });

    it('thinking with its signature reaches providerMetadata.anthropic.signature, streamed and not', async () => {
      const step = reply.text('42', { reasoning: { text: 'Six times seven.', signature: 'EqQBsig' } });
      const { model } = await start([step, step]);
      const generated = await generateText({ model, prompt: 'hi', maxRetries: 0 });
      expect(generated.reasoning).toEqual([
        expect.objectContaining({
          text: 'Six times seven.',
          providerMetadata: { anthropic: { signature: 'EqQBsig' } },
        }),
      ]);
      const streamed = await consume(model);
      expect(streamed.reasoning.join('')).toBe('Six times seven.');
      const [reasoning] = await streamed.result.reasoning;
      expect(reasoning).toMatchObject({
        text: 'Six times seven.',
        providerMetadata: { anthropic: { signature: 'EqQBsig' } },
      });
      expect(streamed.text).toEqual({ value: '42' });
    });

    it('a reasoning string gets the default signature sig_mock_<request>', async () => {
      const { model } = await start([reply.text('ok', { reasoning: 'Hmm.' })]);
      const { reasoning } = await generateText({ model, prompt: 'hi', maxRetries: 0 });
      expect(reasoning[0]?.providerMetadata).toEqual({ anthropic: { signature: 'sig_mock_1' } });
    });

    it('redacted thinking reaches providerMetadata.anthropic.redactedData, streamed and not', async () => {
      const step = reply.text('ok', { reasoning: { redacted: 'EmwKAhgBEgy3va' } });
      const { model } = await start([step, step]);
      const generated = await generateText({ model, prompt: 'hi', maxRetries: 0 });
      expect(generated.reasoning[0]?.providerMetadata).toEqual({
        anthropic: { redactedData: 'EmwKAhgBEgy3va' },
      });
      const streamed = await consume(model);
      expect((await streamed.result.reasoning)[0]?.providerMetadata).toEqual({
        anthropic: { redactedData: 'EmwKAhgBEgy3va' },
      });
    });

    it('parallel tool calls with toolu_ ids, after text and thinking, then an answer', async () => {
      const calls = [
        { name: 'read_file', args: { path: 'notes/todo.txt' }, id: 'toolu_a' },
        { name: 'read_file', args: '{"path":"b.txt"}' },
      ];
      for (const stream of [false, true]) {
        const seen: string[] = [];
        const { model } = await start([
          reply.toolCalls(calls, { text: 'Reading.', reasoning: 'Two files.' }),
          reply.text('done'),
        ]);
        const options = {
          model,
          prompt: 'hi',
          maxRetries: 0,
          tools: { read_file: readFile(seen) },
          stopWhen: isStepCount(2),
        };
        const result = stream ? streamText(options) : await generateText(options);
        const steps = await result.steps;
        expect(steps[0]?.finishReason).toBe('tool-calls');
        expect(steps[0]?.text).toBe('Reading.');
        expect(steps[0]?.toolCalls.map((c) => [c.toolCallId, c.input])).toEqual([
          ['toolu_a', { path: 'notes/todo.txt' }],
          ['toolu_mock_1_1', { path: 'b.txt' }],
        ]);
        expect(seen.sort()).toEqual(['b.txt', 'notes/todo.txt']);
        expect(await result.text).toBe('done');
      }
    });

    it('malformed arguments (rawArgs) stream as input_json_delta: the SDK reports an invalid tool call', async () => {
      const { model } = await start([reply.toolCalls([{ name: 'read_file', rawArgs: '{"path":' }])]);
      const result = streamText({ model, prompt: 'hi', maxRetries: 0, tools: { read_file: readFile() } });
      const content = await result.content;
      expect(content.find((part) => part.type === 'tool-call')).toMatchObject({
        toolName: 'read_file',
        invalid: true,
      });
    });

    it('rawArgs on a non-streamed request: HTTP 400 naming the step and why (not retried)', async () => {
      const { model } = await start([reply.toolCalls([{ name: 'read_file', rawArgs: '{"path":' }])]);
      const error = await generateText({
        model,
        prompt: 'hi',
        maxRetries: 2,
        tools: { read_file: readFile() },
      }).catch((e: unknown) => e);
      expect(error).toMatchObject({
        statusCode: 400,
        isRetryable: false,
        message: expect.stringMatching(
          /^mock script step 0 \(toolCalls\): rawArgs .* can only be streamed on Anthropic/,
        ),
        data: { error: { type: 'mock_unsupported_step' } },
      });
    });
  });

  describe('provider errors: real status, body and headers; generateText rejects, streamText emits an error part', () => {
    const cases: Array<
      [string, Step, { status: number; retryable: boolean; type: string; message: RegExp }]
    > = [
      [
        '429 rate limit',
        fault.rateLimit(),
        {
          status: 429,
          retryable: true,
          type: 'rate_limit_error',
          message: /^This request would exceed the rate limit/,
        },
      ],
      [
        '529 overloaded',
        fault.overloaded(),
        { status: 529, retryable: true, type: 'overloaded_error', message: /^Overloaded$/ },
      ],
      [
        '500 api_error',
        fault.serverError(),
        { status: 500, retryable: true, type: 'api_error', message: /^Internal server error$/ },
      ],
      [
        '400 credit balance',
        fault.insufficientQuota(),
        {
          status: 400,
          retryable: false,
          type: 'invalid_request_error',
          message: /^Your credit balance is too low/,
        },
      ],
      [
        '401',
        fault.unauthorized(),
        { status: 401, retryable: false, type: 'authentication_error', message: /^invalid x-api-key$/ },
      ],
      [
        '403',
        fault.forbidden(),
        { status: 403, retryable: false, type: 'permission_error', message: /permission/ },
      ],
      [
        '404',
        fault.notFound(),
        { status: 404, retryable: false, type: 'not_found_error', message: /^model: claude-sonnet-4-5$/ },
      ],
      [
        '400 prompt too long',
        fault.contextLengthExceeded({ requestedTokens: 208656, maxTokens: 200000 }),
        {
          status: 400,
          retryable: false,
          type: 'invalid_request_error',
          message: /^prompt is too long: 208656 tokens > 200000 maximum$/,
        },
      ],
    ];
    it.each(cases)('%s', async (_name, step, expected) => {
      const { model } = await start([step, step]);
      const error = (await generateText({ model, prompt: 'hi', maxRetries: 0 }).catch(
        (e: unknown) => e,
      )) as APICallError;
      expect(APICallError.isInstance(error)).toBe(true);
      expect(error.statusCode).toBe(expected.status);
      expect(error.isRetryable).toBe(expected.retryable);
      expect(error.message).toMatch(expected.message);
      expect(error.data).toMatchObject({ type: 'error', error: { type: expected.type } });
      expect(JSON.parse(error.responseBody ?? '')).toMatchObject({ request_id: 'req_mock_1' });
      expect(error.responseHeaders).toMatchObject({ 'request-id': 'req_mock_1' });
      const streamed = await consume(model);
      expect(streamed.errors).toHaveLength(1);
      expect((streamed.errors[0] as APICallError).statusCode).toBe(expected.status);
      expect(errorName((streamed.text as { error: unknown }).error)).toBe('AI_NoOutputGeneratedError');
    });

    it('429 carries retry-after and the anthropic-ratelimit-* headers; the SDK waits and retries', async () => {
      const clockMs = Date.now();
      const { model, requests } = await start([fault.rateLimit({ retryAfterSeconds: 0 }), reply.text('ok')]);
      expect((await generateText({ model, prompt: 'hi', maxRetries: 1 })).text).toBe('ok');
      expect(requests).toHaveLength(2);
      const { model: limited } = await start([fault.rateLimit({ retryAfterSeconds: 30 })]);
      const error = (await generateText({ model: limited, prompt: 'hi', maxRetries: 0 }).catch(
        (e) => e,
      )) as APICallError;
      const headers = error.responseHeaders ?? {};
      expect(headers).toMatchObject({
        'retry-after': '30',
        'anthropic-ratelimit-requests-limit': '50',
        'anthropic-ratelimit-requests-remaining': '0',
      });
      for (const budget of ['requests', 'tokens', 'input-tokens', 'output-tokens']) {
        const reset = headers[`anthropic-ratelimit-${budget}-reset`] ?? '';
        expect(reset).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        expect(Date.parse(reset)).toBeGreaterThanOrEqual(Math.floor(clockMs / 1000) * 1000 + 30_000);
      }
    });

    it('a proxy HTML page (502) reaches the SDK as the status text', async () => {
      const { model } = await start([fault.serverError(502, { html: true })]);
      await expect(generateText({ model, prompt: 'hi', maxRetries: 0 })).rejects.toMatchObject({
        statusCode: 502,
        isRetryable: true,
        message: 'Bad Gateway',
      });
    });
  });

  describe('stream faults', () => {
    const text = 'Hello world!';

    it('in-band overloaded_error right after message_start: an error part (529, retryable), text resolves empty', async () => {
      const { model } = await start([reply.text(text, { fault: streamFault.error({ afterChars: 0 }) })]);
      const streamed = await consume(model);
      expect(streamed.deltas).toEqual([]);
      expect(streamed.errors).toHaveLength(1);
      expect(errorName(streamed.errors[0])).toBe('AI_StreamProviderError');
      expect(streamed.errors[0]).toMatchObject({
        message: 'Overloaded',
        statusCode: 529,
        isRetryable: true,
        type: 'overloaded_error',
      });
      expect(streamed.text).toEqual({ value: '' });
      expect(streamed.finishReason).toBe('error');
    });

    it('in-band error after output: an error part after the deltas, text resolves partial', async () => {
      const step = reply.text(text, { fault: streamFault.error({ afterChars: 5, code: 'api_error' }) });
      const { model } = await start([step]);
      const streamed = await consume(model);
      expect(streamed.deltas.join('')).toBe('Hello');
      expect(streamed.errors[0]).toMatchObject({
        message: 'Internal server error',
        statusCode: 500,
        isRetryable: true,
      });
      expect(streamed.text).toEqual({ value: 'Hello' });
    });

    it('cut after N characters: the deltas before it, then the stream iterator rejects', async () => {
      const { model } = await start([reply.text(text, { fault: streamFault.cut({ afterChars: 5 }) })]);
      const streamed = await consume(model);
      expect(streamed.deltas.join('')).toBe('Hello');
      expect(APICallError.isInstance(streamed.thrown)).toBe(true);
      expect(streamed.thrown).toMatchObject({ statusCode: 200, isRetryable: true });
    });

    it('a position counts thinking first: a cut inside the thinking leaves no text and no signature', async () => {
      const step = reply.text('42', {
        reasoning: 'Six times seven.',
        fault: streamFault.cut({ afterChars: 3 }),
      });
      const { model } = await start([step]);
      const streamed = await consume(model);
      expect(streamed.reasoning.join('')).toBe('Six');
      expect(streamed.deltas).toEqual([]);
      expect(streamed.thrown).toMatchObject({ statusCode: 200 });
    });

    it.each([
      ['afterChars: 0', streamFault.cut({ afterChars: 0 })],
      ['afterFrames: 1', streamFault.cut({ afterFrames: 1 })],
    ])('cut right after message_start (%s): no output, the stream iterator rejects', async (_n, cut) => {
      const { model } = await start([reply.text(text, { fault: cut })]);
      const streamed = await consume(model);
      expect(streamed.deltas).toEqual([]);
      expect(streamed.errors).toEqual([]);
      expect(APICallError.isInstance(streamed.thrown)).toBe(true);
      expect(streamed.thrown).toMatchObject({ statusCode: 200, isRetryable: true });
      expect((streamed.text as { error: unknown }).error).toBe(streamed.thrown);
    });

    it('stall: output up to the stall, then nothing until the caller aborts', async () => {
      const { model } = await start([reply.text(text, { fault: streamFault.stall({ afterChars: 5 }) })]);
      const streamed = await consume(model, { abortAfter: 'Hello' });
      expect(streamed.deltas.join('')).toBe('Hello');
      expect(errorName((streamed.text as { error: unknown }).error)).toBe('AbortError');
    });

    it('end early without message_delta and message_stop: the partial text, finishReason interrupted', async () => {
      const { model } = await start([reply.text(text, { fault: streamFault.endEarly({ afterChars: 5 }) })]);
      const streamed = await consume(model);
      expect(streamed.text).toEqual({ value: 'Hello' });
      expect(streamed.errors).toEqual([]);
      expect(streamed.finishReason).toBe('interrupted');
    });

    it('garbled frame: an error part, the answer goes on', async () => {
      const { model } = await start([reply.text(text, { fault: streamFault.garbled({ afterChars: 5 }) })]);
      const streamed = await consume(model);
      expect(streamed.errors.map(errorName)).toEqual(['AI_JSONParseError']);
      expect(streamed.text).toEqual({ value: text });
    });

    it('a cut inside tool arguments: tool-input parts but no tool-call', async () => {
      const step = reply.toolCall(
        'read_file',
        { path: 'a.txt' },
        { fault: streamFault.cut({ afterChars: 3 }) },
      );
      const { model } = await start([step]);
      const result = streamText({
        model,
        prompt: 'hi',
        maxRetries: 0,
        tools: { read_file: readFile() },
        onError: () => {},
      });
      const types: string[] = [];
      await expect(
        (async () => {
          for await (const part of result.fullStream) types.push(part.type);
        })(),
      ).rejects.toMatchObject({ statusCode: 200 });
      expect(types).toContain('tool-input-start');
      expect(types).not.toContain('tool-call');
    });
  });

  it('stream faults on a non-streamed request: half a body, or the HTTP error the in-band error stands for', async () => {
    const text = 'Hello world!';
    const { model } = await start([
      reply.text(text, { fault: streamFault.cut({ afterChars: 5 }) }),
      reply.text(text, { fault: streamFault.endEarly({ afterChars: 5 }) }),
      reply.text(text, { fault: streamFault.error({ afterChars: 5 }) }),
    ]);
    const call = () => generateText({ model, prompt: 'hi', maxRetries: 0 }).catch((e: unknown) => e);
    expect(await call()).toMatchObject({
      statusCode: 200,
      isRetryable: true,
      message: 'Failed to process successful response',
    });
    expect(await call()).toMatchObject({
      statusCode: 200,
      isRetryable: false,
      message: 'Invalid JSON response',
    });
    expect(await call()).toMatchObject({ statusCode: 529, isRetryable: true, message: 'Overloaded' });
  });

  describe('requests', () => {
    it('are recorded with api messages; the helpers read tool_result (is_error), user text and offered tools', async () => {
      const { model, requests } = await t
        .start({
          steps: [reply.toolCall('read_file', { path: 'todo.txt' })],
          rest: (request) =>
            lastToolResults(request).some((r) => r.error !== undefined)
              ? reply.toolCall('read_file', { path: 'notes/todo.txt' })
              : reply.text('done'),
        })
        .then((m) => ({ ...m, model: m.anthropic('claude-sonnet-4-5') }));
      const result = await generateText({
        model,
        prompt: 'Read my todo list',
        maxRetries: 0,
        tools: { read_file: readFile() },
        stopWhen: isStepCount(5),
      });
      expect(result.text).toBe('done');
      expect(requests).toHaveLength(3);
      expect(requests[0]).toMatchObject({
        method: 'POST',
        path: '/v1/messages',
        api: 'messages',
        stream: false,
        body: { model: 'claude-sonnet-4-5' },
        headers: { 'x-api-key': 'sk-test', 'anthropic-version': '2023-06-01' },
      });
      expect(lastUserText(requests[0]!)).toBe('Read my todo list');
      expect(lastUserText(requests[2]!)).toBe('Read my todo list');
      expect(offeredToolNames(requests[0]!)).toEqual(['read_file']);
      expect(lastToolResults(requests[0]!)).toEqual([]);
      expect(lastToolResults(requests[1]!)).toEqual([
        {
          toolName: 'read_file',
          toolCallId: 'toolu_mock_1_0',
          output: "Error: ENOENT: no such file 'todo.txt'",
          error: "Error: ENOENT: no such file 'todo.txt'",
        },
      ]);
      expect(lastToolResults(requests[2]!)).toEqual([
        { toolName: 'read_file', toolCallId: 'toolu_mock_2_0', output: 'buy milk' },
      ]);
    });
  });
});
