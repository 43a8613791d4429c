/** OpenAI's error wording and rate-limit headers as the fault kit renders them, and the options that shape them. */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderApiError } from '../../mocks/api-errors.js';
import { fault, type MockServer, reply, startMockServer, streamFault } from '../../mocks/index.js';
import { mockHandlers } from '../../mocks/msw.js';
import { goDuration, openaiErrors } from '../../mocks/openai-errors.js';
import type { ApiErrorStep } from '../../mocks/vocabulary.js';

/** A `fault.*` step as the OpenAI wires render it: status, body and headers. */
function onOpenAI(step: ApiErrorStep) {
  const {
    status,
    body,
    headers = {},
  } = renderApiError(step, openaiErrors, {
    n: 1,
    model: 'gpt-4o',
    created: 0,
    body: {},
  });
  return { status, body, headers };
}

/** Seconds from a Go duration (`1h2m3.5s`, `644ms`). */
function parseGoDuration(text: string): number {
  const units: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001 };
  let seconds = 0;
  for (const [, value, unit] of text.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g))
    seconds += Number(value) * units[unit!]!;
  return seconds;
}

describe('goDuration: durations as OpenAI writes them', () => {
  it.each([
    [0, '0s'],
    [0.644, '644ms'],
    [1, '1s'],
    [11.054, '11.054s'],
    [86.4, '1m26.4s'],
    [360, '6m0s'],
    [3725, '1h2m5s'],
  ])('%s s is %s', (seconds, text) => {
    expect(goDuration(seconds)).toBe(text);
  });

  it('reads back as the same number of milliseconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 * 86_400_000 }), (ms) => {
        expect(Math.round(parseGoDuration(goDuration(ms / 1000)) * 1000)).toBe(ms);
      }),
    );
  });
});

describe('fault.rateLimit', () => {
  it('by default a TPM limit on gpt-4o: retry-after in whole seconds, no retry-after-ms', () => {
    const step = onOpenAI(fault.rateLimit());
    expect(step.status).toBe(429);
    expect(step.body).toEqual({
      error: {
        message:
          'Rate limit reached for gpt-4o in organization org-mock on tokens per min (TPM): Limit 30000, Used 29000, Requested 1500. Please try again in 11.054s. Visit https://platform.openai.com/account/rate-limits to learn more.',
        type: 'tokens',
        param: null,
        code: 'rate_limit_exceeded',
      },
    });
    expect(step.headers).toEqual({
      'retry-after': '12',
      'x-ratelimit-limit-requests': '500',
      'x-ratelimit-limit-tokens': '30000',
      'x-ratelimit-remaining-requests': '499',
      'x-ratelimit-remaining-tokens': '1000',
      'x-ratelimit-reset-requests': '120ms',
      'x-ratelimit-reset-tokens': '11.054s',
    });
  });

  it('an RPM limit names requests and resets the requests budget', () => {
    const step = onOpenAI(
      fault.rateLimit({
        budget: 'requests',
        model: 'o3',
        organization: 'org-x',
        retryAfterSeconds: 0.5,
      }),
    );
    expect((step.body as { error: unknown }).error).toMatchObject({
      type: 'requests',
      message: expect.stringMatching(
        /^Rate limit reached for o3 in organization org-x on requests per min \(RPM\): Limit 500, Used 500, Requested 1\. Please try again in 500ms\./,
      ),
    });
    expect(step.headers).toMatchObject({
      'retry-after': '1',
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': '500ms',
      'x-ratelimit-remaining-tokens': '30000',
      'x-ratelimit-reset-tokens': '0s',
    });
  });

  it('headers are switched on and off one by one; retry-after-ms (Azure) only when given', () => {
    expect(onOpenAI(fault.rateLimit({ retryAfterHeader: false, rateLimitHeaders: false })).headers).toEqual(
      {},
    );
    expect(onOpenAI(fault.rateLimit({ rateLimitHeaders: false, retryAfterMs: 250 })).headers).toEqual({
      'retry-after': '12',
      'retry-after-ms': '250',
    });
    expect(onOpenAI(fault.rateLimit({ message: 'slow down' })).body).toMatchObject({
      error: { message: 'slow down' },
    });
  });

  it('retry-after is the named wait rounded up to whole seconds; the exhausted budget resets after exactly it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 86_400_000 }),
        fc.constantFrom('tokens', 'requests'),
        (ms, budget) => {
          const { headers } = onOpenAI(fault.rateLimit({ retryAfterSeconds: ms / 1000, budget }));
          expect(headers['retry-after']).toBe(String(Math.ceil(ms / 1000)));
          expect(Math.round(parseGoDuration(headers[`x-ratelimit-reset-${budget}`]!) * 1000)).toBe(ms);
        },
      ),
    );
  });

  it('a quota error carries no retry-after', () => {
    expect(onOpenAI(fault.insufficientQuota()).headers).toEqual({});
  });

  it.each([
    [{ model: 5 }, "fault.rateLimit: option 'model' must be a string; got 5."],
    [{ budget: 'tpm' }, "fault.rateLimit: option 'budget' must be tokens or requests; got tpm."],
    [
      { retryAfterHeader: 'no' },
      `fault.rateLimit: option 'retryAfterHeader' must be true or false; got "no".`,
    ],
  ])('refuses %o', (options, message) => {
    expect(() => fault.rateLimit(options as never)).toThrow(new TypeError(message));
  });
});

describe('streamFault.responseFailed', () => {
  it('fills the error object for each code', () => {
    expect(streamFault.responseFailed({ afterChars: 3, code: 'context_length_exceeded' })).toEqual({
      kind: 'error',
      format: 'response.failed',
      afterChars: 3,
      code: 'context_length_exceeded',
      message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
      type: 'invalid_request_error',
      param: 'input',
      errorEvent: true,
    });
    expect(streamFault.responseFailed({ afterChars: 0 })).toMatchObject({
      code: 'server_error',
      type: 'server_error',
    });
    expect(
      streamFault.responseFailed({ afterChars: 0, code: 'rate_limit_exceeded', rateLimit: { model: 'o3' } }),
    ).toMatchObject({ type: 'tokens', message: expect.stringMatching(/^Rate limit reached for o3 /) });
  });

  it('refuses an unknown code, and a hand-written fault with a bad errorEvent', () => {
    expect(() => streamFault.responseFailed({ afterChars: 0, code: 'overloaded' as never })).toThrow(
      new TypeError(
        "streamFault.responseFailed: option 'code' must be one of rate_limit_exceeded, context_length_exceeded, insufficient_quota, server_error; got overloaded.",
      ),
    );
    const fault = { kind: 'error', afterChars: 0, format: 'response.failed', errorEvent: 'yes' };
    expect(() => mockHandlers([{ kind: 'text', text: 'x', fault } as never])).toThrow(
      new TypeError('mock script step 0 (text): fault.errorEvent must be a boolean'),
    );
  });

  it('refuses an unknown network failure', () => {
    expect(() => fault.networkError({ failure: 'econnreset' as never })).toThrow(
      new TypeError(
        'fault.networkError: failure must be one of reset, refused, dns, timeout, got econnreset',
      ),
    );
  });
});

describe('on the wire', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ script: [] });
  });
  afterAll(() => mock.close());

  const events = async (step: ReturnType<typeof reply.text>) => {
    mock.setScript([step]);
    const response = await fetch(`${mock.urls.openai}/responses`, {
      method: 'POST',
      body: JSON.stringify({ model: 'gpt-4o', input: 'hi', stream: true }),
    });
    return (await response.text())
      .split('\n\n')
      .filter((frame) => frame !== '')
      .map((frame) => {
        const [event, data] = frame.split('\n');
        return { event: event?.slice('event: '.length), data: JSON.parse(data!.slice('data: '.length)) };
      });
  };

  it('responses: an error event, then response.failed whose error holds code and message (the recorded order)', async () => {
    const all = await events(
      reply.text('Hello', {
        fault: streamFault.responseFailed({ afterChars: 0, code: 'insufficient_quota' }),
      }),
    );
    expect(all.map((e) => e.event)).toEqual([
      'response.created',
      'response.in_progress',
      'error',
      'response.failed',
    ]);
    expect(all.map((e) => e.data.sequence_number)).toEqual([0, 1, 2, 3]);
    expect(all[2]?.data).toEqual({
      type: 'error',
      sequence_number: 2,
      error: {
        type: 'insufficient_quota',
        code: 'insufficient_quota',
        message: expect.stringMatching(/^You exceeded your current quota/),
        param: null,
      },
    });
    expect(all[3]?.data.response).toMatchObject({
      status: 'failed',
      error: { code: 'insufficient_quota', message: expect.stringMatching(/^You exceeded/) },
    });
    expect(Object.keys(all[3]?.data.response.error)).toEqual(['code', 'message']);
  });

  it('responses: errorEvent: false sends response.failed alone', async () => {
    const all = await events(
      reply.text('Hello', { fault: streamFault.responseFailed({ afterChars: 0, errorEvent: false }) }),
    );
    expect(all.map((e) => e.event)).toEqual(['response.created', 'response.in_progress', 'response.failed']);
  });
});
