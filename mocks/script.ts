/**
 * Script steps for the fault kit: what the mock "model" answers to each request, on every wire it speaks
 * (OpenAI chat and responses, Anthropic Messages, Gemini).
 *
 * Steps are plain data (serialisable, comparable in tests) built with {@link reply}, {@link fault} and
 * {@link streamFault}. Every step is validated twice: by its builder (so a typo fails where it is written) and
 * again when a script is handed to a transport (so hand-written objects get an error naming their index); the
 * rules are in `step-rules.ts`. A step says WHAT happens; each wire renders it in its own bodies and frames.
 */
import type { NetworkFailure } from './network-failure.js';
import { responseFailedFault } from './openai-errors.js';
import { checkStep, checkStreamFault } from './step-rules.js';
import type {
  AnswerOptions,
  ApiError,
  ApiErrorStep,
  HttpStep,
  InBandErrorFormat,
  LatencyOptions,
  NetworkErrorStep,
  RateLimitHeaderOptions,
  RateLimitWording,
  ResponseFailedOptions,
  StreamFault,
  TextStep,
  ToolCallSpec,
  ToolCallsStep,
} from './vocabulary.js';

const toolCallsStep = (where: string, calls: ToolCallSpec[], options: AnswerOptions & { text?: string }) =>
  checkStep({ kind: 'toolCalls', calls, ...options }, where) as ToolCallsStep;

/** Builders for what the model says. */
export const reply = {
  /** The model answers `text`. Example: `reply.text('Hello', { chunkChars: 2, reasoning: 'The user greets me.' })`. */
  text(text: string, options: AnswerOptions = {}): TextStep {
    return checkStep({ kind: 'text', text, ...options }, 'reply.text') as TextStep;
  },
  /** The model calls several tools at once (parallel calls). Example: `reply.toolCalls([{ name: 'a', args: {} }])`. */
  toolCalls(calls: ToolCallSpec[], options: AnswerOptions & { text?: string } = {}): ToolCallsStep {
    return toolCallsStep('reply.toolCalls', calls, options);
  },
  /** The model calls one tool. Example: `reply.toolCall('read_file', { path: 'a.txt' })`. */
  toolCall(name: string, args: unknown = {}, options: AnswerOptions & { id?: string } = {}): ToolCallsStep {
    const { id, ...rest } = options;
    return toolCallsStep('reply.toolCall', [{ name, args, ...(id === undefined ? {} : { id }) }], rest);
  },
};

/** A provider-error step built by `where` from the given options (unset ones left out), checked at once. */
function apiErrorStep<E extends ApiError>(
  where: string,
  error: E,
  options: LatencyOptions = {},
): ApiErrorStep {
  const given = Object.entries({ ...error, ...options }).filter(([, value]) => value !== undefined);
  return checkStep({ kind: 'apiError', ...Object.fromEntries(given) }, where) as ApiErrorStep;
}

/**
 * Builders for the HTTP-level faults providers really produce. Each names what happened; the wire that is hit
 * answers with its provider's real status, body and headers (table in docs/testing.md).
 */
export const fault = {
  /**
   * Rate limited (429), by default a wait of 11.054 s: `retry-after: 12` (whole seconds, rounded up). OpenAI:
   * `rate_limit_exceeded` worded as the API words it (a TPM limit on gpt-4o, "Please try again in 11.054s"),
   * its six `x-ratelimit-*` headers, and `retry-after-ms` only when given; Anthropic: `rate_limit_error` and its
   * `anthropic-ratelimit-*` headers; Gemini: `RESOURCE_EXHAUSTED` with a `RetryInfo` `retryDelay` (see
   * {@link RateLimitWording} and {@link RateLimitHeaderOptions}). Example:
   * `fault.rateLimit({ budget: 'requests', retryAfterSeconds: 2 })`.
   */
  rateLimit(options: RateLimitWording & RateLimitHeaderOptions & LatencyOptions = {}): ApiErrorStep {
    const { delayMs, ...rest } = options;
    return apiErrorStep('fault.rateLimit', { error: 'rateLimit', ...rest }, { delayMs });
  },
  /**
   * Out of quota or credit, which retrying never fixes (OpenAI 429 `insufficient_quota`, Anthropic 400 credit
   * balance, Gemini 429 daily quota); no `retry-after`.
   */
  insufficientQuota(options: LatencyOptions = {}): ApiErrorStep {
    return apiErrorStep('fault.insufficientQuota', { error: 'insufficientQuota' }, options);
  },
  /** The provider is overloaded (Anthropic 529 `overloaded_error`, Gemini 503 `UNAVAILABLE`, OpenAI 503). */
  overloaded(options: LatencyOptions = {}): ApiErrorStep {
    return apiErrorStep('fault.overloaded', { error: 'overloaded' }, options);
  },
  /** 5xx (default 500) with the provider's JSON body, or with `html: true` a proxy's HTML page. */
  serverError(status = 500, options: { html?: boolean } & LatencyOptions = {}): ApiErrorStep {
    const { html, delayMs } = options;
    return apiErrorStep('fault.serverError', { error: 'serverError', status, html }, { delayMs });
  },
  /** A bad API key (OpenAI 401 `invalid_api_key`, Anthropic 401 `authentication_error`, Gemini 400 `API_KEY_INVALID`). */
  unauthorized(options: LatencyOptions = {}): ApiErrorStep {
    return apiErrorStep('fault.unauthorized', { error: 'unauthorized' }, options);
  },
  /** 403: the key may not use this (OpenAI region, Anthropic `permission_error`, Gemini `PERMISSION_DENIED`). */
  forbidden(options: LatencyOptions = {}): ApiErrorStep {
    return apiErrorStep('fault.forbidden', { error: 'forbidden' }, options);
  },
  /** 404 for `model` (default: the model the request asked for). */
  notFound(options: { model?: string } & LatencyOptions = {}): ApiErrorStep {
    const { model, delayMs } = options;
    return apiErrorStep('fault.notFound', { error: 'notFound', model }, { delayMs });
  },
  /** 400: the prompt exceeds the context window, in the provider's exact wording (defaults per provider). */
  contextLengthExceeded(
    options: { maxTokens?: number; requestedTokens?: number } & LatencyOptions = {},
  ): ApiErrorStep {
    const { delayMs, ...rest } = options;
    return apiErrorStep(
      'fault.contextLengthExceeded',
      { error: 'contextLengthExceeded', ...rest },
      { delayMs },
    );
  },
  /** Any HTTP response. A string body is sent verbatim (content-type text/plain unless given), anything else as JSON. */
  http(
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
    options: LatencyOptions = {},
  ): HttpStep {
    const step = { kind: 'http', status, body, headers, ...(options.delayMs === undefined ? {} : options) };
    return checkStep(step, 'fault.http') as HttpStep;
  },
  /**
   * No response at all, on any wire: fetch rejects with a network `TypeError`. `failure` says how (default
   * `reset`): `reset`, `refused`, `dns` or `timeout` (never answers); see docs/testing.md for what each transport
   * can play.
   */
  networkError(options: { failure?: NetworkFailure } & LatencyOptions = {}): NetworkErrorStep {
    return checkStep({ kind: 'networkError', ...options }, 'fault.networkError') as NetworkErrorStep;
  },
};

/** A stream fault built by `where`, checked at once. */
function streamFaultOf<F extends StreamFault>(where: string, f: F): F {
  checkStreamFault(f, where);
  return f;
}

/** Builders for faults inside an answer; pass them as the `fault` option of {@link reply.text} / {@link reply.toolCalls}. */
export const streamFault = {
  /** Connection reset after `afterChars` output characters or `afterFrames` SSE frames (exactly one of them). */
  cut(
    at: { afterChars: number; afterFrames?: never } | { afterFrames: number; afterChars?: never },
  ): StreamFault {
    return streamFaultOf('streamFault.cut', { kind: 'cut', ...at });
  },
  /** The stream stalls after `afterChars` characters: no further byte, no end (until the client gives up). */
  stall(at: { afterChars: number }): StreamFault {
    return streamFaultOf('streamFault.stall', { kind: 'stall', ...at });
  },
  /**
   * The body ends cleanly after `afterChars` characters, without a finish frame (or `[DONE]`). With
   * `finish: 'other'` it ends the way a provider ends a stream it cut short with a finish that names no reason, in the
   * wire's own frames: Anthropic a `message_delta` with `stop_reason: null` and `message_stop` (`@ai-sdk/anthropic`
   * reports finish `'other'`), Gemini a last chunk with `finishReason: "FINISH_REASON_UNSPECIFIED"` (`'other'`),
   * OpenAI chat the usage chunk and `[DONE]` with no `finish_reason` ever sent (`@ai-sdk/openai` reports
   * `'interrupted'`; xAI's and DeepSeek's packages `'other'`), Responses no terminal event at all.
   */
  endEarly(at: { afterChars: number; finish?: 'other' }): StreamFault {
    return streamFaultOf('streamFault.endEarly', { kind: 'endEarly', ...at });
  },
  /**
   * An in-band error frame in the 200 stream after `afterChars` characters (0 = before any output). `format`
   * defaults to the wire's own; `code` defaults to `server_error` (OpenAI), `overloaded_error` (Anthropic),
   * `INTERNAL` (Gemini).
   */
  error(at: {
    afterChars: number;
    format?: InBandErrorFormat;
    message?: string;
    code?: string;
  }): StreamFault {
    return streamFaultOf('streamFault.error', { kind: 'error', ...at });
  },
  /** A frame whose data is not JSON after `afterChars` characters; the answer then goes on. */
  garbled(at: { afterChars: number }): StreamFault {
    return streamFaultOf('streamFault.garbled', { kind: 'garbled', ...at });
  },
  /**
   * The response fails inside its 200 stream after `afterChars` characters, as the Responses API reports rate
   * limits, context overflow and quota errors once streaming has begun: an `error` event, then `response.failed`
   * (`errorEvent: false` sends `response.failed` alone). On chat: an error chunk with the same error object; on
   * Anthropic and Gemini that chunk relayed (as a proxy in front of OpenAI would). `code` defaults to
   * `server_error`; `rateLimit` words a `rate_limit_exceeded`.
   * Example: `streamFault.responseFailed({ afterChars: 0, code: 'rate_limit_exceeded' })`.
   */
  responseFailed(at: ResponseFailedOptions): StreamFault {
    const where = 'streamFault.responseFailed';
    return streamFaultOf(where, responseFailedFault(where, at));
  },
};
