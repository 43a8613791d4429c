/**
 * OpenAI errors as the API sends them (chat and responses share them): the provider errors of `fault.*`, the
 * rate-limit wording and headers (whose options every wire reads), and the failures inside a 200 stream
 * (`streamFault.responseFailed`). Each shape names the public material it was checked against.
 */
import { DEFAULT_RETRY_AFTER_SECONDS, type ErrorWire } from './api-errors.js';
import { checkAt, checkFields, type Fields, rule } from './checks.js';
import type {
  RateLimitHeaderOptions,
  RateLimitWording,
  ResponseFailedOptions,
  ResponseFailureCode,
  StreamFault,
} from './vocabulary.js';

/** An OpenAI error object: `{ message, type, param, code }`. */
export interface OpenAIErrorObject {
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

const WORDING_FIELDS: Fields = [
  ['limit', rule.count],
  ['used', rule.count],
  ['requested', rule.count],
  ['retryAfterSeconds', rule.headerNumber],
];
const HEADER_FIELDS: Fields = [['retryAfterMs', rule.headerNumber]];
const BUDGETS = new Set<string>(['tokens', 'requests']);

/** Checks rate-limit options given at `where` (under `prefix` when nested), each field by its rule. */
export function checkRateLimit(
  where: string,
  options: RateLimitWording & RateLimitHeaderOptions,
  prefix = '',
): void {
  checkAt(where, prefix ? prefix.slice(0, -1) : 'options', options, rule.object);
  checkFields(where, options, [...WORDING_FIELDS, ...HEADER_FIELDS], prefix);
  for (const name of ['model', 'organization', 'message'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'string') {
      throw new TypeError(
        `${where}: option '${prefix}${name}' must be a string; got ${String(options[name])}.`,
      );
    }
  }
  for (const name of ['retryAfterHeader', 'rateLimitHeaders'] as const) {
    checkAt(where, prefix + name, options[name], rule.boolean);
  }
  if (options.budget !== undefined && !BUDGETS.has(options.budget)) {
    throw new TypeError(
      `${where}: option '${prefix}budget' must be tokens or requests; got ${String(options.budget)}.`,
    );
  }
}

/**
 * A duration as OpenAI writes it in `x-ratelimit-reset-*` and in messages, Go's `time.Duration` format:
 * `644ms`, `11.054s`, `1m26.4s`, `6m0s` (OpenAI's rate-limit guide shows `1s` and `6m0s`).
 */
export function goDuration(seconds: number): string {
  if (seconds > 0 && seconds < 1) return `${Math.round(seconds * 1000)}ms`;
  const whole = (n: number) => Math.round(n * 1000) / 1000;
  if (seconds < 60) return `${whole(seconds)}s`;
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = `${minutes}m${whole(seconds % 60)}s`;
  return hours > 0 ? `${hours}h${rest}` : rest;
}

/** Every wording field resolved; the defaults are the numbers of a TPM or an RPM limit. */
function resolved(wording: RateLimitWording) {
  const budget = wording.budget ?? 'tokens';
  const tokens = budget === 'tokens';
  return {
    model: wording.model ?? 'gpt-4o',
    organization: wording.organization ?? 'org-mock',
    budget,
    limit: wording.limit ?? (tokens ? 30000 : 500),
    used: wording.used ?? (tokens ? 29000 : 500),
    requested: wording.requested ?? (tokens ? 1500 : 1),
    retryAfterSeconds: wording.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS,
  };
}

/**
 * The error object of a rate limit. Wording and `type` (`tokens` / `requests`) as the API sends them, e.g.
 * "Rate limit reached for gpt-4o in organization org-… on tokens per min (TPM): Limit 30000, Used 29937,
 * Requested 385. Please try again in 644ms." (BuilderIO/micro-agent issue 86; openai/codex issue 88 shows the
 * same object, `type: 'tokens'`, inside a Responses stream).
 */
export function rateLimitError(wording: RateLimitWording = {}): OpenAIErrorObject {
  const r = resolved(wording);
  const unit = r.budget === 'tokens' ? 'tokens per min (TPM)' : 'requests per min (RPM)';
  const message =
    wording.message ??
    `Rate limit reached for ${r.model} in organization ${r.organization} on ${unit}: Limit ${r.limit}, Used ${r.used}, Requested ${r.requested}. Please try again in ${goDuration(r.retryAfterSeconds)}. Visit https://platform.openai.com/account/rate-limits to learn more.`;
  return { message, type: r.budget, param: null, code: 'rate_limit_exceeded' };
}

/**
 * The headers of a rate-limit 429. `x-ratelimit-*` as OpenAI's rate-limit guide lists them (limit, remaining and
 * reset for requests and tokens; resets as Go durations). The budget that did not run out refills its next unit:
 * a request every 60 s / limit (500 RPM: `120ms`); tokens are shown as full.
 */
export function rateLimitHeaders(
  wording: RateLimitWording = {},
  options: RateLimitHeaderOptions = {},
): Record<string, string> {
  const r = resolved(wording);
  const headers: Record<string, string> = {};
  if (options.retryAfterHeader ?? true) headers['retry-after'] = String(Math.ceil(r.retryAfterSeconds));
  if (options.retryAfterMs !== undefined) headers['retry-after-ms'] = String(options.retryAfterMs);
  if (options.rateLimitHeaders ?? true) {
    const left = String(Math.max(0, r.limit - r.used));
    const wait = goDuration(r.retryAfterSeconds);
    const tokens = r.budget === 'tokens';
    Object.assign(headers, {
      'x-ratelimit-limit-requests': tokens ? '500' : String(r.limit),
      'x-ratelimit-limit-tokens': tokens ? String(r.limit) : '30000',
      'x-ratelimit-remaining-requests': tokens ? '499' : left,
      'x-ratelimit-remaining-tokens': tokens ? left : '30000',
      'x-ratelimit-reset-requests': tokens ? '120ms' : wait,
      'x-ratelimit-reset-tokens': tokens ? wait : '0s',
    });
  }
  return headers;
}

/**
 * `insufficient_quota`, as recorded from the API (vercel/ai packages/openai/src/responses/__fixtures__/
 * openai-error.1.json, and the same object in the stream fixture openai-error.1.chunks.txt).
 */
export const insufficientQuotaError: OpenAIErrorObject = {
  message:
    'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
  type: 'insufficient_quota',
  param: null,
  code: 'insufficient_quota',
};

/** OpenAI's message for a 500 `server_error`, over HTTP and in a stream. */
export const SERVER_ERROR_MESSAGE =
  'The server had an error while processing your request. Sorry about that!';

const RESPONSE_FAILURE_CODES: ReadonlySet<string> = new Set<ResponseFailureCode>([
  'rate_limit_exceeded',
  'context_length_exceeded',
  'insufficient_quota',
  'server_error',
]);

/**
 * The error object a streamed response fails with, per code. `context_length_exceeded` in a Responses stream:
 * `{"type":"invalid_request_error","code":"context_length_exceeded","message":"Your input exceeds the context
 * window of this model. Please adjust your input and try again.","param":"input"}` (the-open-agent/openagent
 * issue 2344); the others as above.
 */
export function responseFailure(
  code: ResponseFailureCode,
  rateLimit: RateLimitWording = {},
): OpenAIErrorObject {
  switch (code) {
    case 'rate_limit_exceeded':
      return rateLimitError(rateLimit);
    case 'insufficient_quota':
      return insufficientQuotaError;
    case 'context_length_exceeded':
      return {
        message:
          'Your input exceeds the context window of this model. Please adjust your input and try again.',
        type: 'invalid_request_error',
        param: 'input',
        code,
      };
    case 'server_error':
      return { message: SERVER_ERROR_MESSAGE, type: 'server_error', param: null, code };
  }
}

/** The in-band error fault of `streamFault.responseFailed`, its error object filled in for `code`. */
export function responseFailedFault(where: string, options: ResponseFailedOptions): StreamFault {
  const { code = 'server_error', message, rateLimit, errorEvent = true, ...position } = options;
  if (typeof code !== 'string' || !RESPONSE_FAILURE_CODES.has(code)) {
    throw new TypeError(
      `${where}: option 'code' must be one of ${[...RESPONSE_FAILURE_CODES].join(', ')}; got ${String(code)}.`,
    );
  }
  if (rateLimit !== undefined) checkRateLimit(where, rateLimit, 'rateLimit.');
  const error = responseFailure(code, rateLimit);
  return {
    kind: 'error',
    format: 'response.failed',
    ...position,
    code,
    message: message ?? error.message,
    type: error.type,
    param: error.param,
    errorEvent,
  };
}

const openaiError = (message: string, type: string, code: string | null, param: string | null = null) => ({
  error: { message, type, param, code } satisfies OpenAIErrorObject,
});

/** The provider errors of `fault.*` on the OpenAI wires. */
export const openaiErrors: ErrorWire = {
  render(error, meta) {
    switch (error.error) {
      case 'rateLimit':
        return {
          status: 429,
          body: { error: rateLimitError(error) },
          headers: rateLimitHeaders(error, error),
        };
      case 'insufficientQuota':
        return { status: 429, body: { error: insufficientQuotaError } };
      case 'overloaded':
      case 'serverError': {
        const status = error.error === 'overloaded' ? 503 : error.status;
        const text = status === 503 ? 'The server is overloaded or not ready yet.' : SERVER_ERROR_MESSAGE;
        return { status, body: openaiError(text, 'server_error', null) };
      }
      case 'unauthorized': {
        const text =
          'Incorrect API key provided: sk-mock***. You can find your API key at https://platform.openai.com/account/api-keys.';
        return { status: 401, body: openaiError(text, 'invalid_request_error', 'invalid_api_key') };
      }
      case 'forbidden': {
        const text = 'Country, region, or territory not supported';
        return {
          status: 403,
          body: openaiError(text, 'request_forbidden', 'unsupported_country_region_territory'),
        };
      }
      case 'notFound': {
        const text = `The model \`${error.model ?? meta.model}\` does not exist or you do not have access to it.`;
        return { status: 404, body: openaiError(text, 'invalid_request_error', 'model_not_found') };
      }
      case 'contextLengthExceeded': {
        const { maxTokens = 128000, requestedTokens = 130000 } = error;
        const text = `This model's maximum context length is ${maxTokens} tokens. However, your messages resulted in ${requestedTokens} tokens. Please reduce the length of the messages.`;
        return {
          status: 400,
          body: openaiError(text, 'invalid_request_error', 'context_length_exceeded', 'messages'),
        };
      }
    }
  },
  mockError: (status, message, code) =>
    openaiError(message, status < 500 ? 'invalid_request_error' : 'mock_error', code),
};
