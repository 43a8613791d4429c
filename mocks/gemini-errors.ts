/**
 * Gemini API errors, bodies as the API sends them: `{"error":{code, message, status, details?}}` (google.rpc.Status).
 * The 429 with `QuotaFailure` and `RetryInfo` details is vercel/ai
 * packages/google/src/__fixtures__/google-429-retry-info.json; the token-count wording as reported from the API in
 * google-gemini/gemini-cli issue #4118.
 */
import { DEFAULT_RETRY_AFTER_SECONDS, type ErrorWire } from './api-errors.js';

const STATUSES: Record<string, { code: number; message: string }> = {
  INVALID_ARGUMENT: { code: 400, message: 'Request contains an invalid argument.' },
  FAILED_PRECONDITION: { code: 400, message: 'Precondition check failed.' },
  UNAUTHENTICATED: { code: 401, message: 'Request had invalid authentication credentials.' },
  PERMISSION_DENIED: { code: 403, message: 'The caller does not have permission' },
  NOT_FOUND: { code: 404, message: 'Requested entity was not found.' },
  RESOURCE_EXHAUSTED: { code: 429, message: 'Resource has been exhausted (e.g. check quota).' },
  INTERNAL: {
    code: 500,
    message:
      'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
  },
  UNIMPLEMENTED: { code: 501, message: 'Method not implemented.' },
  UNAVAILABLE: { code: 503, message: 'The model is overloaded. Please try again later.' },
  DEADLINE_EXCEEDED: { code: 504, message: 'Deadline expired before operation could complete.' },
};

/** The HTTP code and usual message of a google.rpc status (an unknown one is an internal error). */
export const googleStatus = (status: string): { code: number; message: string } =>
  STATUSES[status] ?? { code: 500, message: STATUSES.INTERNAL!.message };

/** The google.rpc status name of an HTTP status (the first with that code). */
function statusName(status: number): string {
  const named = Object.entries(STATUSES).find(([, s]) => s.code === status);
  return named?.[0] ?? (status < 500 ? 'FAILED_PRECONDITION' : 'INTERNAL');
}

/** A google.rpc.Status body; `code` is the HTTP status (the status name's own code unless given). */
function body(status: string, options: { message?: string; details?: unknown[]; code?: number } = {}) {
  const { code = googleStatus(status).code, message = googleStatus(status).message, details } = options;
  return { error: { code, message, status, ...(details ? { details } : {}) } };
}

const quotaFailure = (quotaId: string) => ({
  '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
  violations: [{ quotaId }],
});

export const geminiErrors: ErrorWire = {
  render(error, meta) {
    switch (error.error) {
      case 'rateLimit': {
        const seconds =
          error.retryAfterMs !== undefined
            ? error.retryAfterMs / 1000
            : (error.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS);
        const details = [
          quotaFailure('GenerateRequestsPerMinutePerProjectPerModel-FreeTier'),
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${seconds}s` },
        ];
        const message = error.message ?? 'You exceeded your current quota, please check your plan.';
        return { status: 429, body: body('RESOURCE_EXHAUSTED', { message, details }) };
      }
      case 'insufficientQuota': {
        // A daily quota: no RetryInfo, waiting seconds does not help.
        const message =
          'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.';
        const details = [quotaFailure('GenerateRequestsPerDayPerProjectPerModel-FreeTier')];
        return { status: 429, body: body('RESOURCE_EXHAUSTED', { message, details }) };
      }
      case 'overloaded':
        return { status: 503, body: body('UNAVAILABLE') };
      case 'serverError':
        return { status: error.status, body: body(statusName(error.status), { code: error.status }) };
      case 'unauthorized': {
        // Gemini answers a bad key with 400, not 401.
        const message = 'API key not valid. Please pass a valid API key.';
        const details = [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'API_KEY_INVALID',
            domain: 'googleapis.com',
            metadata: { service: 'generativelanguage.googleapis.com' },
          },
          { '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale: 'en-US', message },
        ];
        return { status: 400, body: body('INVALID_ARGUMENT', { message, details }) };
      }
      case 'forbidden':
        return { status: 403, body: body('PERMISSION_DENIED') };
      case 'notFound': {
        const message = `models/${error.model ?? meta.model} is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`;
        return { status: 404, body: body('NOT_FOUND', { message }) };
      }
      case 'contextLengthExceeded': {
        const { maxTokens = 1048576, requestedTokens = 1200000 } = error;
        const message = `The input token count (${requestedTokens}) exceeds the maximum number of tokens allowed (${maxTokens}).`;
        return { status: 400, body: body('INVALID_ARGUMENT', { message }) };
      }
    }
  },
  // The mock's own errors carry their code the google.rpc way, as the reason of an ErrorInfo.
  mockError: (status, message, code) =>
    body(statusName(status), {
      message,
      code: status,
      details: [
        { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: code, domain: 'graceful-ai.mock' },
      ],
    }),
};
