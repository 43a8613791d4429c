import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewayAuthenticationError, GatewayFailedDependencyError } from '@ai-sdk/gateway';
import { APICallError, TypeValidationError } from '@ai-sdk/provider';
import { generateText, InvalidToolInputError, NoSuchToolError, RetryError, StreamProviderError } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyError, isContextOverflow, resolvePatterns } from '../../../src/classify/classify.js';
import { errorFacts, textHead, textTail } from '../../../src/classify/error-facts.js';
import { defaultPatterns, retryablePatterns } from '../../../src/classify/patterns.js';
import type { ErrorPattern } from '../../../src/classify/types.js';
import { CircuitOpenError } from '../../../src/errors/circuit-open-error.js';
import { ContextOverflowError } from '../../../src/errors/context-overflow-error.js';
import { ModelRetry } from '../../../src/errors/model-retry.js';
import { StreamInterruptedError } from '../../../src/errors/stream-interrupted-error.js';
import { StreamStalledError } from '../../../src/errors/stream-stalled-error.js';
import { ToolTimeoutError } from '../../../src/errors/tool-timeout-error.js';

const apiError = (
  statusCode: number | undefined,
  data: unknown,
  extra: { message?: string; headers?: Record<string, string>; isRetryable?: boolean; cause?: unknown } = {},
) =>
  new APICallError({
    message: extra.message ?? 'request failed',
    url: 'https://api.openai.com/v1/chat/completions',
    requestBodyValues: {},
    statusCode,
    responseHeaders: extra.headers,
    responseBody: data === undefined ? undefined : JSON.stringify(data),
    isRetryable: extra.isRetryable,
    cause: extra.cause,
    data,
  });

const systemError = (message: string, code: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(message), { code, errno: -1, ...extra });

const overflowMessage =
  "This model's maximum context length is 128000 tokens. However, you requested 130000 tokens.";

describe('classifyError: structured fields', () => {
  it("reads the AI SDK's structural overflow mark (failureReason: 'context-length-exceeded')", () => {
    const marked = Object.assign(apiError(400, { error: { message: 'Bad Request' } }), {
      failureReason: 'context-length-exceeded',
    });
    expect(classifyError(marked)).toEqual({ kind: 'overflow', reason: 'provider:context_length_exceeded' });
    expect(
      classifyError(Object.assign(new Error('boom'), { failureReason: 'other' }), { unknown: 'permanent' })
        .kind,
    ).toBe('permanent');
  });

  it('maps HTTP statuses: 408, 409, 425, 429 and 5xx transient; other 4xx and 501 (unsupported) permanent', () => {
    // 409: a lock; the AI SDK and OpenAI's client retry it.
    for (const status of [408, 409, 425, 429, 500, 502, 503, 504, 529]) {
      expect(classifyError(apiError(status, undefined))).toEqual({
        kind: 'transient',
        reason: `status:${status}`,
      });
    }
    for (const status of [400, 401, 403, 404, 405, 422, 501]) {
      expect(classifyError(apiError(status, undefined))).toEqual({
        kind: 'permanent',
        reason: `status:${status}`,
      });
    }
    // `status` (fetch Response-like, tool HTTP clients) as well as `statusCode`.
    expect(classifyError(Object.assign(new Error('Not Found'), { status: 404 })).reason).toBe('status:404');
    expect(classifyError({ response: { status: 503 }, message: 'upstream' }).reason).toBe('status:503');
  });

  it('leaves a 424 to its code, flag and text: the gateway says change the request, Bedrock says retry', () => {
    // What @ai-sdk/gateway builds from a 424 `failed_dependency` body (documented as not retryable).
    const gateway = new GatewayFailedDependencyError({
      message: 'A dependency required by the request was unavailable',
    });
    expect([gateway.statusCode, gateway.isRetryable]).toEqual([424, false]);
    expect(classifyError(gateway)).toEqual({ kind: 'permanent', reason: 'provider:failed_dependency' });
    // Bedrock's ModelStreamErrorException (HTTP 424, "Retry your request"): by its header, else by its text.
    const bedrock = (headers?: Record<string, string>) =>
      apiError(424, undefined, {
        message: 'An error occurred while streaming the response. Retry your request.',
        headers,
      });
    expect(
      classifyError(
        bedrock({
          'x-amzn-errortype':
            'ModelStreamErrorException:http://internal.amazon.com/coral/com.amazon.bedrock/',
        }),
      ),
    ).toEqual({ kind: 'transient', reason: 'provider:modelstreamerrorexception' });
    expect(classifyError(bedrock()).kind).toBe('transient');
    // A 424 that says nothing more is permanent, as the AI SDK (isRetryable: false) and OpenAI's client treat it.
    expect(classifyError(apiError(424, undefined))).toEqual({ kind: 'permanent', reason: 'retryable:false' });
    expect(classifyError({ status: 424, message: 'Failed Dependency' })).toEqual({
      kind: 'permanent',
      reason: 'status:424',
    });
  });

  it('treats unsupported operations without a status as permanent', () => {
    expect(classifyError(new Error('Operation not supported by this backend')).kind).toBe('permanent');
    expect(classifyError(new Error('Method not implemented.')).reason).toBe('pattern:unsupported');
  });

  it('reads the provider code at every path the AI SDK providers use', () => {
    const code = { code: 'context_length_exceeded', message: overflowMessage, type: 'invalid_request_error' };
    // HTTP 400 body: err.data.error.code
    expect(classifyError(apiError(400, { error: code })).reason).toBe('provider:context_length_exceeded');
    // SSE error frame before output: err.data.code
    expect(classifyError(apiError(200, code, { isRetryable: false })).reason).toBe(
      'provider:context_length_exceeded',
    );
    // responses `response.failed`: err.data.response.error.code
    const failed = { type: 'response.failed', response: { id: 'resp_1', status: 'failed', error: code } };
    expect(classifyError(apiError(200, failed)).reason).toBe('provider:context_length_exceeded');
    // StreamProviderError after output: err.code
    const streamError = new StreamProviderError({ message: 'too long', code: 'context_length_exceeded' });
    expect(classifyError(streamError).reason).toBe('provider:context_length_exceeded');
    // After the SDK's retries: err.lastError…
    const retry = new RetryError({
      message: 'Failed after 3 attempts. Last error: too long',
      reason: 'errorNotRetryable',
      errors: [apiError(503, undefined), apiError(400, { error: code })],
    });
    expect(classifyError(retry).kind).toBe('overflow');
  });

  it('classifies the provider stream-error object middleware sees mid-stream by its fields', () => {
    const part = (fields: Record<string, unknown>) => ({
      [Symbol.for('vercel.ai.providerStreamError')]: true,
      ...fields,
    });
    expect(
      classifyError(part({ message: 'Overloaded', type: 'overloaded_error', isRetryable: true })),
    ).toEqual({
      kind: 'transient',
      reason: 'provider:overloaded_error',
    });
    expect(classifyError(part({ message: 'bad', code: 'context_length_exceeded', data: {} })).kind).toBe(
      'overflow',
    );
    expect(classifyError(part({ message: 'boom', statusCode: 502 })).reason).toBe('status:502');
    expect(
      classifyError(part({ message: 'Something odd', isRetryable: false }), { unknown: 'transient' }),
    ).toEqual({
      kind: 'permanent',
      reason: 'retryable:false',
    });
  });

  it('uses isRetryable of a status-less APICallError (a socket reset mid-body is retryable)', () => {
    expect(
      classifyError(apiError(undefined, undefined, { isRetryable: true, message: 'Cannot connect' })),
    ).toEqual({
      kind: 'transient',
      reason: 'retryable:true',
    });
  });

  it('reads Node and undici error codes, also deep in a fetch TypeError', () => {
    for (const code of ['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'ENOTFOUND']) {
      expect(classifyError(systemError(`connect ${code} 10.0.0.1:443`, code)).reason).toBe(`code:${code}`);
    }
    const socket = Object.assign(new Error('other side closed'), {
      name: 'SocketError',
      code: 'UND_ERR_SOCKET',
    });
    expect(classifyError(new TypeError('fetch failed', { cause: socket }))).toEqual({
      kind: 'transient',
      reason: 'code:UND_ERR_SOCKET',
    });
    const connectTimeout = Object.assign(
      new Error('Connect Timeout Error (attempted address: api.x.ai:443)'),
      {
        name: 'ConnectTimeoutError',
        code: 'UND_ERR_CONNECT_TIMEOUT',
      },
    );
    const wrapped = apiError(undefined, undefined, {
      message: 'Cannot connect to API: Connect Timeout Error',
      cause: new TypeError('fetch failed', { cause: connectTimeout }),
      isRetryable: true,
    });
    expect(classifyError(wrapped).reason).toBe('code:UND_ERR_CONNECT_TIMEOUT');
  });

  it('classifies a real undici fetch failure (loopback port with no listener)', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const error = await fetch(`http://127.0.0.1:${port}/`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(classifyError(error)).toEqual({ kind: 'transient', reason: 'code:ECONNREFUSED' });
  });

  it('knows the AI SDK tool errors and validation errors as permanent', () => {
    expect(classifyError(new NoSuchToolError({ toolName: 'weather', availableTools: ['search'] }))).toEqual({
      kind: 'permanent',
      reason: 'name:AI_NoSuchToolError',
    });
    const invalid = new InvalidToolInputError({
      toolName: 'weather',
      toolInput: '{"city":1}',
      cause: new Error('x'),
    });
    expect(classifyError(invalid).reason).toBe('name:AI_InvalidToolInputError');
    // A TypeValidationError is permanent, unless the value that failed validation is a provider error frame.
    const badChunk = new TypeValidationError({
      value: { type: 'response.output_text.delta' },
      cause: new Error('x'),
    });
    expect(classifyError(badChunk).reason).toBe('name:AI_TypeValidationError');
    const relayed = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
    expect(classifyError(new TypeValidationError({ value: relayed, cause: new Error('x') }))).toEqual({
      kind: 'transient',
      reason: 'provider:overloaded_error',
    });
    // On the tool-error part the SDK hands over only the text; its name still decides, before any text pattern.
    const asText =
      'AI_InvalidToolInputError: Invalid input for tool fetch_page: {"url":"x","timeout":"soon"}';
    expect(classifyError(asText)).toEqual({ kind: 'permanent', reason: 'name:AI_InvalidToolInputError' });
    expect(
      classifyError(Object.assign(new Error('[{"code":"invalid_type"}]'), { name: 'ZodError' })).kind,
    ).toBe('permanent');
  });
});

describe('classifyError: what `ai` itself throws', () => {
  // ai 7 replaces a gateway authentication failure with a friendlier bare error (no status, no cause; vercel/ai
  // packages/ai/src/prompt/wrap-gateway-error.ts). Re-sending a revoked key never helps.
  const failWithGatewayAuth = async (): Promise<unknown> => {
    const model = new MockLanguageModelV4({
      doGenerate: async () => {
        throw GatewayAuthenticationError.createContextualError({
          apiKeyProvided: true,
          oidcTokenProvided: false,
        });
      },
    });
    return generateText({ model, prompt: 'hi', maxRetries: 0 }).then(
      () => expect.unreachable(),
      (error: unknown) => error,
    );
  };

  it('a gateway auth failure re-wrapped by `ai` is permanent, by its name (development)', async () => {
    const error = await failWithGatewayAuth();
    expect(error).toMatchObject({ name: 'GatewayAuthenticationError' });
    expect(error).not.toHaveProperty('statusCode');
    expect((error as Error).cause).toBeUndefined();
    expect(classifyError(error)).toEqual({ kind: 'permanent', reason: 'name:GatewayAuthenticationError' });
  });

  it('…and by its text in production, where it is an AISDKError named GatewayError', async () => {
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      const error = await failWithGatewayAuth();
      expect(error).toMatchObject({ name: 'GatewayError' });
      expect(classifyError(error)).toEqual({ kind: 'permanent', reason: 'pattern:auth' });
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
  });
});

describe('classifyError: order', () => {
  it('abort first: AbortError (also the SDK backoff abort) and the caller’s aborted signal are never retried', () => {
    expect(classifyError(new DOMException('This operation was aborted', 'AbortError'))).toEqual({
      kind: 'abort',
      reason: 'name:AbortError',
    });
    expect(classifyError(new DOMException('Delay was aborted', 'AbortError')).kind).toBe('abort');
    expect(classifyError(systemError('The operation was aborted', 'ABORT_ERR')).reason).toBe(
      'code:ABORT_ERR',
    );
    const controller = new AbortController();
    controller.abort();
    // Once the caller has aborted, even a 503 or a timeout is the caller's abort.
    expect(classifyError(apiError(503, undefined), { signal: controller.signal })).toEqual({
      kind: 'abort',
      reason: 'signal:aborted',
    });
    // An abort never carries a retry hint.
    const abortWithHint = Object.assign(new Error('aborted; retry in 5s'), { name: 'AbortError' });
    expect(classifyError(abortWithHint).retryAfterMs).toBeUndefined();
  });

  it('timeouts, stalls and interrupted streams are transient: ours (even with an abort as cause), TimeoutError', () => {
    expect(classifyError(new ToolTimeoutError({ toolName: 'search', timeoutMs: 5000 }))).toEqual({
      kind: 'transient',
      reason: 'name:ToolTimeoutError',
    });
    const withAbortCause = Object.assign(new ToolTimeoutError({ timeoutMs: 5 }), {
      cause: new DOMException('aborted', 'AbortError'),
    });
    expect(classifyError(withAbortCause).kind).toBe('transient');
    expect(
      classifyError(new StreamStalledError({ stallTimeoutMs: 30_000 }), { unknown: 'permanent' }),
    ).toEqual({
      kind: 'transient',
      reason: 'name:StreamStalledError',
    });
    expect(
      classifyError(new StreamInterruptedError({ ending: 'no-finish', charsEmitted: 0 }), {
        unknown: 'permanent',
      }),
    ).toEqual({ kind: 'transient', reason: 'name:StreamInterruptedError' });
    expect(
      classifyError(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
    ).toEqual({
      kind: 'transient',
      reason: 'name:TimeoutError',
    });
  });

  it('ModelRetry and CircuitOpenError are permanent whatever their cause; ContextOverflowError is overflow', () => {
    const reset = systemError('read ECONNRESET', 'ECONNRESET');
    expect(classifyError(new ModelRetry('Ask for a city name.', { cause: reset }))).toEqual({
      kind: 'permanent',
      reason: 'name:ModelRetry',
    });
    const open = new CircuitOpenError({
      toolName: 'search',
      retryAfterMs: 12_000,
      reopensAt: 0,
      cause: apiError(503, undefined, { headers: { 'retry-after': '1' } }),
    });
    // The breaker's own wait wins over the hint of the failure that opened it.
    expect(classifyError(open)).toEqual({
      kind: 'permanent',
      reason: 'name:CircuitOpenError',
      retryAfterMs: 12_000,
    });
    // The marker decides, not the name: a foreign class named ModelRetry is just an unknown error.
    expect(classifyError(Object.assign(new Error('x'), { name: 'ModelRetry' })).reason).toBe('unknown');
    expect(classifyError(new ContextOverflowError({ cause: new Error('x') })).kind).toBe('overflow');
  });

  it('the most specific provider code decides: `code` before `type`, with or without a 4xx status', () => {
    const revoked = {
      message: 'Incorrect API key provided: sk-mock***.',
      type: 'server_error',
      code: 'invalid_api_key',
    };
    expect(classifyError(revoked)).toEqual({ kind: 'permanent', reason: 'provider:invalid_api_key' });
    expect(classifyError({ ...revoked, statusCode: 400 })).toEqual({
      kind: 'permanent',
      reason: 'status:400',
    });
    const throttled = { message: 'Slow down', type: 'invalid_request_error', code: 'rate_limit_exceeded' };
    expect(classifyError(throttled)).toMatchObject({
      kind: 'transient',
      reason: 'provider:rate_limit_exceeded',
    });
  });

  it('overflow wins over "503" and "connection error" in the same message', () => {
    const error = new Error(`HTTP 503 connection error while retrying: ${overflowMessage}`);
    expect(classifyError(error).kind).toBe('overflow');
  });

  it('a limit is permanent even on a 429; a short parsed retry window wins over quota prose', () => {
    expect(
      classifyError(
        apiError(429, { error: { message: 'You exceeded your current quota', code: 'insufficient_quota' } }),
      ),
    ).toEqual({ kind: 'permanent', reason: 'provider:insufficient_quota' });
    const gemini = (delay: string) =>
      apiError(429, {
        error: {
          code: 429,
          message: `You exceeded your current quota, please check your plan and billing details. Please retry in ${delay}.`,
          status: 'RESOURCE_EXHAUSTED',
        },
      });
    expect(classifyError(gemini('47s'))).toEqual({
      kind: 'transient',
      reason: 'status:429',
      retryAfterMs: 47_000,
    });
    expect(classifyError(gemini('47s'), { shortRetryWindowMs: 10_000 })).toEqual({
      kind: 'permanent',
      reason: 'pattern:quota-exceeded',
      retryAfterMs: 47_000,
    });
    expect(classifyError(gemini('2h'))).toMatchObject({ kind: 'permanent', retryAfterMs: 7_200_000 });
  });

  it('"Too many tokens" rate limits are transient, not overflow, also without a status', () => {
    expect(
      classifyError(new Error('ThrottlingException: Too many tokens, please wait before trying again.')),
    ).toEqual({ kind: 'transient', reason: 'pattern:too-many-requests' });
    expect(isContextOverflow(new Error('Too many tokens, please wait before trying again.'))).toBe(false);
  });

  it('never reads a status inside a number: "Limit 15000" is not a 500, "1.503" is not a 503', () => {
    const tpm = new Error(
      'Request too large for gpt-4 on tokens per min (TPM): Limit 15000, Requested 20000.',
    );
    expect(classifyError(tpm, { unknown: 'permanent' })).toEqual({ kind: 'permanent', reason: 'unknown' });
    expect(
      classifyError(new Error('version 1.503 rejected the payload'), { unknown: 'permanent' }).reason,
    ).toBe('unknown');
    expect(classifyError(new Error('took 5000ms'), { unknown: 'permanent' }).reason).toBe('unknown');
    expect(classifyError(new Error('Upstream said 503, giving up')).reason).toBe('pattern:http-status');
    expect(classifyError(new Error('Error code: 429')).reason).toBe('pattern:http-status');
  });

  it('recognises every retryable phrase of the session spec as a word', () => {
    const phrases: Array<[string, string]> = [
      ['Overloaded', 'overloaded'],
      ['Rate limit exceeded', 'rate-limit'],
      ['Too Many Requests', 'too-many-requests'],
      ['Service Unavailable', 'service-unavailable'],
      ['Internal Server Error', 'server-error'],
      ['An internal error occurred', 'internal-error'],
      ['Connection error.', 'connection'],
      ['connect: connection refused', 'connection'],
      ['Connection reset by peer', 'connection'],
      ['connection lost', 'connection'],
      ['fetch failed', 'fetch-failed'],
      ['socket hang up', 'socket-hang-up'],
      ['other side closed', 'other-side-closed'],
      ['terminated', 'terminated'],
      ['upstream connect error or disconnect/reset before headers', 'upstream'],
      ['Request timed out.', 'timeout'],
      ['"retryDelay" is set', 'retry-delay'],
      ['You can retry your request', 'retry-request'],
    ];
    for (const [message, id] of phrases) {
      expect(classifyError(new Error(message), { unknown: 'permanent' }), message).toEqual({
        kind: 'transient',
        reason: `pattern:${id}`,
      });
    }
    // Words, not fragments.
    for (const message of ['The process was determinated', 'rateless limiter', 'sunderloaded']) {
      expect(classifyError(new Error(message), { unknown: 'permanent' }).reason, message).toBe('unknown');
    }
  });

  it('unknown errors default to transient (tools) and follow `unknown`', () => {
    expect(classifyError(new Error('something odd'))).toEqual({ kind: 'transient', reason: 'unknown' });
    expect(classifyError(new Error('something odd'), { unknown: 'permanent' })).toEqual({
      kind: 'permanent',
      reason: 'unknown',
    });
    for (const value of [undefined, null, 42, Symbol('x'), () => 1, 'plain string']) {
      expect(classifyError(value).reason).toBe('unknown');
    }
    expect(classifyError('socket hang up')).toEqual({ kind: 'transient', reason: 'pattern:socket-hang-up' });
  });
});

describe('classifyError: overrides win over the rules, in both directions', () => {
  const serviceDown = apiError(503, { error: { message: 'Service Unavailable' } });
  const badRequest = apiError(400, { error: { message: 'Invalid value for city', code: 'invalid_value' } });

  it('the classify hook: a kind, a full classification, or undefined to fall back', () => {
    expect(classifyError(serviceDown, { classify: () => 'permanent' })).toEqual({
      kind: 'permanent',
      reason: 'override:classify',
    });
    expect(classifyError(badRequest, { classify: () => ({ kind: 'transient', reason: 'mine' }) })).toEqual({
      kind: 'transient',
      reason: 'mine',
    });
    expect(classifyError(serviceDown, { classify: () => undefined }).reason).toBe('status:503');
    const abort = new DOMException('aborted', 'AbortError');
    expect(classifyError(abort, { classify: () => 'transient' }).kind).toBe('transient');
    // …but no override makes a call the caller aborted retryable.
    const controller = new AbortController();
    controller.abort();
    const signal = controller.signal;
    expect(
      classifyError(abort, { signal, classify: () => 'transient', treatAsTransient: ['AbortError'] }),
    ).toEqual({
      kind: 'abort',
      reason: 'signal:aborted',
    });
  });

  it('a throwing hook throws (a bug in your hook is not silently turned into a verdict)', () => {
    const hook = () => {
      throw new Error('hook bug');
    };
    expect(() => classifyError(serviceDown, { classify: hook })).toThrow('hook bug');
  });

  it('manifests by status', () => {
    expect(classifyError(serviceDown, { treatAsPermanent: [503] })).toEqual({
      kind: 'permanent',
      reason: 'override:treatAsPermanent:503',
    });
    expect(classifyError(badRequest, { treatAsTransient: [400] })).toEqual({
      kind: 'transient',
      reason: 'override:treatAsTransient:400',
    });
  });

  it('manifests by error code or name (any case)', () => {
    const timeout = systemError('connect ETIMEDOUT 10.0.0.1:443', 'ETIMEDOUT');
    expect(classifyError(timeout, { treatAsPermanent: ['ETIMEDOUT'] }).kind).toBe('permanent');
    expect(classifyError(badRequest, { treatAsTransient: ['INVALID_VALUE'] }).kind).toBe('transient');
    const zod = Object.assign(new Error('bad'), { name: 'ZodError' });
    expect(classifyError(zod, { treatAsTransient: ['ZodError'] }).reason).toBe(
      'override:treatAsTransient:ZodError',
    );
  });

  it('manifests by the Bedrock exception name in the x-amzn-errortype header', () => {
    const throttled = apiError(
      429,
      { message: 'Too many tokens, please wait before trying again.' },
      {
        headers: {
          'x-amzn-errortype': 'ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/',
        },
      },
    );
    expect(classifyError(throttled, { treatAsPermanent: ['ThrottlingException'] }).kind).toBe('permanent');
  });

  it('manifests by message pattern (a g-flagged RegExp behaves the same every call)', () => {
    const warming = apiError(404, { error: { message: 'Deployment is warming up' } });
    const warmingUp = /warming up/gi;
    for (let i = 0; i < 3; i++)
      expect(classifyError(warming, { treatAsTransient: [warmingUp] }).kind).toBe('transient');
    expect(classifyError(serviceDown, { treatAsPermanent: [/unavailable/i] }).reason).toBe(
      'override:treatAsPermanent:/unavailable/i',
    );
  });

  it('treatAsPermanent wins when both manifests match', () => {
    expect(classifyError(serviceDown, { treatAsPermanent: [503], treatAsTransient: [503] }).kind).toBe(
      'permanent',
    );
  });

  it('pattern sets: additions are checked first, a function replaces a set', () => {
    const custom: ErrorPattern = { id: 'acme-window', pattern: /\bconversation too big for acme\b/i };
    const options = { patterns: { overflow: [custom] } };
    expect(classifyError(new Error('Conversation too big for ACME'), options)).toEqual({
      kind: 'overflow',
      reason: 'pattern:acme-window',
    });
    expect(resolvePatterns(options.patterns)).toBe(resolvePatterns(options.patterns));
    expect(resolvePatterns(options.patterns).retryable).toBe(retryablePatterns);
    const noTerminated = {
      patterns: { retryable: (d: readonly ErrorPattern[]) => d.filter((p) => p.id !== 'terminated') },
    };
    expect(classifyError(new Error('terminated'), { ...noTerminated, unknown: 'permanent' }).reason).toBe(
      'unknown',
    );
    expect(resolvePatterns(undefined)).toBe(defaultPatterns);
  });
});

describe('classifyError: cause chains and hostile input', () => {
  it('walks cause chains and aggregate errors', () => {
    const inner = systemError('read ECONNRESET', 'ECONNRESET');
    const wrapped = new Error('tool failed', { cause: new Error('client failed', { cause: inner }) });
    expect(classifyError(wrapped).reason).toBe('code:ECONNRESET');
    const aggregate = new AggregateError([new Error('x'), apiError(502, undefined)], 'all failed');
    expect(classifyError(aggregate).reason).toBe('status:502');
  });

  it('is cycle-safe and bounded in depth', () => {
    const a = new Error('a') as Error & { cause?: unknown };
    const b = new Error('b', { cause: a });
    a.cause = b;
    expect(classifyError(a)).toEqual({ kind: 'transient', reason: 'unknown' });
    const selfList = Object.assign(new Error('self'), { errors: [] as unknown[] });
    selfList.errors.push(selfList, selfList);
    expect(classifyError(selfList).reason).toBe('unknown');
    let deep: unknown = systemError('read ECONNRESET', 'ECONNRESET');
    for (let i = 0; i < 100; i++) deep = new Error(`layer ${i}`, { cause: deep });
    // Past the depth bound the reset is not seen: the chain walk stays cheap.
    expect(classifyError(deep, { unknown: 'permanent' }).reason).toBe('unknown');
  });

  it('survives throwing getters and proxies', () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('gotcha');
        },
      },
    );
    expect(classifyError(hostile)).toEqual({ kind: 'transient', reason: 'unknown' });
    const getter = Object.defineProperty(new Error('x'), 'cause', {
      get() {
        throw new Error('no');
      },
    });
    expect(classifyError(getter).reason).toBe('unknown');
  });

  it('never throws, whatever the input (property)', () => {
    const errorish = fc.record(
      {
        message: fc.oneof(fc.string(), fc.anything()),
        code: fc.oneof(
          fc.constantFrom('ECONNRESET', 'context_length_exceeded', 'insufficient_quota'),
          fc.anything(),
        ),
        statusCode: fc.oneof(fc.integer({ min: -1, max: 700 }), fc.anything()),
        responseHeaders: fc.dictionary(fc.constantFrom('retry-after', 'retry-after-ms', 'x'), fc.anything()),
        responseBody: fc.oneof(fc.string(), fc.anything()),
        data: fc.anything(),
        isRetryable: fc.anything(),
        cause: fc.anything(),
        errors: fc.anything(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(fc.anything(), errorish, fc.string()), (input) => {
        const result = classifyError(input);
        expect(['transient', 'permanent', 'overflow', 'abort']).toContain(result.kind);
        expect(typeof result.reason).toBe('string');
      }),
      { numRuns: 500 },
    );
  });

  it('scans only a bounded view of attacker-sized text (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 30_000, max: 400_000 }),
        fc.integer({ min: 0, max: 4 }),
        (size, nodes) => {
          let error: unknown = apiError(undefined, undefined, { message: 'x'.repeat(size) });
          for (let i = 0; i < nodes; i++) error = new Error('y'.repeat(size), { cause: error });
          const { text } = errorFacts(error);
          expect(text.length).toBeLessThanOrEqual(textHead + textTail + 8);
        },
      ),
      { numRuns: 20 },
    );
    // A word buried in the middle of a megabyte is outside the view; at the start or the end it is inside.
    const filler = 'a'.repeat(500_000);
    expect(classifyError(new Error(`${filler} Overloaded ${filler}`), { unknown: 'permanent' }).reason).toBe(
      'unknown',
    );
    expect(classifyError(new Error(`Overloaded ${filler}${filler}`)).reason).toBe('pattern:overloaded');
    expect(classifyError(new Error(`${filler}${filler} Overloaded`)).reason).toBe('pattern:overloaded');
  });
});
