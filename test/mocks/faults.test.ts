/**
 * Every step kind and fault of the kit, driven through the real `@ai-sdk/openai` provider (chat and
 * responses) with `generateText` and `streamText`, over MSW and over the loopback server. The assertions
 * document what the AI SDK observes (see docs/testing.md for the table).
 */
import { APICallError, generateText, isStepCount, type LanguageModel, streamText, tool } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { fault, type NetworkFailure, reply, type Step, streamFault } from '../../mocks/index.js';
import { causeCode, consume, errorName } from './consume.js';
import { type Mocked, transports } from './harness.js';

const apis = ['chat', 'responses'] as const;
type ApiName = (typeof apis)[number];
const modelOf = (m: Mocked, api: ApiName): LanguageModel =>
  api === 'chat' ? m.openai.chat('gpt-4o') : m.openai.responses('gpt-4o');

describe.each(transports)('fault kit over $name', (t) => {
  t.use();

  describe.each(apis)('%s API', (api) => {
    const start = async (steps: Step[]) => {
      const m = await t.start(steps);
      return { ...m, model: modelOf(m, api) };
    };

    describe('answers', () => {
      it('text, non-streamed and streamed, with usage and the finish reason', async () => {
        const step = reply.text('Hello world', { usage: { inputTokens: 7, outputTokens: 3 } });
        const { model, requests } = await start([step, step]);
        const generated = await generateText({ model, prompt: 'hi', maxRetries: 0 });
        expect(generated.text).toBe('Hello world');
        expect(generated.finishReason).toBe('stop');
        expect(generated.usage).toMatchObject({ inputTokens: 7, outputTokens: 3, totalTokens: 10 });
        const streamed = await consume(model);
        expect(streamed.text).toEqual({ value: 'Hello world' });
        expect(streamed.finishReason).toBe('stop');
        expect(requests.map((r) => [r.api, r.stream])).toEqual([
          [api, false],
          [api, true],
        ]);
      });

      it('streamed usage reaches the SDK (chat: @ai-sdk/openai asks for the usage chunk with include_usage)', async () => {
        const { model, requests } = await start([
          reply.text('Hello world', { usage: { inputTokens: 7, outputTokens: 3 } }),
        ]);
        const result = streamText({ model, prompt: 'hi', maxRetries: 0 });
        expect(await result.usage).toMatchObject({ inputTokens: 7, outputTokens: 3, totalTokens: 10 });
        if (api === 'chat') {
          expect(requests[0]?.body).toMatchObject({ stream_options: { include_usage: true } });
        }
      });

      it('splits streamed text into chunkChars-sized deltas', async () => {
        const { model } = await start([reply.text('Hello', { chunkChars: 2 })]);
        expect((await consume(model)).deltas).toEqual(['He', 'll', 'o']);
      });

      it('reports finishReason length', async () => {
        const step = reply.text('Hel', { finishReason: 'length' });
        const { model } = await start([step, step]);
        expect((await generateText({ model, prompt: 'hi', maxRetries: 0 })).finishReason).toBe('length');
        expect((await consume(model)).finishReason).toBe('length');
      });

      it('calls several tools in parallel with JSON arguments and given ids, then answers', async () => {
        const calls = [
          { name: 'read_file', args: { path: 'a.txt' }, id: 'call_a' },
          { name: 'read_file', args: '{"path":"b.txt"}' },
        ];
        const seen: string[] = [];
        const tools = {
          read_file: tool({
            inputSchema: z.object({ path: z.string() }),
            execute: async ({ path }) => {
              seen.push(path);
              return `contents of ${path}`;
            },
          }),
        };
        for (const stream of [false, true]) {
          seen.length = 0;
          const { model } = await start([reply.toolCalls(calls), reply.text('done')]);
          const options = { model, prompt: 'hi', maxRetries: 0, tools, stopWhen: isStepCount(2) };
          const result = stream ? streamText(options) : await generateText(options);
          const steps = await result.steps;
          expect(steps[0]?.finishReason).toBe('tool-calls');
          expect(steps[0]?.toolCalls.map((c) => [c.toolCallId, c.input])).toEqual([
            ['call_a', { path: 'a.txt' }],
            ['call_mock_1_1', { path: 'b.txt' }],
          ]);
          expect(seen.sort()).toEqual(['a.txt', 'b.txt']);
          expect(await result.text).toBe('done');
        }
      });

      it('sends malformed arguments (rawArgs) verbatim: the SDK reports an invalid tool call', async () => {
        const { model } = await start([reply.toolCalls([{ name: 'read_file', rawArgs: '{"path":' }])]);
        const tools = {
          read_file: tool({ inputSchema: z.object({ path: z.string() }), execute: async () => 'x' }),
        };
        const result = await generateText({ model, prompt: 'hi', maxRetries: 0, tools });
        const call = result.content.find((part) => part.type === 'tool-call');
        expect(call).toMatchObject({ toolName: 'read_file', invalid: true });
        expect(result.content.some((part) => part.type === 'tool-error')).toBe(true);
      });
    });

    describe('HTTP faults: generateText rejects with the APICallError, streamText emits it as an error part', () => {
      const cases: Array<
        [string, Step, { status: number; retryable: boolean; code?: string; message?: RegExp }]
      > = [
        ['429 rate limit', fault.rateLimit(), { status: 429, retryable: true, code: 'rate_limit_exceeded' }],
        [
          '429 insufficient_quota',
          fault.insufficientQuota(),
          { status: 429, retryable: true, code: 'insufficient_quota' },
        ],
        ['500 JSON', fault.serverError(), { status: 500, retryable: true, message: /server had an error/ }],
        [
          '502 HTML',
          fault.serverError(502, { html: true }),
          { status: 502, retryable: true, message: /^Bad Gateway$/ },
        ],
        ['503 JSON', fault.serverError(503), { status: 503, retryable: true }],
        ['504 HTML', fault.serverError(504, { html: true }), { status: 504, retryable: true }],
        ['401', fault.unauthorized(), { status: 401, retryable: false, code: 'invalid_api_key' }],
        [
          '403',
          fault.forbidden(),
          { status: 403, retryable: false, code: 'unsupported_country_region_territory' },
        ],
        [
          '404',
          fault.notFound({ model: 'gpt-4o' }),
          { status: 404, retryable: false, code: 'model_not_found' },
        ],
        [
          '400 context_length_exceeded',
          fault.contextLengthExceeded(),
          { status: 400, retryable: false, code: 'context_length_exceeded' },
        ],
        [
          'any status via fault.http',
          fault.http(418, { error: { message: 'teapot' } }),
          { status: 418, retryable: false, message: /^teapot$/ },
        ],
      ];
      it.each(cases)('%s', async (_name, step, expected) => {
        const { model } = await start([step, step]);
        const error = await generateText({ model, prompt: 'hi', maxRetries: 0 }).catch((e: unknown) => e);
        expect(APICallError.isInstance(error)).toBe(true);
        const apiError = error as APICallError;
        expect(apiError.statusCode).toBe(expected.status);
        expect(apiError.isRetryable).toBe(expected.retryable);
        if (expected.code) expect(apiError.data).toMatchObject({ error: { code: expected.code } });
        if (expected.message) expect(apiError.message).toMatch(expected.message);
        const streamed = await consume(model);
        expect(streamed.errors).toHaveLength(1);
        expect((streamed.errors[0] as APICallError).statusCode).toBe(expected.status);
        expect(errorName((streamed.text as { error: unknown }).error)).toBe('AI_NoOutputGeneratedError');
      });

      it('429 carries retry-after and retry-after-ms; the SDK waits and retries when maxRetries allows', async () => {
        const { model, requests } = await start([
          fault.rateLimit({ retryAfterSeconds: 2, retryAfterMs: 5 }),
          reply.text('ok'),
        ]);
        const result = await generateText({ model, prompt: 'hi', maxRetries: 1 });
        expect(result.text).toBe('ok');
        expect(requests).toHaveLength(2);
        const { model: model2 } = await start([fault.rateLimit({ retryAfterSeconds: 2, retryAfterMs: 5 })]);
        const error = (await generateText({ model: model2, prompt: 'hi', maxRetries: 0 }).catch(
          (e) => e,
        )) as APICallError;
        expect(error.responseHeaders).toMatchObject({ 'retry-after': '2', 'retry-after-ms': '5' });
      });

      it('network error: a retryable APICallError with no status', async () => {
        const { model } = await start([fault.networkError(), fault.networkError()]);
        const error = (await generateText({ model, prompt: 'hi', maxRetries: 0 }).catch(
          (e) => e,
        )) as APICallError;
        expect(APICallError.isInstance(error)).toBe(true);
        expect(error.statusCode).toBeUndefined();
        expect(error.isRetryable).toBe(true);
        expect(error.message).toMatch(/^Cannot connect to API/);
        expect((await consume(model)).errors).toHaveLength(1);
      });

      // What each transport can play (docs/testing.md): MSW throws refused/dns as undici's system errors (and
      // prints them as unhandled exceptions), answers a reset with Response.error() (no code); real TCP resets
      // (RST) or closes before any byte.
      const causes: Record<typeof t.name, Record<Exclude<NetworkFailure, 'timeout'>, unknown>> = {
        msw: { reset: undefined, refused: 'ECONNREFUSED', dns: 'ENOTFOUND' },
        loopback: { reset: 'ECONNRESET', refused: 'UND_ERR_SOCKET', dns: 'UND_ERR_SOCKET' },
      };
      it.each(['reset', 'refused', 'dns'] as const)(
        'network error %s: "Cannot connect to API", the cause chain says how',
        async (failure) => {
          const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
          try {
            const { model } = await start([fault.networkError({ failure })]);
            const error = await generateText({ model, prompt: 'hi', maxRetries: 0 }).catch((e: unknown) => e);
            expect(error).toMatchObject({
              isRetryable: true,
              message: expect.stringMatching(/^Cannot connect to API/),
            });
            expect(causeCode(error)).toBe(causes[t.name][failure]);
          } finally {
            printed.mockRestore();
          }
        },
      );

      it('network error timeout: no answer until the caller gives up', async () => {
        const { model, requests } = await start([fault.networkError({ failure: 'timeout' })]);
        const streamed = await consume(model, { abortMs: 30 });
        expect(streamed.deltas).toEqual([]);
        expect(errorName((streamed.text as { error: unknown }).error)).toBe('TimeoutError');
        expect(requests).toHaveLength(1);
      });

      it("the mock's own errors say x-should-retry: false (the AI SDK does not read it)", async () => {
        const { model } = await start([]);
        const error = (await generateText({ model, prompt: 'hi', maxRetries: 0 }).catch(
          (e) => e,
        )) as APICallError;
        expect(error).toMatchObject({ statusCode: 500, isRetryable: true });
        expect(error.responseHeaders).toMatchObject({ 'x-should-retry': 'false' });
      });

      it('latency before headers: an abort during the delay ends the call with no output', async () => {
        const { model } = await start([reply.text('late', { delayMs: 10_000 })]);
        const streamed = await consume(model, { abortMs: 20 });
        expect(streamed.deltas).toEqual([]);
        expect(errorName((streamed.text as { error: unknown }).error)).toBe('TimeoutError');
      });
    });

    describe('stream faults', () => {
      const text = 'Hello world!';

      it('cut after N characters: the deltas before it arrive, then the stream iterator rejects (no error part)', async () => {
        const { model } = await start([reply.text(text, { fault: streamFault.cut({ afterChars: 5 }) })]);
        const streamed = await consume(model);
        expect(streamed.deltas.join('')).toBe('Hello');
        expect(streamed.errors).toEqual([]);
        expect(APICallError.isInstance(streamed.thrown)).toBe(true);
        expect(streamed.thrown).toMatchObject({ statusCode: 200, isRetryable: true });
        expect((streamed.text as { error: unknown }).error).toBe(streamed.thrown);
      });

      it.each([
        ['afterChars: 0', streamFault.cut({ afterChars: 0 })],
        ['afterFrames: 1', streamFault.cut({ afterFrames: 1 })],
      ])(
        'cut before any output (%s): doStream throws, seen as an error part, text rejects',
        async (_n, cut) => {
          const { model } = await start([reply.text(text, { fault: cut })]);
          const streamed = await consume(model);
          expect(streamed.deltas).toEqual([]);
          expect(streamed.errors).toHaveLength(1);
          expect(streamed.errors[0]).toMatchObject({ statusCode: 200, isRetryable: true });
          expect(errorName((streamed.text as { error: unknown }).error)).toBe('AI_NoOutputGeneratedError');
        },
      );

      it('cut inside tool-call arguments: tool-input parts but no tool-call part, and the iterator rejects', async () => {
        const step = reply.toolCall(
          'read_file',
          { path: 'a.txt' },
          { fault: streamFault.cut({ afterChars: 3 }) },
        );
        const { model } = await start([step]);
        const tools = {
          read_file: tool({ inputSchema: z.object({ path: z.string() }), execute: async () => 'x' }),
        };
        const result = streamText({ model, prompt: 'hi', maxRetries: 0, tools, onError: () => {} });
        const types: string[] = [];
        await expect(
          (async () => {
            for await (const part of result.fullStream) types.push(part.type);
          })(),
        ).rejects.toMatchObject({ statusCode: 200 });
        expect(types).toContain('tool-input-start');
        expect(types).not.toContain('tool-call');
      });

      it('stall: output up to the stall, then nothing until the caller aborts', async () => {
        const { model } = await start([reply.text(text, { fault: streamFault.stall({ afterChars: 5 }) })]);
        const streamed = await consume(model, { abortMs: 30 });
        expect(streamed.deltas.join('')).toBe('Hello');
        expect(errorName((streamed.text as { error: unknown }).error)).toBe('TimeoutError');
      });

      it('end early without a finish: text resolves with the partial answer, finishReason interrupted', async () => {
        const { model } = await start([reply.text(text, { fault: streamFault.endEarly({ afterChars: 5 }) })]);
        const streamed = await consume(model);
        expect(streamed.text).toEqual({ value: 'Hello' });
        expect(streamed.errors).toEqual([]);
        expect(streamed.finishReason).toBe('interrupted');
      });

      const formats = ['openai', 'response.failed'] as const;
      it.each(formats)(
        'in-band %s error before output: APICallError (retryable, status 500) as an error part',
        async (format) => {
          const { model } = await start([
            reply.text(text, { fault: streamFault.error({ afterChars: 0, format }) }),
          ]);
          const streamed = await consume(model);
          expect(streamed.deltas).toEqual([]);
          expect(streamed.errors).toHaveLength(1);
          expect(APICallError.isInstance(streamed.errors[0])).toBe(true);
          expect(streamed.errors[0]).toMatchObject({ statusCode: 500, isRetryable: true });
          expect(errorName((streamed.text as { error: unknown }).error)).toBe('AI_NoOutputGeneratedError');
        },
      );

      it.each(formats)(
        'in-band %s error after output: StreamProviderError part, text resolves partial',
        async (format) => {
          const step = reply.text(text, {
            fault: streamFault.error({ afterChars: 5, format, code: 'server_error' }),
          });
          const { model } = await start([step]);
          const streamed = await consume(model);
          expect(streamed.errors).toHaveLength(1);
          expect(errorName(streamed.errors[0])).toBe('AI_StreamProviderError');
          expect(streamed.errors[0]).toMatchObject({ code: 'server_error', isRetryable: true });
          expect(streamed.text).toEqual({ value: 'Hello' });
          expect(streamed.finishReason).toBe('error');
        },
      );

      it('Anthropic-style overloaded_error inside a 200 stream, before and after output', async () => {
        const overloaded = (afterChars: number) =>
          reply.text(text, { fault: streamFault.error({ afterChars, format: 'anthropic' }) });
        const { model } = await start([overloaded(0), overloaded(5)]);
        const before = await consume(model);
        const after = await consume(model);
        expect(after.text).toEqual({ value: 'Hello' });
        expect(after.finishReason).toBe('error');
        if (api === 'chat') {
          // Chat parses it as an OpenAI error frame: 503, retryable.
          expect(before.errors[0]).toMatchObject({
            statusCode: 503,
            isRetryable: true,
            message: 'Overloaded',
          });
          expect(errorName(before.errors[0])).toBe('AI_APICallError');
          expect(errorName((before.text as { error: unknown }).error)).toBe('AI_NoOutputGeneratedError');
          expect(errorName(after.errors[0])).toBe('AI_StreamProviderError');
          expect(after.errors[0]).toMatchObject({ statusCode: 503, isRetryable: true });
        } else {
          // Responses rejects the frame's shape: a TypeValidationError part, never thrown; text resolves ''.
          expect(errorName(before.errors[0])).toBe('AI_TypeValidationError');
          expect(before.text).toEqual({ value: '' });
          expect(errorName(after.errors[0])).toBe('AI_TypeValidationError');
        }
      });

      // The real Responses API fails a started stream with an error event and response.failed; chat carries the
      // same error object in an error chunk. @ai-sdk/openai derives a status from the code, and (unlike an HTTP
      // 429) never retries an in-stream insufficient_quota.
      const failures = [
        ['rate_limit_exceeded', 429, true],
        ['context_length_exceeded', 400, false],
        ['insufficient_quota', 429, false],
        ['server_error', 500, true],
      ] as const;
      it.each(failures)(
        'responseFailed %s before output: an APICallError (status %i, retryable %s), text rejects',
        async (code, status, retryable) => {
          const { model } = await start([
            reply.text(text, { fault: streamFault.responseFailed({ afterChars: 0, code }) }),
          ]);
          const streamed = await consume(model);
          expect(streamed.deltas).toEqual([]);
          expect(streamed.errors).toHaveLength(1);
          expect(errorName(streamed.errors[0])).toBe('AI_APICallError');
          expect(streamed.errors[0]).toMatchObject({ statusCode: status, isRetryable: retryable });
          expect(errorName((streamed.text as { error: unknown }).error)).toBe('AI_NoOutputGeneratedError');
        },
      );

      it.each(failures)(
        'responseFailed %s after output: one StreamProviderError part with the code, text resolves partial',
        async (code, _status, retryable) => {
          const { model } = await start([
            reply.text(text, { fault: streamFault.responseFailed({ afterChars: 5, code }) }),
          ]);
          const streamed = await consume(model);
          expect(streamed.errors).toHaveLength(1);
          expect(errorName(streamed.errors[0])).toBe('AI_StreamProviderError');
          expect(streamed.errors[0]).toMatchObject({ code, isRetryable: retryable });
          expect(streamed.text).toEqual({ value: 'Hello' });
          expect(streamed.finishReason).toBe('error');
        },
      );

      it('garbled frame: a JSONParseError part, the answer goes on', async () => {
        const { model } = await start([reply.text(text, { fault: streamFault.garbled({ afterChars: 5 }) })]);
        const streamed = await consume(model);
        expect(streamed.errors.map(errorName)).toEqual(['AI_JSONParseError']);
        expect(streamed.text).toEqual({ value: text });
        // Responses marks the step as errored; chat keeps the model's finish reason.
        expect(streamed.finishReason).toBe(api === 'chat' ? 'stop' : 'error');
      });

      it('latency between frames: all frames arrive with a small delay; a long one can be aborted', async () => {
        const { model } = await start([
          reply.text(text, { frameDelayMs: 1 }),
          reply.text(text, { frameDelayMs: 10_000 }),
        ]);
        expect((await consume(model)).text).toEqual({ value: text });
        const slow = await consume(model, { abortMs: 30 });
        expect(slow.deltas.join('').length).toBeLessThan(text.length);
        expect(errorName((slow.text as { error: unknown }).error)).toBe('TimeoutError');
      });

      it('stream faults on a non-streamed request affect the JSON body', async () => {
        const { model } = await start([
          reply.text(text, { fault: streamFault.cut({ afterChars: 5 }) }),
          reply.text(text, { fault: streamFault.endEarly({ afterChars: 5 }) }),
          reply.text(text, { fault: streamFault.error({ afterChars: 5 }) }),
        ]);
        const call = () =>
          generateText({ model, prompt: 'hi', maxRetries: 0 }).catch((e: unknown) => e as APICallError);
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
        // Chat: an error object where a completion belongs; responses: a `status: "failed"` response.
        expect(await call()).toMatchObject(
          api === 'chat'
            ? { statusCode: 200, isRetryable: false, message: 'Invalid JSON response' }
            : { statusCode: 400, isRetryable: false, message: expect.stringMatching(/server had an error/) },
        );
      });
    });
  });
});
