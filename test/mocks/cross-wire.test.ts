/**
 * One script vocabulary, four wires: the same steps on OpenAI chat and responses, Anthropic Messages and Gemini,
 * through the real providers, over MSW and over the loopback server. What each provider error, in-band format and
 * reasoning becomes on each wire (the tables in docs/testing.md), the mock's own errors in each provider's shape,
 * and routing.
 */
import { APICallError, generateText, type LanguageModel } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import {
  type Api,
  assistantPrefill,
  fault,
  type InBandErrorFormat,
  type NetworkFailure,
  reply,
  type Step,
  startMockServer,
  streamFault,
} from '../../mocks/index.js';
import { classifyError } from '../../src/classify/index.js';
import { wire, wires as wireTable } from '../wires.js';
import { causeCode, consume, errorName } from './consume.js';
import { type Mocked, transports } from './harness.js';

const wires = wireTable.map((w) => w.name);
type Wire = Api;
const modelOf = (m: Mocked, name: Wire): LanguageModel => wire(name).model(m.urls);

describe.each(transports)('every wire over $name', (t) => {
  t.use();
  const start = async (steps: Step[]) => {
    const m = await t.start(steps);
    return { ...m, models: wires.map((wire) => [wire, modelOf(m, wire)] as const) };
  };

  it('one script serves every wire, in arrival order', async () => {
    const { models, requests } = await start(wires.map((wire) => reply.text(`hello ${wire}`)));
    for (const [wire, model] of models) {
      expect((await generateText({ model, prompt: 'hi', maxRetries: 0 })).text).toBe(`hello ${wire}`);
    }
    expect(requests.map((r) => r.api)).toEqual([...wires]);
  });

  describe('fault.* : each wire answers with its provider status (chat, responses, messages, generateContent)', () => {
    const cases: Array<[string, Step, number[], boolean[]]> = [
      ['rateLimit', fault.rateLimit(), [429, 429, 429, 429], [true, true, true, true]],
      ['insufficientQuota', fault.insufficientQuota(), [429, 429, 400, 429], [true, true, false, true]],
      ['overloaded', fault.overloaded(), [503, 503, 529, 503], [true, true, true, true]],
      ['serverError', fault.serverError(), [500, 500, 500, 500], [true, true, true, true]],
      ['unauthorized', fault.unauthorized(), [401, 401, 401, 400], [false, false, false, false]],
      ['forbidden', fault.forbidden(), [403, 403, 403, 403], [false, false, false, false]],
      ['notFound', fault.notFound(), [404, 404, 404, 404], [false, false, false, false]],
      [
        'contextLengthExceeded',
        fault.contextLengthExceeded(),
        [400, 400, 400, 400],
        [false, false, false, false],
      ],
      [
        'http (verbatim everywhere)',
        fault.http(418, 'teapot'),
        [418, 418, 418, 418],
        [false, false, false, false],
      ],
    ];
    it.each(cases)('%s', async (_name, step, statuses, retryable) => {
      const { models } = await start(wires.map(() => step));
      for (const [i, [wire, model]] of models.entries()) {
        const error = (await generateText({ model, prompt: 'hi', maxRetries: 0 }).catch(
          (e: unknown) => e,
        )) as APICallError;
        expect(APICallError.isInstance(error), wire).toBe(true);
        expect([wire, error.statusCode, error.isRetryable]).toEqual([wire, statuses[i], retryable[i]]);
      }
    });
  });

  it('a rate limit names the same wait on every wire (default 11.054 s), each in its own place', async () => {
    const { models } = await start(wires.map(() => fault.rateLimit()));
    const waits = [];
    for (const [wire, model] of models) {
      const error = (await generateText({ model, prompt: 'hi', maxRetries: 0 }).catch(
        (e: unknown) => e,
      )) as APICallError;
      waits.push([
        wire,
        error.responseHeaders?.['retry-after'],
        /"retryDelay":"([^"]+)"/.exec(error.responseBody ?? '')?.[1],
      ]);
    }
    expect(waits).toEqual([
      ['chat', '12', undefined],
      ['responses', '12', undefined],
      ['messages', '12', undefined],
      ['generateContent', undefined, '11.054s'],
    ]);
  });

  it('retryAfterHeader: false and rateLimitHeaders: false leave a bare 429 on every wire', async () => {
    const step = fault.rateLimit({ retryAfterHeader: false, rateLimitHeaders: false });
    const { models } = await start(wires.map(() => step));
    for (const [wire, model] of models) {
      const error = (await generateText({ model, prompt: 'hi', maxRetries: 0 }).catch(
        (e: unknown) => e,
      )) as APICallError;
      expect([wire, error.statusCode]).toEqual([wire, 429]);
      const names = Object.keys(error.responseHeaders ?? {});
      expect(
        names.filter((name) => /retry-after|ratelimit/.test(name)),
        wire,
      ).toEqual([]);
    }
  });

  // What each transport can play (as on the OpenAI wires in faults.test.ts): the failure is the connection's, so
  // every wire fails alike.
  const causes: Record<typeof t.name, Record<Exclude<NetworkFailure, 'timeout'>, unknown>> = {
    msw: { reset: undefined, refused: 'ECONNREFUSED', dns: 'ENOTFOUND' },
    loopback: { reset: 'ECONNRESET', refused: 'UND_ERR_SOCKET', dns: 'UND_ERR_SOCKET' },
  };
  it.each(['reset', 'refused', 'dns'] as const)(
    'network error %s on every wire: "Cannot connect to API", the cause chain says how',
    async (failure) => {
      const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
      try {
        const { models } = await start(wires.map(() => fault.networkError({ failure })));
        for (const [wire, model] of models) {
          const error = await generateText({ model, prompt: 'hi', maxRetries: 0 }).catch((e: unknown) => e);
          expect(error, wire).toMatchObject({
            isRetryable: true,
            message: expect.stringMatching(/^Cannot connect to API/),
          });
          expect([wire, causeCode(error)]).toEqual([wire, causes[t.name][failure]]);
        }
      } finally {
        printed.mockRestore();
      }
    },
  );

  it("endEarly({ finish: 'other' }): each wire's own ending with no finish reason, as its package reports it", async () => {
    const step = reply.text('Hello world!', {
      fault: streamFault.endEarly({ afterChars: 5, finish: 'other' }),
    });
    const { models } = await start(wires.map(() => step));
    const reported: Record<string, unknown> = {};
    for (const [wire, model] of models) {
      const { text, finishReason, errors, result } = await consume(model);
      reported[wire] = { text, finishReason, raw: await result.rawFinishReason, errors: errors.length };
    }
    // Anthropic (stop_reason null) and Gemini (FINISH_REASON_UNSPECIFIED) report 'other'; @ai-sdk/openai calls a
    // stream that never named a finish reason 'interrupted' on both of OpenAI's wires.
    const partial = { text: { value: 'Hello' }, errors: 0 };
    expect(reported).toEqual({
      chat: { ...partial, finishReason: 'interrupted', raw: undefined },
      responses: { ...partial, finishReason: 'interrupted', raw: undefined },
      messages: { ...partial, finishReason: 'other', raw: undefined },
      generateContent: { ...partial, finishReason: 'other', raw: 'FINISH_REASON_UNSPECIFIED' },
    });
  });

  it('network error timeout on every wire: no answer until the caller gives up', async () => {
    const { models, requests } = await start(wires.map(() => fault.networkError({ failure: 'timeout' })));
    for (const [wire, model] of models) {
      const streamed = await consume(model, { abortMs: 30 });
      expect([wire, streamed.deltas]).toEqual([wire, []]);
      expect([wire, errorName((streamed.text as { error: unknown }).error)]).toEqual([wire, 'TimeoutError']);
    }
    expect(requests.map((r) => r.api)).toEqual([...wires]);
  });

  it("graceful-ai's classifier reads every provider's errors as the kit renders them", async () => {
    const steps = [
      fault.rateLimit({ retryAfterSeconds: 34 }),
      fault.insufficientQuota(),
      fault.overloaded(),
      fault.contextLengthExceeded(),
      fault.unauthorized(),
    ];
    const { models } = await start(wires.flatMap(() => steps));
    for (const [wire, model] of models) {
      const kinds = [];
      for (const _step of steps) {
        const error = await generateText({ model, prompt: 'hi', maxRetries: 0 }).catch((e: unknown) => e);
        const { kind, retryAfterMs } = classifyError(error);
        kinds.push(retryAfterMs === undefined ? kind : `${kind} ${retryAfterMs}`);
      }
      // The retry-after comes from a header on OpenAI and Anthropic, from RetryInfo's retryDelay on Gemini.
      expect([wire, ...kinds]).toEqual([
        wire,
        'transient 34000',
        'permanent',
        'transient',
        'overflow',
        'permanent',
      ]);
    }
  });

  describe('in-band formats: each wire sends its own by default and relays the others verbatim', () => {
    // [format, wire, before output, after output]: the error part's name and status, as the SDK reports them.
    const own = (status: number) => ['AI_APICallError', status];
    const relayed = ['AI_TypeValidationError', undefined];
    const cases: Array<[InBandErrorFormat | undefined, Wire, unknown[], unknown[]]> = [
      [undefined, 'chat', own(500), ['AI_StreamProviderError', 500]],
      [undefined, 'responses', own(500), ['AI_StreamProviderError', 500]],
      [undefined, 'messages', ['AI_StreamProviderError', 529], ['AI_StreamProviderError', 529]],
      [undefined, 'generateContent', ['AI_StreamProviderError', 500], ['AI_StreamProviderError', 500]],
      ['response.failed', 'chat', own(500), ['AI_StreamProviderError', 500]],
      ['response.failed', 'messages', relayed, relayed],
      ['anthropic', 'chat', own(503), ['AI_StreamProviderError', 503]],
      ['anthropic', 'responses', relayed, relayed],
      ['anthropic', 'generateContent', relayed, relayed],
      ['gemini', 'chat', own(500), ['AI_StreamProviderError', 500]],
      ['gemini', 'responses', relayed, relayed],
      ['gemini', 'messages', relayed, relayed],
      ['openai', 'messages', relayed, relayed],
      ['openai', 'generateContent', relayed, relayed],
    ];
    it.each(cases)('%s on %s', async (format, wire, before, after) => {
      const step = (afterChars: number) =>
        reply.text('Hello world', {
          fault: streamFault.error({ afterChars, ...(format ? { format } : {}) }),
        });
      const m = await t.start([step(0), step(5)]);
      const model = modelOf(m, wire);
      for (const [expected, prefix] of [
        [before, ''],
        [after, 'Hello'],
      ] as const) {
        const streamed = await consume(model);
        expect(streamed.deltas.join('')).toBe(prefix);
        expect(streamed.errors).toHaveLength(1);
        const error = streamed.errors[0] as { statusCode?: number };
        expect([errorName(error), error.statusCode ?? undefined]).toEqual(expected);
      }
    });
  });

  describe('reasoning', () => {
    it('responses: a reasoning item, its encrypted_content in providerMetadata.openai, streamed and not', async () => {
      const step = reply.text('42', { reasoning: { text: 'Six times seven.', signature: 'gAAAAenc' } });
      const m = await t.start([step, step, reply.text('ok', { reasoning: { redacted: 'gAAAAred' } })]);
      const model = m.openai.responses('o4-mini');
      const expected = (n: number) => ({
        type: 'reasoning',
        text: 'Six times seven.',
        providerMetadata: { openai: { itemId: `rs_mock_${n}`, reasoningEncryptedContent: 'gAAAAenc' } },
      });
      expect((await generateText({ model, prompt: 'hi', maxRetries: 0 })).content[0]).toEqual(expected(1));
      const streamed = await consume(model);
      expect(streamed.reasoning.join('')).toBe('Six times seven.');
      expect((await streamed.result.content)[0]).toEqual(expected(2));
      const redacted = await generateText({ model, prompt: 'hi', maxRetries: 0 });
      expect(redacted.content[0]).toMatchObject({
        type: 'reasoning',
        text: '',
        providerMetadata: { openai: { reasoningEncryptedContent: 'gAAAAred' } },
      });
    });

    it('responses: positions count the reasoning summary first', async () => {
      const m = await t.start([
        reply.text('42', { reasoning: 'Six times seven.', fault: streamFault.cut({ afterChars: 3 }) }),
      ]);
      const streamed = await consume(m.openai.responses('o4-mini'));
      expect(streamed.reasoning.join('')).toBe('Six');
      expect(streamed.deltas).toEqual([]);
      expect(streamed.thrown).toMatchObject({ statusCode: 200 });
    });

    it('chat has no reasoning: HTTP 400 naming the step and where to serve it, never retried', async () => {
      const { openai, requests } = await t.start([
        reply.text('42', { reasoning: 'Six times seven.' }),
        reply.text('x'),
      ]);
      const error = await generateText({ model: openai.chat('gpt-4o'), prompt: 'hi', maxRetries: 2 }).catch(
        (e: unknown) => e,
      );
      expect(error).toMatchObject({
        statusCode: 400,
        isRetryable: false,
        message: expect.stringMatching(
          /^mock script step 0 \(text\): reasoning is not part of the OpenAI chat completions wire .*responses API/,
        ),
        data: { error: { code: 'mock_unsupported_step' } },
        responseHeaders: expect.objectContaining({ 'x-should-retry': 'false' }),
      });
      expect(requests).toHaveLength(1);
    });
  });

  it("the mock's own errors reach each client with their message (here: an exhausted script)", async () => {
    const { models } = await start([]);
    for (const [wire, model] of models) {
      const error = (await generateText({ model, prompt: 'hi', maxRetries: 0 }).catch(
        (e: unknown) => e,
      )) as APICallError;
      expect([wire, error.statusCode]).toEqual([wire, 500]);
      expect(error.message, wire).toMatch(/^mock script exhausted after \d+ requests: no step for request/);
      expect(error.responseBody, wire).toContain('mock_script_exhausted');
      expect(error.responseHeaders?.['x-should-retry'], wire).toBe('false');
    }
  });

  it('assistantPrefill reads the assistant text a request ends with, reasoning left out', async () => {
    const { models, requests } = await start(wires.flatMap(() => [reply.text('x'), reply.text('x')]));
    for (const [wire, model] of models) {
      // Two text parts: the responses wire sends them as two assistant items. Gemini sends thoughts back.
      const thought = wire === 'generateContent' ? [{ type: 'reasoning' as const, text: 'Think.' }] : [];
      const text = [
        { type: 'text' as const, text: 'The capital ' },
        { type: 'text' as const, text: 'is ' },
      ];
      await generateText({
        model,
        maxRetries: 0,
        messages: [
          { role: 'user', content: 'Capital of France?' },
          { role: 'assistant', content: [...thought, ...text] },
        ],
      });
      await generateText({ model, prompt: 'hi', maxRetries: 0 });
    }
    expect(requests.map((r) => [r.api, assistantPrefill(r)])).toEqual([
      ['chat', 'The capital is '],
      ['chat', undefined],
      ['responses', 'The capital is '],
      ['responses', undefined],
      // @ai-sdk/anthropic trims a final assistant message's trailing whitespace itself (the API rejects it).
      ['messages', 'The capital is'],
      ['messages', undefined],
      ['generateContent', 'The capital is '],
      ['generateContent', undefined],
    ]);
  });
});

describe('routing', () => {
  it('the loopback server answers every provider under its own base URL and 404s what it does not serve', async () => {
    const mock = await startMockServer({ script: [] });
    try {
      expect(mock.urls.openai).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(mock.urls.anthropic).toBe(mock.urls.openai);
      expect(mock.urls.google).toBe(mock.urls.openai.replace(/\/v1$/, '/v1beta'));
      for (const path of [
        '/models/gemini:streamGenerateContent',
        '/models/gemini:countTokens',
        '/embeddings',
      ]) {
        const response = await fetch(`${mock.urls.google}${path}`, { method: 'POST', body: '{}' });
        expect(response.status, path).toBe(404);
        const body = (await response.json()) as { error: { code: string; message: string } };
        expect(body.error.code).toBe('mock_not_found');
        expect(body.error.message).toContain(':streamGenerateContent?alt=sse');
        expect(response.headers.get('x-should-retry'), path).toBe('false');
      }
      expect(mock.requests).toEqual([]);
    } finally {
      await mock.close();
    }
  });

  it("an unparseable body is the mock's own 400 on every wire, with x-should-retry: false", async () => {
    const mock = await startMockServer({ script: [reply.text('never used')] });
    try {
      const paths = [
        `${mock.urls.openai}/chat/completions`,
        `${mock.urls.openai}/responses`,
        `${mock.urls.anthropic}/messages`,
        `${mock.urls.google}/models/gemini-2.5-flash:generateContent`,
      ];
      for (const url of paths) {
        const response = await fetch(url, { method: 'POST', body: 'not json' });
        expect([url, response.status]).toEqual([url, 400]);
        expect(response.headers.get('x-should-retry'), url).toBe('false');
        expect(await response.text(), url).toContain('mock could not parse the request body');
      }
      expect(mock.requests.map((r) => r.api)).toEqual(['chat', 'responses', 'messages', 'generateContent']);
    } finally {
      await mock.close();
    }
  });
});
