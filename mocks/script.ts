/**
 * Script steps for the OpenAI fault kit: what the mock "model" answers to each request.
 *
 * Steps are plain data (serialisable, comparable in tests) built with {@link reply}, {@link fault} and
 * {@link streamFault}. Every step is validated twice: by its builder (so a typo fails where it is written) and
 * again when a script is handed to a transport (so hand-written objects get an error naming their index).
 */

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
  /** An error frame inside the 200 stream after `afterChars` characters, then the stream ends. */
  | { kind: 'error'; afterChars: number; format: InBandErrorFormat; message?: string; code?: string }
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

type Fail = (field: string, problem: string) => never;

function nonNegative(value: unknown, field: string, fail: Fail, { integer = false } = {}): void {
  if (value === undefined) return;
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < 0 ||
    (integer && !Number.isInteger(value))
  ) {
    fail(field, `must be a non-negative ${integer ? 'integer' : 'finite number'}, got ${String(value)}`);
  }
}

function validateFault(f: unknown, fail: Fail): void {
  if (f === undefined) return;
  if (typeof f !== 'object' || f === null || !FAULT_KINDS.has((f as { kind?: string }).kind ?? '')) {
    fail('fault.kind', `must be one of ${[...FAULT_KINDS].join(', ')}`);
  }
  const fault = f as StreamFault;
  if (fault.kind === 'cut') {
    if ((fault.afterChars === undefined) === (fault.afterFrames === undefined)) {
      fail('fault', 'a cut needs exactly one of afterChars or afterFrames');
    }
    nonNegative(fault.afterFrames, 'fault.afterFrames', fail, { integer: true });
  } else if (fault.afterChars === undefined) {
    fail('fault.afterChars', 'is required');
  }
  nonNegative(fault.afterChars, 'fault.afterChars', fail, { integer: true });
  if (fault.kind === 'error' && !ERROR_FORMATS.has(fault.format)) {
    fail('fault.format', `must be one of ${[...ERROR_FORMATS].join(', ')}, got ${String(fault.format)}`);
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
 * Checks one step and throws a `TypeError` naming `where` (e.g. `step 2`) and the field.
 * @returns the same step, typed.
 */
export function validateStep(step: unknown, where: string): Step {
  const kind = (step as { kind?: unknown } | null)?.kind;
  const fail: Fail = (field, problem) => {
    throw new TypeError(
      `mock script ${where}${typeof kind === 'string' ? ` (${kind})` : ''}: ${field} ${problem}`,
    );
  };
  if (typeof step !== 'object' || step === null)
    fail('step', 'must be an object built with reply.* or fault.*');
  if (typeof kind !== 'string' || !KINDS.has(kind)) {
    fail('kind', `must be one of ${[...KINDS].join(', ')}, got ${JSON.stringify(kind)}`);
  }
  const s = step as Step;
  nonNegative(s.delayMs, 'delayMs', fail);
  if (s.kind === 'text' || s.kind === 'toolCalls') {
    nonNegative(s.frameDelayMs, 'frameDelayMs', fail);
    nonNegative(s.chunkChars, 'chunkChars', fail, { integer: true });
    if (s.chunkChars === 0) fail('chunkChars', 'must be at least 1');
    if (s.finishReason !== undefined && !FINISH_REASONS.has(s.finishReason)) {
      fail('finishReason', `must be one of ${[...FINISH_REASONS].join(', ')}, got ${String(s.finishReason)}`);
    }
    nonNegative(s.usage?.inputTokens, 'usage.inputTokens', fail, { integer: true });
    nonNegative(s.usage?.outputTokens, 'usage.outputTokens', fail, { integer: true });
    validateFault(s.fault, fail);
  }
  if (s.kind === 'text' && typeof s.text !== 'string') fail('text', 'must be a string');
  if (s.kind === 'toolCalls') {
    if (!Array.isArray(s.calls) || s.calls.length === 0) fail('calls', 'must be a non-empty array');
    for (const [i, call] of s.calls.entries()) validateCall(call, i, fail);
    if (s.text !== undefined && typeof s.text !== 'string') fail('text', 'must be a string');
  }
  if (s.kind === 'http') {
    if (!Number.isInteger(s.status) || s.status < 200 || s.status > 599) {
      fail('status', `must be an HTTP status 200-599, got ${String(s.status)}`);
    }
    for (const [name, value] of Object.entries(s.headers ?? {})) {
      if (typeof value !== 'string') fail(`headers.${name}`, 'must be a string');
    }
  }
  return s;
}

/** Builders for what the model says. */
export const reply = {
  /** The model answers `text`. Example: `reply.text('Hello', { chunkChars: 2 })`. */
  text(text: string, options: AnswerOptions = {}): TextStep {
    return validateStep({ kind: 'text', text, ...options }, 'reply.text') as TextStep;
  },
  /** The model calls several tools at once (parallel calls). Example: `reply.toolCalls([{ name: 'a', args: {} }])`. */
  toolCalls(calls: ToolCallSpec[], options: AnswerOptions & { text?: string } = {}): ToolCallsStep {
    return validateStep({ kind: 'toolCalls', calls, ...options }, 'reply.toolCalls') as ToolCallsStep;
  },
  /** The model calls one tool. Example: `reply.toolCall('read_file', { path: 'a.txt' })`. */
  toolCall(name: string, args: unknown = {}, options: AnswerOptions & { id?: string } = {}): ToolCallsStep {
    const { id, ...rest } = options;
    return reply.toolCalls([{ name, args, ...(id === undefined ? {} : { id }) }], rest);
  },
};

const openaiError = (message: string, type: string, code: string | null, param: string | null = null) => ({
  error: { message, type, param, code },
});

/** Builders for the HTTP-level faults providers really produce (bodies as OpenAI sends them). */
export const fault = {
  /**
   * 429 `rate_limit_exceeded` with `retry-after` (seconds, default 1) and, when given, `retry-after-ms`.
   */
  rateLimit(
    options: { retryAfterSeconds?: number; retryAfterMs?: number; message?: string } & LatencyOptions = {},
  ) {
    const { retryAfterSeconds = 1, retryAfterMs, message, delayMs } = options;
    const headers: Record<string, string> = {
      'retry-after': String(retryAfterSeconds),
      'x-ratelimit-limit-requests': '500',
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': `${retryAfterSeconds}s`,
    };
    if (retryAfterMs !== undefined) headers['retry-after-ms'] = String(retryAfterMs);
    const text =
      message ??
      `Rate limit reached for requests in organization org-mock on requests per min (RPM): Limit 500, Used 500, Requested 1. Please try again in ${retryAfterSeconds}s. Visit https://platform.openai.com/account/rate-limits to learn more.`;
    return fault.http(429, openaiError(text, 'requests', 'rate_limit_exceeded'), headers, { delayMs });
  },
  /** 429 `insufficient_quota`: a 429 that retrying never fixes. */
  insufficientQuota(options: LatencyOptions = {}) {
    const text =
      'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.';
    return fault.http(429, openaiError(text, 'insufficient_quota', 'insufficient_quota'), {}, options);
  },
  /** 5xx (default 500) with OpenAI's JSON body, or with `html: true` a proxy's HTML page. */
  serverError(status = 500, options: { html?: boolean } & LatencyOptions = {}) {
    const { html = false, delayMs } = options;
    if (html) {
      const title = `${status} ${STATUS_TEXT[status] ?? 'Server Error'}`;
      return fault.http(
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
    return fault.http(status, openaiError(text, 'server_error', null), {}, { delayMs });
  },
  /** 401 `invalid_api_key`. */
  unauthorized(options: LatencyOptions = {}) {
    const text =
      'Incorrect API key provided: sk-mock***. You can find your API key at https://platform.openai.com/account/api-keys.';
    return fault.http(401, openaiError(text, 'invalid_request_error', 'invalid_api_key'), {}, options);
  },
  /** 403 `unsupported_country_region_territory`. */
  forbidden(options: LatencyOptions = {}) {
    const body = openaiError(
      'Country, region, or territory not supported',
      'request_forbidden',
      'unsupported_country_region_territory',
    );
    return fault.http(403, body, {}, options);
  },
  /** 404 `model_not_found` for `model` (default `gpt-mock`). */
  notFound(options: { model?: string } & LatencyOptions = {}) {
    const { model = 'gpt-mock', delayMs } = options;
    const text = `The model \`${model}\` does not exist or you do not have access to it.`;
    return fault.http(404, openaiError(text, 'invalid_request_error', 'model_not_found'), {}, { delayMs });
  },
  /** 400 `context_length_exceeded` with OpenAI's exact body (chat wording). */
  contextLengthExceeded(options: { maxTokens?: number; requestedTokens?: number } & LatencyOptions = {}) {
    const { maxTokens = 128000, requestedTokens = 130000, delayMs } = options;
    const text = `This model's maximum context length is ${maxTokens} tokens. However, your messages resulted in ${requestedTokens} tokens. Please reduce the length of the messages.`;
    return fault.http(
      400,
      openaiError(text, 'invalid_request_error', 'context_length_exceeded', 'messages'),
      {},
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
    return validateStep(step, 'fault.http') as HttpStep;
  },
  /** No response at all: the connection fails (fetch rejects with a network `TypeError`). */
  networkError(options: LatencyOptions = {}): NetworkErrorStep {
    return validateStep({ kind: 'networkError', ...options }, 'fault.networkError') as NetworkErrorStep;
  },
};

const STATUS_TEXT: Record<number, string> = {
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Time-out',
};

/** Builders for faults inside an answer; pass them as the `fault` option of {@link reply.text} / {@link reply.toolCalls}. */
export const streamFault = {
  /** Connection reset after `afterChars` output characters or `afterFrames` SSE frames. */
  cut(at: { afterChars: number } | { afterFrames: number }): StreamFault {
    return { kind: 'cut', ...at };
  },
  /** The stream stalls after `afterChars` characters: no further byte, no end (until the client gives up). */
  stall(at: { afterChars: number }): StreamFault {
    return { kind: 'stall', ...at };
  },
  /** The body ends cleanly after `afterChars` characters, without a finish frame (or `[DONE]`). */
  endEarly(at: { afterChars: number }): StreamFault {
    return { kind: 'endEarly', ...at };
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
    return { kind: 'error', format, ...rest };
  },
  /** A frame whose data is not JSON after `afterChars` characters; the answer then goes on. */
  garbled(at: { afterChars: number }): StreamFault {
    return { kind: 'garbled', ...at };
  },
};
