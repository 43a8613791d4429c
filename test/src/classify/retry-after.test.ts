import { APICallError } from '@ai-sdk/provider';
import { RetryError } from 'ai';
import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../../src/classify/retry-after.js';
import type { Clock } from '../../../src/util/time.js';

const now = Date.parse('2025-06-01T12:00:00Z');
const clock: Clock = { now: () => now };

const apiError = (responseHeaders: Record<string, string> | undefined, message = 'Too Many Requests') =>
  new APICallError({
    message,
    url: 'https://api.openai.com/v1/responses',
    requestBodyValues: {},
    statusCode: 429,
    responseHeaders,
  });

describe('parseRetryAfter: headers', () => {
  it('reads retry-after-ms, which wins over retry-after', () => {
    expect(parseRetryAfter({ 'retry-after-ms': '1500', 'retry-after': '20' })).toBe(1500);
    expect(parseRetryAfter({ 'retry-after-ms': '250.4' })).toBe(250);
  });

  it('reads retry-after as seconds or as an HTTP date against the injected clock', () => {
    expect(parseRetryAfter({ 'retry-after': '20' })).toBe(20_000);
    expect(parseRetryAfter({ 'retry-after': '0.5' })).toBe(500);
    expect(parseRetryAfter({ 'retry-after': 'Sun, 01 Jun 2025 12:00:42 GMT' }, { clock })).toBe(42_000);
    // A date in the past is no hint: retrying at once would skip the backoff (opencode's session retry agrees).
    expect(parseRetryAfter({ 'retry-after': 'Sun, 01 Jun 2025 11:59:00 GMT' }, { clock })).toBeUndefined();
    // …and a later header form still counts.
    expect(
      parseRetryAfter(
        { 'retry-after': 'Sun, 01 Jun 2025 11:59:00 GMT', 'x-ratelimit-reset-after': '3' },
        { clock },
      ),
    ).toBe(3000);
    expect(parseRetryAfter({ 'retry-after': 'soon' })).toBeUndefined();
    expect(parseRetryAfter({ 'retry-after': '-5' })).toBeUndefined();
  });

  it('reads x-ratelimit-reset-after (seconds) after retry-after-ms and retry-after', () => {
    expect(parseRetryAfter({ 'x-ratelimit-reset-after': '30' })).toBe(30_000);
    expect(parseRetryAfter({ 'x-ratelimit-reset-after': '1.5', 'retry-after': '2' })).toBe(2000);
    expect(parseRetryAfter({ 'x-ratelimit-reset-after': '1.5', 'retry-after-ms': '40' })).toBe(40);
  });

  it('reads x-ratelimit-reset as seconds, as a duration or as a Unix time (s or ms) against the injected clock', () => {
    const at = (seconds: number) => String(now / 1000 + seconds);
    expect(parseRetryAfter({ 'x-ratelimit-reset': '20' }, { clock })).toBe(20_000);
    // Durations as OpenAI writes its x-ratelimit-reset-* values (Go's time.Duration format).
    expect(parseRetryAfter({ 'x-ratelimit-reset': '1m30s' }, { clock })).toBe(90_000);
    expect(parseRetryAfter({ 'x-ratelimit-reset': '6m0s' }, { clock })).toBe(360_000);
    expect(parseRetryAfter({ 'x-ratelimit-reset': '120ms' }, { clock })).toBe(120);
    expect(parseRetryAfter({ 'x-ratelimit-reset': '11.054s' }, { clock })).toBe(11_054);
    // GitHub documents x-ratelimit-reset as "the time at which the current rate limit window resets in UTC epoch
    // seconds" (docs.github.com rest/using-the-rest-api/rate-limits-for-the-rest-api); read as a delay it was
    // "Retry after 1792152901 seconds" (crunchtools/mcp-github v1.3.1).
    const github = { 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': at(42) };
    expect(parseRetryAfter(github, { clock })).toBe(42_000);
    // OpenRouter relays the upstream's reset in Unix milliseconds.
    expect(parseRetryAfter({ 'X-RateLimit-Reset': String(now + 4200) }, { clock })).toBe(4200);
    // A reset already past is no hint; nor is a value that is no number, duration or time.
    expect(parseRetryAfter({ 'x-ratelimit-reset': at(-42) }, { clock })).toBeUndefined();
    expect(parseRetryAfter({ 'x-ratelimit-reset': '1m30sx' }, { clock })).toBeUndefined();
    expect(parseRetryAfter({ 'x-ratelimit-reset': 'soon' }, { clock })).toBeUndefined();
    expect(parseRetryAfter({ 'x-ratelimit-reset': `${'9'.repeat(100_000)}` }, { clock })).toBeUndefined();
  });

  it('reads a rate-limit window reset only once the window is spent (x-ratelimit-remaining absent or 0)', () => {
    const reset = String(now / 1000 + 42);
    // Sent on every response, a 500 included: a window with requests left is no reason to wait for its reset.
    expect(parseRetryAfter({ 'x-ratelimit-remaining': '4990', 'x-ratelimit-reset': reset }, { clock })).toBe(
      undefined,
    );
    expect(
      parseRetryAfter({ 'x-ratelimit-remaining': '3', 'x-ratelimit-reset-after': '30' }),
    ).toBeUndefined();
    expect(parseRetryAfter({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': '30' })).toBe(30_000);
    // retry-after still wins, whatever the window says.
    expect(
      parseRetryAfter({ 'x-ratelimit-remaining': '3', 'retry-after': '2', 'x-ratelimit-reset': reset }),
    ).toBe(2000);
  });

  it("reads the headers OpenRouter relays in its body (error.metadata.headers) as the error's hint", () => {
    const body = {
      error: {
        message: 'Rate limit exceeded: free-models-per-min.',
        code: 429,
        metadata: {
          headers: {
            'X-RateLimit-Limit': '20',
            'X-RateLimit-Remaining': '0',
            'X-RateLimit-Reset': String(now + 37_000),
          },
        },
      },
    };
    const error = new APICallError({
      message: body.error.message,
      url: 'https://openrouter.ai/api/v1/chat/completions',
      requestBodyValues: {},
      statusCode: 429,
      responseBody: JSON.stringify(body),
      data: body,
    });
    expect(parseRetryAfter(error, { clock })).toBe(37_000);
  });

  it("reads Google's RetryInfo.retryDelay from the error details", () => {
    const error = {
      statusCode: 429,
      data: {
        error: {
          code: 429,
          status: 'RESOURCE_EXHAUSTED',
          details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '34.5s' }],
        },
      },
    };
    expect(parseRetryAfter(error)).toBe(34_500);
  });

  it('accepts a Headers instance and any header case', () => {
    expect(parseRetryAfter(new Headers({ 'Retry-After': '3' }))).toBe(3000);
    expect(parseRetryAfter(new Headers({ 'Retry-After-Ms': '30', 'Retry-After': '3' }))).toBe(30);
    expect(parseRetryAfter({ 'Retry-After': '7' })).toBe(7000);
    expect(parseRetryAfter({})).toBeUndefined();
    expect(parseRetryAfter(new Headers())).toBeUndefined();
  });

  it("finds them on an APICallError, down the cause chain and on a RetryError's lastError", () => {
    expect(parseRetryAfter(apiError({ 'retry-after': '2' }))).toBe(2000);
    expect(parseRetryAfter(new Error('tool failed', { cause: apiError({ 'retry-after-ms': '800' }) }))).toBe(
      800,
    );
    const retry = new RetryError({
      message: 'Failed after 3 attempts.',
      reason: 'maxRetriesExceeded',
      errors: [apiError({ 'retry-after': '1' }), apiError({ 'retry-after': '9' })],
    });
    expect(parseRetryAfter(retry)).toBe(9000);
  });

  it('finds headers on other client shapes: `headers` (OpenAI SDK) and `response.headers` (fetch)', () => {
    expect(parseRetryAfter(Object.assign(new Error('429'), { headers: { 'retry-after-ms': '120' } }))).toBe(
      120,
    );
    const response = new Response(null, { status: 429, headers: { 'Retry-After': '6' } });
    expect(parseRetryAfter(Object.assign(new Error('HTTP 429'), { response }))).toBe(6000);
  });

  it('prefers headers over the text, and falls back to the text', () => {
    expect(parseRetryAfter(apiError({ 'retry-after': '2' }, 'Please try again in 20s.'))).toBe(2000);
    expect(parseRetryAfter(apiError(undefined, 'Please try again in 20s.'))).toBe(20_000);
    expect(parseRetryAfter(apiError({ 'x-request-id': 'req_1' }))).toBeUndefined();
  });
});

describe('parseRetryAfter: text', () => {
  it.each([
    ['Please try again in 634ms.', 634],
    ['Please retry in 47.4s.', 47_400],
    ['Please retry in 47s.', 47_000],
    ['{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay": "34s"}', 34_000],
    ['"retryDelay":"33123s"', 33_123_000],
    ['Please try again in 9m38.016s. Visit https://platform.openai.com/account/rate-limits', 578_016],
    ['Rate limited. Retry after 20 seconds.', 20_000],
    ['Try again in 2 minutes and 30 seconds.', 150_000],
    ['Your limit resets in 3h 20m.', 12_000_000],
    ['please try again in about 1 hour', 3_600_000],
    ['Please try again in 1.5 days', 129_600_000],
  ])('%s → %d ms', (text, ms) => {
    expect(parseRetryAfter(new Error(text))).toBe(ms);
    expect(parseRetryAfter(text)).toBe(ms);
  });

  it('ignores lead-ins without a duration and numbers without a lead-in', () => {
    expect(parseRetryAfter(new Error('Please retry in a moment. Waited 30s already.'))).toBeUndefined();
    expect(parseRetryAfter(new Error('retry in retry in retry in 5 parsecs, then retry in 12s'))).toBe(
      12_000,
    );
    expect(parseRetryAfter(new Error('Limit 15000, Used 14000'))).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter(42)).toBeUndefined();
  });

  it('reads the response body too (Gemini RetryInfo)', () => {
    const body = JSON.stringify({
      error: {
        code: 429,
        details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '12s' }],
      },
    });
    const error = new APICallError({
      message: 'Resource has been exhausted (e.g. check quota).',
      url: 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent',
      requestBodyValues: {},
      statusCode: 429,
      responseBody: body,
    });
    expect(parseRetryAfter(error)).toBe(12_000);
  });
});
