/**
 * The Gemini wire, driven through the real `@ai-sdk/google` provider with `generateText` and `streamText`, over
 * MSW and over the loopback server: answers, thoughts and thought signatures, function calls, every provider
 * error and stream fault as the SDK classifies them, request recording and the request helpers.
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

describe.each(transports)('Gemini over $name', (t) => {
  t.use();
  const start = async (steps: Step[]) => {
    const m = await t.start(steps);
    return { ...m, model: m.google('gemini-2.5-flash') as LanguageModel };
  };

  describe('answers', () => {
    it('text, non-streamed and streamed, with usage and the finish reason; the model is in the path', async () => {
      const step = reply.text('Hello world', { usage: { inputTokens: 7, outputTokens: 3 } });
      const { model, requests } = await start([step, step]);
      const generated = await generateText({ model, prompt: 'hi', maxRetries: 0 });
      expect(generated.text).toBe('Hello world');
      expect(generated.finishReason).toBe('stop');
      expect(generated.usage).toMatchObject({ inputTokens: 7, outputTokens: 3, totalTokens: 10 });
      expect(generated.response.modelId).toBe('gemini-2.5-flash');
      const streamed = await consume(model);
      expect(streamed.text).toEqual({ value: 'Hello world' });
      expect(streamed.deltas.filter((d) => d !== '')).toEqual(['Hell', 'o wo', 'rld']);
      expect(streamed.finishReason).toBe('stop');
      expect(requests.map((r) => [r.api, r.stream, r.path])).toEqual([
        ['generateContent', false, '/v1beta/models/gemini-2.5-flash:generateContent'],
        ['generateContent', true, '/v1beta/models/gemini-2.5-flash:streamGenerateContent'],
      ]);
    });

    it.each([
      ['length', 'length'],
      ['content_filter', 'content-filter'],
    ] as const)('finishReason %s arrives as %s (MAX_TOKENS / SAFETY)', async (finishReason, sdk) => {
      const step = reply.text('Hel', { finishReason });
      const { model } = await start([step, step]);
      expect((await generateText({ model, prompt: 'hi', maxRetries: 0 })).finishReason).toBe(sdk);
      expect((await consume(model)).finishReason).toBe(sdk);
    });

    it('thoughts arrive as reasoning; the thoughtSignature on the answer text, streamed and not', async () => {
      const step = reply.text('42', {
        reasoning: { text: 'Six times seven.', signature: 'EqsFsig' },
        usage: { outputTokens: 10 },
      });
      const { model } = await start([step, step]);
      const generated = await generateText({ model, prompt: 'hi', maxRetries: 0 });
      expect(generated.reasoningText).toBe('Six times seven.');
      expect(generated.content.find((part) => part.type === 'text')?.providerMetadata).toEqual({
        google: { thoughtSignature: 'EqsFsig' },
      });
      // Reasoning tokens are part of the output tokens: Gemini reports them as thoughtsTokenCount.
      expect(generated.usage).toMatchObject({ outputTokens: 10, outputTokenDetails: { reasoningTokens: 4 } });
      const streamed = await consume(model);
      expect(streamed.reasoning.join('')).toBe('Six times seven.');
      expect(streamed.text).toEqual({ value: '42' });
      const content = await streamed.result.content;
      expect(content.find((part) => part.type === 'text')?.providerMetadata).toEqual({
        google: { thoughtSignature: 'EqsFsig' },
      });
    });

    it('redacted reasoning is a signature without thoughts', async () => {
      const { model } = await start([reply.text('ok', { reasoning: { redacted: 'EmwKAhgB' } })]);
      const generated = await generateText({ model, prompt: 'hi', maxRetries: 0 });
      expect(generated.reasoning).toEqual([]);
      expect(generated.content).toEqual([
        { type: 'text', text: 'ok', providerMetadata: { google: { thoughtSignature: 'EmwKAhgB' } } },
      ]);
    });

    it('parallel function calls, the signature on the first; scripted ids are sent, else the SDK makes them', async () => {
      const calls = [
        { name: 'read_file', args: { path: 'notes/todo.txt' }, id: 'call_a' },
        { name: 'read_file', args: '{"path":"b.txt"}' },
      ];
      for (const stream of [false, true]) {
        const seen: string[] = [];
        const { model } = await start([
          reply.toolCalls(calls, { reasoning: 'Two files.' }),
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
        const toolCalls = steps[0]?.toolCalls ?? [];
        expect(toolCalls.map((c) => c.input)).toEqual([{ path: 'notes/todo.txt' }, { path: 'b.txt' }]);
        expect(toolCalls[0]?.toolCallId).toBe('call_a');
        expect(toolCalls[1]?.toolCallId).toMatch(/\S/);
        expect(toolCalls[0]?.providerMetadata).toEqual({ google: { thoughtSignature: 'sig_mock_1' } });
        expect(toolCalls[1]?.providerMetadata).toBeUndefined();
        expect(seen.sort()).toEqual(['b.txt', 'notes/todo.txt']);
        expect(await result.text).toBe('done');
      }
    });

    it('rawArgs cannot be sent on Gemini: HTTP 400 naming the step and why', async () => {
      const { model } = await start([reply.toolCalls([{ name: 'read_file', rawArgs: '{"path":' }])]);
      const error = await generateText({ model, prompt: 'hi', maxRetries: 2 }).catch((e: unknown) => e);
      expect(error).toMatchObject({
        statusCode: 400,
        isRetryable: false,
        message: expect.stringMatching(
          /^mock script step 0 \(toolCalls\): rawArgs .* cannot be sent on Gemini/,
        ),
        data: { error: { status: 'INVALID_ARGUMENT' } },
      });
      expect((error as APICallError).responseBody).toContain('"reason":"mock_unsupported_step"');
    });
  });

  describe('provider errors: real status and google.rpc body; generateText rejects, streamText emits an error part', () => {
    const cases: Array<[string, Step, { status: number; retryable: boolean; rpc: string; message: RegExp }]> =
      [
        [
          '429 RESOURCE_EXHAUSTED',
          fault.rateLimit(),
          { status: 429, retryable: true, rpc: 'RESOURCE_EXHAUSTED', message: /exceeded your current quota/ },
        ],
        [
          '429 daily quota',
          fault.insufficientQuota(),
          {
            status: 429,
            retryable: true,
            rpc: 'RESOURCE_EXHAUSTED',
            message: /check your plan and billing details/,
          },
        ],
        [
          '503 UNAVAILABLE',
          fault.overloaded(),
          { status: 503, retryable: true, rpc: 'UNAVAILABLE', message: /^The model is overloaded/ },
        ],
        [
          '500 INTERNAL',
          fault.serverError(),
          { status: 500, retryable: true, rpc: 'INTERNAL', message: /^An internal error has occurred/ },
        ],
        [
          '504 DEADLINE_EXCEEDED',
          fault.serverError(504),
          { status: 504, retryable: true, rpc: 'DEADLINE_EXCEEDED', message: /^Deadline expired/ },
        ],
        [
          'bad key: 400 API_KEY_INVALID',
          fault.unauthorized(),
          { status: 400, retryable: false, rpc: 'INVALID_ARGUMENT', message: /^API key not valid/ },
        ],
        [
          '403 PERMISSION_DENIED',
          fault.forbidden(),
          { status: 403, retryable: false, rpc: 'PERMISSION_DENIED', message: /permission/ },
        ],
        [
          '404 NOT_FOUND',
          fault.notFound(),
          {
            status: 404,
            retryable: false,
            rpc: 'NOT_FOUND',
            message: /^models\/gemini-2\.5-flash is not found for API version v1beta/,
          },
        ],
        [
          '400 input token count',
          fault.contextLengthExceeded({ requestedTokens: 1200293, maxTokens: 1048576 }),
          {
            status: 400,
            retryable: false,
            rpc: 'INVALID_ARGUMENT',
            message:
              /^The input token count \(1200293\) exceeds the maximum number of tokens allowed \(1048576\)\.$/,
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
      expect(error.data).toMatchObject({ error: { code: expected.status, status: expected.rpc } });
      const streamed = await consume(model);
      expect(streamed.errors).toHaveLength(1);
      expect((streamed.errors[0] as APICallError).statusCode).toBe(expected.status);
      expect(errorName((streamed.text as { error: unknown }).error)).toBe('AI_NoOutputGeneratedError');
    });

    it('429 carries a google.rpc.RetryInfo retryDelay (and no retry-after header)', async () => {
      const { model } = await start([
        fault.rateLimit({ retryAfterSeconds: 34 }),
        fault.rateLimit({ retryAfterMs: 34400 }),
      ]);
      for (const delay of ['34s', '34.4s']) {
        const error = (await generateText({ model, prompt: 'hi', maxRetries: 0 }).catch(
          (e) => e,
        )) as APICallError;
        expect(error.data).toMatchObject({
          error: {
            details: [
              { '@type': 'type.googleapis.com/google.rpc.QuotaFailure' },
              { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: delay },
            ],
          },
        });
        expect(error.responseHeaders?.['retry-after']).toBeUndefined();
      }
    });
  });

  describe('stream faults', () => {
    const text = 'Hello world!';

    it.each([0, 5])(
      'in-band {"error": …} chunk after %i characters: an error part (500, retryable)',
      async (afterChars) => {
        const { model } = await start([reply.text(text, { fault: streamFault.error({ afterChars }) })]);
        const streamed = await consume(model);
        expect(streamed.deltas.join('')).toBe(text.slice(0, afterChars));
        expect(streamed.errors).toHaveLength(1);
        expect(errorName(streamed.errors[0])).toBe('AI_StreamProviderError');
        expect(streamed.errors[0]).toMatchObject({ statusCode: 500, isRetryable: true, type: 'INTERNAL' });
        expect(streamed.text).toEqual({ value: text.slice(0, afterChars) });
        expect(streamed.finishReason).toBe('error');
      },
    );

    it('an in-band status sets the code: RESOURCE_EXHAUSTED is a retryable 429, INVALID_ARGUMENT a final 400', async () => {
      const { model } = await start([
        reply.text(text, { fault: streamFault.error({ afterChars: 5, code: 'RESOURCE_EXHAUSTED' }) }),
        reply.text(text, {
          fault: streamFault.error({ afterChars: 5, code: 'INVALID_ARGUMENT', message: 'bad' }),
        }),
      ]);
      expect((await consume(model)).errors[0]).toMatchObject({ statusCode: 429, isRetryable: true });
      expect((await consume(model)).errors[0]).toMatchObject({
        statusCode: 400,
        isRetryable: false,
        message: 'bad',
      });
    });

    it('cut before any byte: doStream fails, an error part, text rejects with NoOutputGeneratedError', async () => {
      const { model } = await start([reply.text(text, { fault: streamFault.cut({ afterChars: 0 }) })]);
      const streamed = await consume(model);
      expect(streamed.deltas).toEqual([]);
      expect(streamed.errors.map(errorName)).toEqual(['AI_APICallError']);
      expect(errorName((streamed.text as { error: unknown }).error)).toBe('AI_NoOutputGeneratedError');
    });

    it('cut after N characters: the deltas before it, then the stream iterator rejects', async () => {
      const { model } = await start([reply.text(text, { fault: streamFault.cut({ afterChars: 5 }) })]);
      const streamed = await consume(model);
      expect(streamed.deltas.join('')).toBe('Hello');
      expect(streamed.thrown).toMatchObject({ statusCode: 200, isRetryable: true });
    });

    it('a position counts thoughts first; a function call arrives whole (a position inside it falls after it)', async () => {
      const thinking = reply.text('42', {
        reasoning: 'Six times seven.',
        fault: streamFault.cut({ afterChars: 3 }),
      });
      const call = reply.toolCall(
        'read_file',
        { path: 'a.txt' },
        { fault: streamFault.endEarly({ afterChars: 3 }) },
      );
      const { model } = await start([thinking, call]);
      const streamed = await consume(model);
      expect(streamed.reasoning.join('')).toBe('Six');
      expect(streamed.deltas).toEqual([]);
      const result = streamText({ model, prompt: 'hi', maxRetries: 0, tools: { read_file: readFile() } });
      expect((await result.toolCalls).map((c) => c.input)).toEqual([{ path: 'a.txt' }]);
      expect(await result.finishReason).toBe('interrupted');
    });

    it('stall: output up to the stall, then nothing until the caller aborts', async () => {
      const { model } = await start([reply.text(text, { fault: streamFault.stall({ afterChars: 5 }) })]);
      const streamed = await consume(model, { abortAfter: 'Hello' });
      expect(streamed.deltas.join('')).toBe('Hello');
      expect(errorName((streamed.text as { error: unknown }).error)).toBe('AbortError');
    });

    it('end early without the finishReason chunk: the partial text, finishReason interrupted', async () => {
      const { model } = await start([reply.text(text, { fault: streamFault.endEarly({ afterChars: 5 }) })]);
      const streamed = await consume(model);
      expect(streamed.text).toEqual({ value: 'Hello' });
      expect(streamed.errors).toEqual([]);
      expect(streamed.finishReason).toBe('interrupted');
    });

    it('garbled chunk: an error part, the answer goes on', async () => {
      const { model } = await start([reply.text(text, { fault: streamFault.garbled({ afterChars: 5 }) })]);
      const streamed = await consume(model);
      expect(streamed.errors.map(errorName)).toEqual(['AI_JSONParseError']);
      expect(streamed.text).toEqual({ value: text });
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
    expect(await call()).toMatchObject({
      statusCode: 500,
      isRetryable: true,
      message: expect.stringMatching(/^An internal error has occurred/),
    });
  });

  describe('requests', () => {
    it('are recorded with api generateContent; the helpers read functionResponse (error), user text and tools', async () => {
      const m = await t.start({
        steps: [reply.toolCall('read_file', { path: 'todo.txt' }, { id: 'call_1' })],
        rest: (request) =>
          lastToolResults(request).some((r) => r.error !== undefined)
            ? reply.toolCall('read_file', { path: 'notes/todo.txt' }, { id: 'call_2' })
            : reply.text('done'),
      });
      const result = await generateText({
        model: m.google('gemini-2.5-flash'),
        prompt: 'Read my todo list',
        maxRetries: 0,
        tools: { read_file: readFile() },
        stopWhen: isStepCount(5),
      });
      expect(result.text).toBe('done');
      const { requests } = m;
      expect(requests).toHaveLength(3);
      expect(requests[0]).toMatchObject({
        method: 'POST',
        api: 'generateContent',
        stream: false,
        headers: { 'x-goog-api-key': 'sk-test' },
      });
      expect(lastUserText(requests[0]!)).toBe('Read my todo list');
      expect(lastUserText(requests[2]!)).toBe('Read my todo list');
      expect(offeredToolNames(requests[0]!)).toEqual(['read_file']);
      expect(lastToolResults(requests[0]!)).toEqual([]);
      expect(lastToolResults(requests[1]!)).toEqual([
        {
          toolName: 'read_file',
          toolCallId: 'call_1',
          output: "Error: ENOENT: no such file 'todo.txt'",
          error: "Error: ENOENT: no such file 'todo.txt'",
        },
      ]);
      expect(lastToolResults(requests[2]!)).toEqual([
        { toolName: 'read_file', toolCallId: 'call_2', output: 'buy milk' },
      ]);
    });
  });
});
