/** OpenAI errors (chat and responses share them), bodies and headers as the API sends them. */
import type { ErrorWire } from './api-errors.js';

const openaiError = (message: string, type: string, code: string | null, param: string | null = null) => ({
  error: { message, type, param, code },
});

export const openaiErrors: ErrorWire = {
  render(error, meta) {
    switch (error.error) {
      case 'rateLimit': {
        const { retryAfterSeconds = 1, retryAfterMs } = error;
        const headers: Record<string, string> = {
          'retry-after': String(retryAfterSeconds),
          'x-ratelimit-limit-requests': '500',
          'x-ratelimit-remaining-requests': '0',
          'x-ratelimit-reset-requests': `${retryAfterSeconds}s`,
        };
        if (retryAfterMs !== undefined) headers['retry-after-ms'] = String(retryAfterMs);
        const text =
          error.message ??
          `Rate limit reached for requests in organization org-mock on requests per min (RPM): Limit 500, Used 500, Requested 1. Please try again in ${retryAfterSeconds}s. Visit https://platform.openai.com/account/rate-limits to learn more.`;
        return { status: 429, body: openaiError(text, 'requests', 'rate_limit_exceeded'), headers };
      }
      case 'insufficientQuota': {
        const text =
          'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.';
        return { status: 429, body: openaiError(text, 'insufficient_quota', 'insufficient_quota') };
      }
      case 'overloaded':
      case 'serverError': {
        const status = error.error === 'overloaded' ? 503 : error.status;
        const text =
          status === 503
            ? 'The server is overloaded or not ready yet.'
            : 'The server had an error while processing your request. Sorry about that!';
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
