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
import {
  type RateLimitHeaderOptions,
  type RateLimitWording,
  type ResponseFailedOptions,
  responseFailedFault,
} from './openai-errors.js';
import { checkStep, checkStreamFault } from './step-rules.js';

/** OpenAI chat finish reasons; every other wire renders them in its own words (see docs/testing.md). */
export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

/** Token usage reported with an answer. Defaults: `inputTokens: 10`, `outputTokens`: ⌈output chars / 4⌉. */
export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
}

/** Timing shared by every step. */
export interface LatencyOptions {
  /** Milliseconds before the response headers are sent (default 0). */
  delayMs?: number;
}

/**
 * Reasoning the model shows before its answer. Anthropic: a `thinking` block (or `redacted_thinking`); OpenAI
 * responses: a `reasoning` item (summary text, `encrypted_content`); Gemini: `thought: true` parts and a
 * `thoughtSignature`. The OpenAI chat wire has no reasoning: a step with it is answered with an HTTP 400 naming
 * the problem.
 */
export type Reasoning =
  /** Thinking text and the opaque signature the provider attaches to it (default `sig_mock_<request>`). */
  | { text: string; signature?: string }
  /** Thinking the client cannot read, only its opaque data (Anthropic `redacted_thinking`). */
  | { redacted: string };

/** Options of a streamed or non-streamed answer ({@link reply.text}, {@link reply.toolCalls}). */
export interface AnswerOptions extends LatencyOptions {
  /** Finish reason (default `stop` for text, `tool_calls` for tool calls). */
  finishReason?: FinishReason;
  /** Reported usage (see {@link Usage} for defaults). */
  usage?: Usage;
  /** Characters of output per streamed delta frame (default 4). */
  chunkChars?: number;
  /** Milliseconds between streamed frames (default 0: all frames are written at once). */
  frameDelayMs?: number;
  /** Reasoning before the answer; a string is thinking text with the default signature. */
  reasoning?: string | Reasoning;
  /** A fault that interrupts the answer; see {@link streamFault}. */
  fault?: StreamFault;
}

/**
 * In-band error formats a 200 stream can carry. Without a format, each wire sends its own: `openai` on chat and
 * responses, `anthropic` on Anthropic Messages, `gemini` on Gemini. Another provider's format is relayed as that
 * provider frames it (as a proxy in front of it would).
 */
export type InBandErrorFormat =
  /** Chat: `data: {"error":{…}}`; Responses: `{"type":"error","code":…,"message":…}`. */
  | 'openai'
  /** Responses: a `response.failed` event with `response.error` (every other wire renders it like `openai`). */
  | 'response.failed'
  /** Anthropic: `event: error` with `{"type":"error","error":{"type":"overloaded_error",…}}`. */
  | 'anthropic'
  /** Gemini: a `data: {"error":{"code":…,"message":…,"status":…}}` chunk. */
  | 'gemini'
  /** @deprecated Use `anthropic` (the same frame); kept through 0.x. */
  | 'anthropic-overloaded';

/**
 * A fault inside an answer. Positions count characters of model output (reasoning text, then text, then
 * tool-call arguments, in the order they are streamed); `afterChars: 0` means before any output. When a
 * non-streaming request meets a stream fault, the JSON body is affected instead (see docs/testing.md).
 */
export type StreamFault =
  /** Connection reset after `afterChars` characters or after `afterFrames` SSE frames. */
  | { kind: 'cut'; afterChars?: number; afterFrames?: number }
  /** Never sends another byte after `afterChars` characters (the client must time out or abort). */
  | { kind: 'stall'; afterChars: number }
  /**
   * Ends the body cleanly after `afterChars` characters: without a finish frame, or (`finish: 'other'`) with the
   * wire's frames for a finish that names no reason (see {@link streamFault.endEarly}).
   */
  | { kind: 'endEarly'; afterChars: number; finish?: 'other' }
  /**
   * An error frame inside the 200 stream after `afterChars` characters, then the stream ends. `code` is the
   * OpenAI `code`, the Anthropic error `type` or the Gemini `status`, by format. In OpenAI's error object `type`
   * and `param` fill the fields of those names (defaults `server_error`, `null`); `errorEvent` (format
   * `response.failed` on the responses wire) sends an `error` event before `response.failed`, as the real
   * Responses API does.
   */
  | {
      kind: 'error';
      afterChars: number;
      format?: InBandErrorFormat;
      message?: string;
      code?: string;
      type?: string;
      param?: string | null;
      errorEvent?: boolean;
    }
  /** A frame whose data is not JSON after `afterChars` characters; the answer then continues normally. */
  | { kind: 'garbled'; afterChars: number };

/** One tool call in a {@link ToolCallsStep}. */
export interface ToolCallSpec {
  /** Tool name as the SDK knows it. */
  name: string;
  /** Arguments: a JSON value (serialised) or a JSON text (sent verbatim after validation). */
  args?: unknown;
  /** Arguments sent verbatim and NOT validated, to script malformed JSON from a model. */
  rawArgs?: string;
  /** Tool call id (default `call_mock_<request>_<index>`; Anthropic `toolu_mock_…`; Gemini sends none). */
  id?: string;
}

/** The model answers with text. */
export interface TextStep extends AnswerOptions {
  kind: 'text';
  text: string;
}

/** The model calls one or more tools (several = parallel calls), optionally after some text. */
export interface ToolCallsStep extends AnswerOptions {
  kind: 'toolCalls';
  calls: ToolCallSpec[];
  text?: string;
}

/** An HTTP response with any status, body and headers, sent verbatim on every wire. */
export interface HttpStep extends LatencyOptions {
  kind: 'http';
  status: number;
  /** A string is sent verbatim; anything else as JSON. */
  body: unknown;
  headers?: Record<string, string>;
}

/** An error a provider answers with, by what it means; each wire renders its own status, body and headers. */
export type ApiError =
  | ({ error: 'rateLimit' } & RateLimitWording & RateLimitHeaderOptions)
  | { error: 'insufficientQuota' }
  | { error: 'overloaded' }
  | { error: 'serverError'; status: number; html?: boolean }
  | { error: 'unauthorized' }
  | { error: 'forbidden' }
  | { error: 'notFound'; model?: string }
  | { error: 'contextLengthExceeded'; maxTokens?: number; requestedTokens?: number };

/** A provider error (built with {@link fault}), rendered as the wire that was hit sends it. */
export type ApiErrorStep = ApiError & LatencyOptions & { kind: 'apiError' };

/** The connection fails before any response (fetch rejects with a network error). */
export interface NetworkErrorStep extends LatencyOptions {
  kind: 'networkError';
  /** How it fails (default `reset`); see {@link NetworkFailure}. */
  failure?: NetworkFailure;
}

/** One scripted answer. */
export type Step = TextStep | ToolCallsStep | HttpStep | ApiErrorStep | NetworkErrorStep;

/**
 * Wire API a request was sent to: OpenAI `chat` (`/chat/completions`) and `responses` (`/responses`),
 * Anthropic `messages` (`/messages`), Gemini `generateContent` (`:generateContent`, `:streamGenerateContent`).
 */
export type Api = 'chat' | 'responses' | 'messages' | 'generateContent';

/** A request as the mock received it. */
export interface RecordedRequest {
  method: string;
  /** URL path, e.g. `/v1/chat/completions`. */
  path: string;
  /** Parsed JSON body (`undefined` when it could not be parsed). */
  body: unknown;
  /** Request headers, lower-case names. */
  headers: Record<string, string>;
  /** Arrival time in ms (from the transport's clock; `Date.now` by default). */
  time: number;
  api: Api;
  /** `true` when a stream was asked for (`stream: true` in the body; Gemini: `:streamGenerateContent`). */
  stream: boolean;
}

/** What a script function gets besides the request. */
export interface ScriptContext {
  /** 0-based number of this request among the requests the script answered or was asked to answer. */
  index: number;
  /** Every request recorded so far, this one last. */
  requests: readonly RecordedRequest[];
}

/** Chooses the step for a request; `undefined` means the script is exhausted. */
export type ScriptFunction = (request: RecordedRequest, ctx: ScriptContext) => Step | undefined;

/**
 * A script: a list of steps (one per request, in order), a function of the request, or both (the list
 * first, then the function for every later request).
 */
export type Script = readonly Step[] | ScriptFunction | { steps: readonly Step[]; rest?: ScriptFunction };

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
