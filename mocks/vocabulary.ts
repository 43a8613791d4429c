/**
 * The fault kit's vocabulary, as types only: the steps a script is made of (answers, provider errors, HTTP and
 * network failures, faults inside an answer), the requests it records, and what every wire renders a step from. It
 * imports nothing at run time, so every other file of the kit can depend on it and nothing depends back: the
 * builders are in `script.ts`, the rules a step must follow in `step-rules.ts`, the wires in their own files.
 */
import type { NetworkFailure } from './network-failure.js';

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
  | 'gemini';

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

/** The per-minute budget a rate limit ran out of: tokens (TPM) or requests (RPM). */
export type RateLimitBudget = 'tokens' | 'requests';

/**
 * What a rate-limit error says. Every field has a realistic default (a TPM limit on gpt-4o). The wording fields
 * shape OpenAI's message; Anthropic and Gemini word their own (`message` and `retryAfterSeconds` apply on
 * every wire).
 */
export interface RateLimitWording {
  /** Model named in the message (default `gpt-4o`). */
  model?: string;
  /** Organisation named in the message (default `org-mock`). */
  organization?: string;
  /** The budget that ran out: `tokens` per minute (default) or `requests` per minute. Also the body's `type`. */
  budget?: RateLimitBudget;
  /** The per-minute limit (default 30000 tokens / 500 requests). */
  limit?: number;
  /** Used so far this minute (default 29000 tokens / 500 requests). */
  used?: number;
  /** What this request asked for (default 1500 tokens / 1 request). */
  requested?: number;
  /**
   * The wait the server names, in seconds (default 11.054): "Please try again in 11.054s" (under a second in ms,
   * "644ms"), the budget's `x-ratelimit-reset-*` header and, rounded up to whole seconds, `retry-after`
   * (Anthropic: `retry-after` and the `anthropic-ratelimit-*` resets; Gemini: RetryInfo's `retryDelay`).
   */
  retryAfterSeconds?: number;
  /** The whole message instead of the one built from the fields above. */
  message?: string;
}

/** Which headers a rate-limit 429 carries (Gemini sends none: its wait is in the body). */
export interface RateLimitHeaderOptions {
  /** Send `retry-after` in whole seconds (default `true`); real 429s do not always carry it. */
  retryAfterHeader?: boolean;
  /** Send OpenAI's six `x-ratelimit-*` headers, or Anthropic's `anthropic-ratelimit-*` ones (default `true`). */
  rateLimitHeaders?: boolean;
  /**
   * Azure OpenAI's `retry-after-ms` header (OpenAI itself does not send it); sent only when given, on the
   * OpenAI wires. Gemini's `retryDelay` takes it instead of `retryAfterSeconds`.
   */
  retryAfterMs?: number;
}

/** The codes a streamed response really fails with (`response.failed`). */
export type ResponseFailureCode =
  | 'rate_limit_exceeded'
  | 'context_length_exceeded'
  | 'insufficient_quota'
  | 'server_error';

/** Options of `streamFault.responseFailed`. */
export interface ResponseFailedOptions {
  /** Output characters before the failure (0 = before any output). */
  afterChars: number;
  /** What the response fails with (default `server_error`). */
  code?: ResponseFailureCode;
  /** The message instead of the code's own. */
  message?: string;
  /** How a `rate_limit_exceeded` is worded (see {@link RateLimitWording}). */
  rateLimit?: RateLimitWording;
  /** Send the `error` event before `response.failed`, as the API does (default `true`). */
  errorEvent?: boolean;
}

/** A step that produces a model answer. */
export type AnswerStep = TextStep | ToolCallsStep;

/** Per-response facts a wire format needs: deterministic ids and the echoed model. */
export interface AnswerMeta {
  /** 1-based number of the answered request (ids are derived from it, so they are stable in tests). */
  n: number;
  /** The `model` of the request. */
  model: string;
  /** Unix seconds. */
  created: number;
  /** The parsed request body: a wire format reads request options from it (chat: `stream_options`). */
  body: Record<string, unknown>;
}

/** The in-band error fault. */
export type ErrorFault = Extract<StreamFault, { kind: 'error' }>;
