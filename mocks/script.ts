/**
 * Script steps for the OpenAI fault kit: what the mock "model" answers to each request.
 *
 * Steps are plain data (serialisable, comparable in tests) built with {@link reply}, {@link fault} and
 * {@link streamFault}. Every step is validated twice: by its builder (so a typo fails where it is written) and
 * again when a script is handed to a transport (so hand-written objects get an error naming their index).
 * A number outside its rule throws a `RangeError`, anything else that is wrong a `TypeError` (see `checks.ts`).
 */
import { checkAt, checkFields, type Fields, rule } from './checks.js';
import { NETWORK_FAILURES, type NetworkFailure } from './network-failure.js';
import {
  checkRateLimit,
  insufficientQuotaError,
  type RateLimitHeaderOptions,
  type RateLimitWording,
  type ResponseFailedOptions,
  rateLimitError,
  rateLimitHeaders,
  responseFailedFault,
} from './openai-errors.js';

/** OpenAI chat finish reasons; the Responses API renders them as `status` / `incomplete_details`. */
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
  /** A fault that interrupts the answer; see {@link streamFault}. */
  fault?: StreamFault;
}

/** In-band error frame formats a 200 stream can carry. */
export type InBandErrorFormat =
  /** Chat: `data: {"error":{…}}`; Responses: `{"type":"error","code":…,"message":…}`. */
  | 'openai'
  /** Responses: a `response.failed` event with `response.error` (on chat rendered like `openai`). */
  | 'response.failed'
  /** An Anthropic-style `{"type":"error","error":{"type":"overloaded_error",…}}` relayed by a proxy. */
  | 'anthropic-overloaded';

/**
 * A fault inside an answer. Positions count characters of model output (text, then tool-call arguments, in the
 * order they are streamed); `afterChars: 0` means before any output. When a non-streaming request meets a
 * stream fault, the JSON body is affected instead (see docs/testing.md).
 */
export type StreamFault =
  /** Connection reset after `afterChars` characters or after `afterFrames` SSE frames. */
  | { kind: 'cut'; afterChars?: number; afterFrames?: number }
  /** Never sends another byte after `afterChars` characters (the client must time out or abort). */
  | { kind: 'stall'; afterChars: number }
  /** Ends the body cleanly after `afterChars` characters, without a finish frame. */
  | { kind: 'endEarly'; afterChars: number }
  /**
   * An error frame inside the 200 stream after `afterChars` characters, then the stream ends. `type` and `param`
   * fill the error object (defaults `server_error`, `null`); `errorEvent` (format `response.failed` only) sends an
   * `error` event before the `response.failed` event, as the real Responses API does.
   */
  | {
      kind: 'error';
      afterChars: number;
      format: InBandErrorFormat;
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
  /** Tool call id (default `call_<request>_<index>`). */
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

/** An HTTP response with any status, body and headers (all HTTP faults are this step). */
export interface HttpStep extends LatencyOptions {
  kind: 'http';
  status: number;
  /** A string is sent verbatim; anything else as JSON. */
  body: unknown;
  headers?: Record<string, string>;
}

/** The connection fails before any response (fetch rejects with a network error). */
export interface NetworkErrorStep extends LatencyOptions {
  kind: 'networkError';
  /** How it fails (default `reset`); see {@link NetworkFailure}. */
  failure?: NetworkFailure;
}

/** One scripted answer. */
export type Step = TextStep | ToolCallsStep | HttpStep | NetworkErrorStep;

/** Wire API a request was sent to. */
export type Api = 'chat' | 'responses';

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
  /** `true` when the body asked for a stream (`stream: true`). */
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

const KINDS = new Set(['text', 'toolCalls', 'http', 'networkError']);
const FINISH_REASONS = new Set<string>(['stop', 'length', 'tool_calls', 'content_filter']);
const FAULT_KINDS = new Set(['cut', 'stall', 'endEarly', 'error', 'garbled']);
const ERROR_FORMATS = new Set<string>(['openai', 'response.failed', 'anthropic-overloaded']);

/** The numeric fields of each step and fault, with their rules (see `checks.ts`). */
const LATENCY_FIELDS: Fields = [['delayMs', rule.delayMs]];
const ANSWER_FIELDS: Fields = [
  ...LATENCY_FIELDS,
  ['frameDelayMs', rule.delayMs],
  ['chunkChars', rule.size],
  ['usage', rule.object],
  ['usage.inputTokens', rule.count],
  ['usage.outputTokens', rule.count],
];
const HTTP_FIELDS: Fields = [['status', rule.status], ...LATENCY_FIELDS];
const AT_FIELDS: Fields = [['afterChars', rule.count]];
const CUT_FIELDS: Fields = [...AT_FIELDS, ['afterFrames', rule.count]];
const TOKEN_FIELDS: Fields = [
  ['maxTokens', rule.count],
  ['requestedTokens', rule.count],
];

type Fail = (field: string, problem: string) => never;

const failAt =
  (where: string): Fail =>
  (field, problem) => {
    throw new TypeError(`${where}: ${field} ${problem}`);
  };

/** Checks a stream fault given at `where`; `prefix` is `fault.` inside a step, empty in a `streamFault` builder. */
function checkFault(f: unknown, where: string, prefix: string): void {
  if (f === undefined) return;
  const fail = failAt(where);
  if (typeof f !== 'object' || f === null || !FAULT_KINDS.has((f as { kind?: string }).kind ?? '')) {
    fail(`${prefix}kind`, `must be one of ${[...FAULT_KINDS].join(', ')}`);
  }
  const fault = f as StreamFault;
  checkFields(where, fault, fault.kind === 'cut' ? CUT_FIELDS : AT_FIELDS, prefix);
  if (fault.kind === 'cut') {
    if ((fault.afterChars === undefined) === (fault.afterFrames === undefined)) {
      fail(prefix ? 'fault' : 'options', 'a cut needs exactly one of afterChars or afterFrames');
    }
  } else if (fault.afterChars === undefined) {
    fail(`${prefix}afterChars`, 'is required');
  }
  if (fault.kind === 'error') {
    if (!ERROR_FORMATS.has(fault.format)) {
      fail(`${prefix}format`, `must be one of ${[...ERROR_FORMATS].join(', ')}, got ${String(fault.format)}`);
    }
    for (const name of ['message', 'code', 'type'] as const) {
      if (fault[name] !== undefined && typeof fault[name] !== 'string')
        fail(`${prefix}${name}`, 'must be a string');
    }
    if (fault.param !== undefined && fault.param !== null && typeof fault.param !== 'string') {
      fail(`${prefix}param`, 'must be a string or null');
    }
    if (fault.errorEvent !== undefined && typeof fault.errorEvent !== 'boolean') {
      fail(`${prefix}errorEvent`, 'must be a boolean');
    }
  }
}

function isJsonValue(value: unknown, seen = new Set<object>()): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object' || seen.has(value)) return false;
  const proto = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return false;
  seen.add(value);
  const ok = Object.values(value).every((v) => isJsonValue(v, seen));
  seen.delete(value);
  return ok;
}

function validateCall(call: unknown, i: number, fail: Fail): void {
  const at = `calls[${i}]`;
  if (typeof call !== 'object' || call === null) fail(at, 'must be an object');
  const c = call as ToolCallSpec;
  if (typeof c.name !== 'string' || c.name === '') fail(`${at}.name`, 'must be a non-empty string');
  if (c.id !== undefined && (typeof c.id !== 'string' || c.id === ''))
    fail(`${at}.id`, 'must be a non-empty string');
  if (c.rawArgs !== undefined) {
    if (typeof c.rawArgs !== 'string') fail(`${at}.rawArgs`, 'must be a string');
    if (c.args !== undefined) fail(`${at}`, 'give args or rawArgs, not both');
    return;
  }
  if (typeof c.args === 'string') {
    try {
      JSON.parse(c.args);
    } catch {
      fail(
        `${at}.args`,
        `is a string but not JSON text: ${JSON.stringify(c.args.slice(0, 40))} (use rawArgs for malformed JSON)`,
      );
    }
  } else if (c.args !== undefined && !isJsonValue(c.args)) {
    fail(
      `${at}.args`,
      'must be JSON-serialisable (plain objects, arrays, strings, finite numbers, booleans, null)',
    );
  }
}

/**
 * Checks one step of a script and throws naming `where` (e.g. `step 2`) and the field: a `RangeError` for a
 * number outside its rule, a `TypeError` for anything else.
 * @returns the same step, typed.
 */
export function validateStep(step: unknown, where: string): Step {
  const kind = (step as { kind?: unknown } | null)?.kind;
  return checkStep(step, `mock script ${where}${typeof kind === 'string' ? ` (${kind})` : ''}`);
}

/** Checks one step; errors start with `where` (a builder's name, or `mock script step N (kind)`). */
function checkStep(step: unknown, where: string): Step {
  const fail = failAt(where);
  const kind = (step as { kind?: unknown } | null)?.kind;
  if (typeof step !== 'object' || step === null)
    fail('step', 'must be an object built with reply.* or fault.*');
  if (typeof kind !== 'string' || !KINDS.has(kind)) {
    fail('kind', `must be one of ${[...KINDS].join(', ')}, got ${JSON.stringify(kind)}`);
  }
  const s = step as Step;
  const answer = s.kind === 'text' || s.kind === 'toolCalls';
  checkFields(where, s, answer ? ANSWER_FIELDS : s.kind === 'http' ? HTTP_FIELDS : LATENCY_FIELDS);
  if (answer) {
    if (s.finishReason !== undefined && !FINISH_REASONS.has(s.finishReason)) {
      fail('finishReason', `must be one of ${[...FINISH_REASONS].join(', ')}, got ${String(s.finishReason)}`);
    }
    checkFault(s.fault, where, 'fault.');
  }
  if (s.kind === 'text' && typeof s.text !== 'string') fail('text', 'must be a string');
  if (s.kind === 'toolCalls') {
    if (!Array.isArray(s.calls) || s.calls.length === 0) fail('calls', 'must be a non-empty array');
    for (const [i, call] of s.calls.entries()) validateCall(call, i, fail);
    if (s.text !== undefined && typeof s.text !== 'string') fail('text', 'must be a string');
  }
  if (s.kind === 'networkError' && s.failure !== undefined && !NETWORK_FAILURES.has(s.failure)) {
    fail('failure', `must be one of ${[...NETWORK_FAILURES].join(', ')}, got ${String(s.failure)}`);
  }
  if (s.kind === 'http') {
    for (const [name, value] of Object.entries(s.headers ?? {})) {
      if (typeof value !== 'string') fail(`headers.${name}`, 'must be a string');
    }
  }
  return s;
}

const toolCallsStep = (where: string, calls: ToolCallSpec[], options: AnswerOptions & { text?: string }) =>
  checkStep({ kind: 'toolCalls', calls, ...options }, where) as ToolCallsStep;

/** Builders for what the model says. */
export const reply = {
  /** The model answers `text`. Example: `reply.text('Hello', { chunkChars: 2 })`. */
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

const openaiError = (message: string, type: string, code: string | null, param: string | null = null) => ({
  error: { message, type, param, code },
});

/** An HTTP step built by `where`; every `fault` builder ends here, so its own name is on any error. */
function httpStep(
  where: string,
  status: number,
  body: unknown,
  headers: Record<string, string>,
  options: LatencyOptions,
): HttpStep {
  const step = { kind: 'http', status, body, headers, ...(options.delayMs === undefined ? {} : options) };
  return checkStep(step, where) as HttpStep;
}

/** Builders for the HTTP-level faults providers really produce (bodies as OpenAI sends them). */
export const fault = {
  /**
   * 429 `rate_limit_exceeded` as OpenAI sends it: by default a TPM limit on gpt-4o, "Please try again in
   * 11.054s", `retry-after: 12` and the `x-ratelimit-*` headers (see {@link RateLimitWording} and
   * {@link RateLimitHeaderOptions}). Example: `fault.rateLimit({ budget: 'requests', retryAfterSeconds: 2 })`.
   */
  rateLimit(options: RateLimitWording & RateLimitHeaderOptions & LatencyOptions = {}) {
    checkRateLimit('fault.rateLimit', options);
    const { delayMs } = options;
    const body = { error: rateLimitError(options) };
    return httpStep('fault.rateLimit', 429, body, rateLimitHeaders(options, options), { delayMs });
  },
  /** 429 `insufficient_quota`: a 429 that retrying never fixes; no `retry-after`. */
  insufficientQuota(options: LatencyOptions = {}) {
    return httpStep('fault.insufficientQuota', 429, { error: insufficientQuotaError }, {}, options);
  },
  /** 5xx (default 500) with OpenAI's JSON body, or with `html: true` a proxy's HTML page. */
  serverError(status = 500, options: { html?: boolean } & LatencyOptions = {}) {
    const { html = false, delayMs } = options;
    checkAt('fault.serverError', 'status', status, rule.status);
    if (html) {
      const title = `${status} ${STATUS_TEXT[status] ?? 'Server Error'}`;
      return httpStep(
        'fault.serverError',
        status,
        `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>cloudflare</center>\r\n</body>\r\n</html>\r\n`,
        { 'content-type': 'text/html' },
        { delayMs },
      );
    }
    const text =
      status === 503
        ? 'The server is overloaded or not ready yet.'
        : 'The server had an error while processing your request. Sorry about that!';
    return httpStep('fault.serverError', status, openaiError(text, 'server_error', null), {}, { delayMs });
  },
  /** 401 `invalid_api_key`. */
  unauthorized(options: LatencyOptions = {}) {
    const text =
      'Incorrect API key provided: sk-mock***. You can find your API key at https://platform.openai.com/account/api-keys.';
    const body = openaiError(text, 'invalid_request_error', 'invalid_api_key');
    return httpStep('fault.unauthorized', 401, body, {}, options);
  },
  /** 403 `unsupported_country_region_territory`. */
  forbidden(options: LatencyOptions = {}) {
    const body = openaiError(
      'Country, region, or territory not supported',
      'request_forbidden',
      'unsupported_country_region_territory',
    );
    return httpStep('fault.forbidden', 403, body, {}, options);
  },
  /** 404 `model_not_found` for `model` (default `gpt-mock`). */
  notFound(options: { model?: string } & LatencyOptions = {}) {
    const { model = 'gpt-mock', delayMs } = options;
    const text = `The model \`${model}\` does not exist or you do not have access to it.`;
    const body = openaiError(text, 'invalid_request_error', 'model_not_found');
    return httpStep('fault.notFound', 404, body, {}, { delayMs });
  },
  /** 400 `context_length_exceeded` with OpenAI's exact body (chat wording). */
  contextLengthExceeded(options: { maxTokens?: number; requestedTokens?: number } & LatencyOptions = {}) {
    checkFields('fault.contextLengthExceeded', options, TOKEN_FIELDS);
    const { maxTokens = 128000, requestedTokens = 130000, delayMs } = options;
    const text = `This model's maximum context length is ${maxTokens} tokens. However, your messages resulted in ${requestedTokens} tokens. Please reduce the length of the messages.`;
    const body = openaiError(text, 'invalid_request_error', 'context_length_exceeded', 'messages');
    return httpStep('fault.contextLengthExceeded', 400, body, {}, { delayMs });
  },
  /** Any HTTP response. A string body is sent verbatim (content-type text/plain unless given), anything else as JSON. */
  http(
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
    options: LatencyOptions = {},
  ): HttpStep {
    return httpStep('fault.http', status, body, headers, options);
  },
  /**
   * No response at all: fetch rejects with a network `TypeError`. `failure` says how (default `reset`): `reset`,
   * `refused`, `dns` or `timeout` (never answers); see docs/testing.md for what each transport can play.
   */
  networkError(options: { failure?: NetworkFailure } & LatencyOptions = {}): NetworkErrorStep {
    return checkStep({ kind: 'networkError', ...options }, 'fault.networkError') as NetworkErrorStep;
  },
};

const STATUS_TEXT: Record<number, string> = {
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Time-out',
};

/** A stream fault built by `where`, checked at once. */
function streamFaultOf<F extends StreamFault>(where: string, f: F): F {
  checkFault(f, where, '');
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
  /** The body ends cleanly after `afterChars` characters, without a finish frame (or `[DONE]`). */
  endEarly(at: { afterChars: number }): StreamFault {
    return streamFaultOf('streamFault.endEarly', { kind: 'endEarly', ...at });
  },
  /**
   * An in-band error frame in the 200 stream after `afterChars` characters (0 = before any output). `format`
   * defaults to `openai`; `code` defaults to `server_error` (`overloaded_error` for `anthropic-overloaded`).
   */
  error(at: {
    afterChars: number;
    format?: InBandErrorFormat;
    message?: string;
    code?: string;
  }): StreamFault {
    const { format = 'openai', ...rest } = at;
    return streamFaultOf('streamFault.error', { kind: 'error', format, ...rest });
  },
  /** A frame whose data is not JSON after `afterChars` characters; the answer then goes on. */
  garbled(at: { afterChars: number }): StreamFault {
    return streamFaultOf('streamFault.garbled', { kind: 'garbled', ...at });
  },
  /**
   * The response fails inside its 200 stream after `afterChars` characters, as the Responses API reports rate
   * limits, context overflow and quota errors once streaming has begun: an `error` event, then `response.failed`
   * (`errorEvent: false` sends `response.failed` alone). On chat: an error chunk with the same error object.
   * `code` defaults to `server_error`; `rateLimit` words a `rate_limit_exceeded`.
   * Example: `streamFault.responseFailed({ afterChars: 0, code: 'rate_limit_exceeded' })`.
   */
  responseFailed(at: ResponseFailedOptions): StreamFault {
    const where = 'streamFault.responseFailed';
    return streamFaultOf(where, responseFailedFault(where, at));
  },
};
