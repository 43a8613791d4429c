/** Provider errors (`fault.*` steps) as each wire sends them: the shape every provider's renderer fills in. */
import type { AnswerMeta, ApiError } from './vocabulary.js';

/**
 * The wait a rate limit names when `retryAfterSeconds` is not given, on every wire: OpenAI's "Please try again in
 * 11.054s" (a realistic TPM wait), so `retry-after: 12`.
 */
export const DEFAULT_RETRY_AFTER_SECONDS = 11.054;

/** An HTTP error response: status, JSON (or text) body and headers. */
export interface ErrorResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** How one provider answers with errors. */
export interface ErrorWire {
  /** A named provider error with this provider's real status, body and headers. */
  render(error: ApiError, meta: AnswerMeta): ErrorResponse;
  /**
   * A body in this provider's error shape for the mock's own errors (an exhausted script, an unparseable
   * body…), so the provider's client shows `message` and `code` instead of a generic status text.
   */
  mockError(status: number, message: string, code: string): unknown;
}

const STATUS_TEXT: Record<number, string> = {
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Time-out',
};

/** `error` on a wire; a proxy's HTML error page (`serverError` with `html`) looks the same in front of any provider. */
export function renderApiError(error: ApiError, wire: ErrorWire, meta: AnswerMeta): ErrorResponse {
  if (error.error !== 'serverError' || error.html !== true) return wire.render(error, meta);
  const title = `${error.status} ${STATUS_TEXT[error.status] ?? 'Server Error'}`;
  return {
    status: error.status,
    body: `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>cloudflare</center>\r\n</body>\r\n</html>\r\n`,
    headers: { 'content-type': 'text/html' },
  };
}

/** An RFC 3339 time `seconds` after `meta.created`, whole seconds (as rate-limit reset headers give it). */
export const resetTime = (meta: AnswerMeta, seconds: number): string =>
  new Date((meta.created + Math.ceil(seconds)) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
