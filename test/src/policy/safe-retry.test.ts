import { describe, expect, it } from 'vitest';
import { CircuitOpenError } from '../../../src/errors/circuit-open-error.js';
import { ToolTimeoutError } from '../../../src/errors/tool-timeout-error.js';
import {
  notExecutedErrorCodes,
  notExecutedStatuses,
  provesNotExecuted,
} from '../../../src/policy/safe-retry.js';

const coded = (code: string, message = `connect ${code}`) => Object.assign(new Error(message), { code });
const withStatus = (status: number) => Object.assign(new Error(`HTTP ${status}`), { status });
/** What Node's `fetch` throws: a TypeError whose cause holds undici's error and its code. */
const fetchFailed = (cause: unknown) => new TypeError('fetch failed', { cause });
const circuitOpen = (cause?: unknown) =>
  new CircuitOpenError({ toolName: 'mailer', retryAfterMs: 30_000, reopensAt: 30_000, cause });

describe('provesNotExecuted', () => {
  it('the lists are the documented ones', () => {
    expect(notExecutedErrorCodes).toEqual([
      'ECONNREFUSED',
      'ENOTFOUND',
      'EAI_AGAIN',
      'UND_ERR_CONNECT_TIMEOUT',
    ]);
    expect(notExecutedStatuses).toEqual([429, 503]);
    expect(Object.isFrozen(notExecutedErrorCodes) && Object.isFrozen(notExecutedStatuses)).toBe(true);
  });

  it.each<[string, unknown]>([
    ['ECONNREFUSED on the error', coded('ECONNREFUSED')],
    ['ENOTFOUND on the error', coded('ENOTFOUND', 'getaddrinfo ENOTFOUND api.example.com')],
    ['EAI_AGAIN on the error', coded('EAI_AGAIN')],
    ['UND_ERR_CONNECT_TIMEOUT under fetch failed', fetchFailed(coded('UND_ERR_CONNECT_TIMEOUT'))],
    ['ECONNREFUSED under fetch failed', fetchFailed(coded('ECONNREFUSED'))],
    [
      'ECONNREFUSED in an AggregateError (happy eyeballs)',
      fetchFailed(
        Object.assign(new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')]), {
          code: 'ECONNREFUSED',
        }),
      ),
    ],
    ['status 503', withStatus(503)],
    ['status 429', withStatus(429)],
    ['statusCode 503 (AI SDK APICallError shape)', Object.assign(new Error('x'), { statusCode: 503 })],
    ['response.status 429', Object.assign(new Error('x'), { response: { status: 429 } })],
    ['503 on the cause', new Error('weather lookup failed', { cause: withStatus(503) })],
    ["a dependency's breaker rejecting the call (no cause)", circuitOpen()],
    ['an open circuit wrapped by the tool', new Error('lookup failed', { cause: circuitOpen() })],
    ['an open circuit whose cause was a refused connection', circuitOpen(coded('ECONNREFUSED'))],
  ])('proves it: %s', (_name, error) => {
    expect(provesNotExecuted(error)).toBe(true);
  });

  it.each<[string, unknown]>([
    ['a plain Error', new Error('SMTP said goodbye')],
    ['a thrown string', 'ECONNREFUSED'],
    ['undefined', undefined],
    ['null', null],
    ['a number', 503],
    ['ECONNRESET (the request may have arrived)', coded('ECONNRESET')],
    ['EPIPE', coded('EPIPE')],
    ['ETIMEDOUT', coded('ETIMEDOUT')],
    ['EHOSTUNREACH', coded('EHOSTUNREACH')],
    ['UND_ERR_SOCKET under fetch failed', fetchFailed(coded('UND_ERR_SOCKET'))],
    ['UND_ERR_HEADERS_TIMEOUT under fetch failed', fetchFailed(coded('UND_ERR_HEADERS_TIMEOUT'))],
    ['the code only in the message text', new Error('connect ECONNREFUSED 127.0.0.1:443')],
    ['status 500', withStatus(500)],
    ['status 502', withStatus(502)],
    ['status 504', withStatus(504)],
    ['status 408', withStatus(408)],
    ['status 400', withStatus(400)],
    [
      'a first status 500 with a 503 deeper down',
      Object.assign(new Error('x', { cause: withStatus(503) }), { status: 500 }),
    ],
    [
      "graceful-ai's own ToolTimeoutError (the attempt may still finish)",
      new ToolTimeoutError({ toolName: 'mailer', timeoutMs: 1000 }),
    ],
    ["an open circuit opened by this call's own failure (it ran)", circuitOpen(new Error('SMTP failed'))],
    ['an open circuit opened by a reset', circuitOpen(coded('ECONNRESET'))],
  ])('does not prove it: %s', (_name, error) => {
    expect(provesNotExecuted(error)).toBe(false);
  });

  it('never throws on a hostile error', () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('boom');
        },
        getPrototypeOf() {
          throw new Error('boom');
        },
      },
    );
    expect(provesNotExecuted(hostile)).toBe(false);
    expect(provesNotExecuted(new Error('x', { cause: hostile }))).toBe(false);
  });
});
