/**
 * Anthropic Messages errors, bodies and headers as the API sends them: `{"type":"error","error":{type, message},
 * "request_id"}`. The 529 body is vercel/ai packages/anthropic/src/anthropic-language-model.test.ts ('should throw
 * an api error when the server is returning a 529 overloaded error'); the other bodies, with their `request_id`,
 * as reported from the API in anthropics/claude-code issues #59696 (prompt too long), #66314 (credit balance) and
 * #71669 (rate limit).
 */
import { DEFAULT_RETRY_AFTER_SECONDS, type ErrorWire, resetTime } from './api-errors.js';
import type { AnswerMeta, RateLimitHeaderOptions } from './vocabulary.js';

const MESSAGES: Record<string, string> = {
  overloaded_error: 'Overloaded',
  api_error: 'Internal server error',
};

/** Anthropic's usual message for an error `type` (the type itself when it has no usual one). */
export const anthropicErrorMessage = (type: string): string => MESSAGES[type] ?? type;

const body = (meta: AnswerMeta, type: string, message: string) => ({
  type: 'error',
  // The API sends `details: null` with overloaded errors.
  error: type === 'overloaded_error' ? { details: null, type, message } : { type, message },
  request_id: `req_mock_${meta.n}`,
});

/**
 * `retry-after` and `anthropic-ratelimit-*` for an exhausted request budget that resets in `seconds` (names and
 * RFC 3339 resets as documented at https://docs.anthropic.com/en/api/rate-limits#response-headers); each group
 * can be switched off.
 */
function rateLimitHeaders(
  meta: AnswerMeta,
  seconds: number,
  options: RateLimitHeaderOptions,
): Record<string, string> {
  const reset = resetTime(meta, seconds);
  const budget = (name: string, limit: number, remaining: number) => ({
    [`anthropic-ratelimit-${name}-limit`]: String(limit),
    [`anthropic-ratelimit-${name}-remaining`]: String(remaining),
    [`anthropic-ratelimit-${name}-reset`]: reset,
  });
  return {
    ...((options.retryAfterHeader ?? true) ? { 'retry-after': String(Math.ceil(seconds)) } : {}),
    ...((options.rateLimitHeaders ?? true)
      ? {
          ...budget('requests', 50, 0),
          ...budget('tokens', 38000, 38000),
          ...budget('input-tokens', 30000, 30000),
          ...budget('output-tokens', 8000, 8000),
        }
      : {}),
  };
}

export const anthropicErrors: ErrorWire = {
  render(error, meta) {
    switch (error.error) {
      case 'rateLimit': {
        const seconds = error.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS;
        const message =
          error.message ??
          'This request would exceed the rate limit for your organization (00000000-0000-4000-8000-000000000000) of 50 requests per minute. For details, refer to: https://docs.anthropic.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase.';
        return {
          status: 429,
          body: body(meta, 'rate_limit_error', message),
          headers: rateLimitHeaders(meta, seconds, error),
        };
      }
      case 'insufficientQuota':
        return {
          status: 400,
          body: body(
            meta,
            'invalid_request_error',
            'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
          ),
        };
      case 'overloaded':
        return { status: 529, body: body(meta, 'overloaded_error', 'Overloaded') };
      case 'serverError': {
        const type = error.status === 529 ? 'overloaded_error' : 'api_error';
        return { status: error.status, body: body(meta, type, anthropicErrorMessage(type)) };
      }
      case 'unauthorized':
        return { status: 401, body: body(meta, 'authentication_error', 'invalid x-api-key') };
      case 'forbidden':
        return {
          status: 403,
          body: body(
            meta,
            'permission_error',
            'Your API key does not have permission to use the specified resource.',
          ),
        };
      case 'notFound':
        return { status: 404, body: body(meta, 'not_found_error', `model: ${error.model ?? meta.model}`) };
      case 'contextLengthExceeded': {
        const { maxTokens = 200000, requestedTokens = 210000 } = error;
        const message = `prompt is too long: ${requestedTokens} tokens > ${maxTokens} maximum`;
        return { status: 400, body: body(meta, 'invalid_request_error', message) };
      }
    }
  },
  // The mock's own errors carry their code as the error type (Anthropic errors have no separate code).
  mockError: (_status, message, code) => ({ type: 'error', error: { type: code, message } }),
};
