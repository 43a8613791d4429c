/**
 * In-band error frames (`streamFault.error`): the payload of each format and how its own provider frames it.
 * Each wire sends its native format by default and relays another provider's frame verbatim, as a proxy in front
 * of that provider would.
 */
import { anthropicErrorMessage } from './anthropic-errors.js';
import { googleStatus } from './gemini-errors.js';
import type { ErrorFault, InBandErrorFormat } from './vocabulary.js';

/** The format of `fault` on a wire whose own format is `native`. */
export function formatOf(fault: ErrorFault, native: InBandErrorFormat): InBandErrorFormat {
  return fault.format ?? native;
}

/** The fault's message, or the provider's usual one for its code. */
export function inBandMessage(fault: ErrorFault, format: InBandErrorFormat): string {
  if (fault.message !== undefined) return fault.message;
  if (format === 'anthropic') return anthropicErrorMessage(fault.code ?? 'overloaded_error');
  if (format === 'gemini') return googleStatus(fault.code ?? 'INTERNAL').message;
  return 'The server had an error while processing your request. Sorry about that!';
}

/**
 * The error object of a format: OpenAI's chat error frame, `{ message, type, param, code }` (`response.failed`
 * outside the responses wire too);
 * Anthropic's, as in vercel/ai packages/anthropic/src/anthropic-language-model.test.ts ('should forward
 * overloaded error during streaming'); Gemini's `{"error": …}` chunk, read by `chunkSchema.error` in
 * vercel/ai packages/google/src/google-language-model.ts.
 */
export function inBandPayload(fault: ErrorFault, format: InBandErrorFormat): unknown {
  const message = inBandMessage(fault, format);
  if (format === 'anthropic') {
    return { type: 'error', error: { details: null, type: fault.code ?? 'overloaded_error', message } };
  }
  if (format === 'gemini') {
    const status = fault.code ?? 'INTERNAL';
    return { error: { code: googleStatus(status).code, message, status } };
  }
  const code = fault.code ?? 'server_error';
  return { error: { message, type: fault.type ?? 'server_error', param: fault.param ?? null, code } };
}

/** Anthropic's HTTP status for an error type, as the SDK infers it for stream errors (else a 500). */
const ANTHROPIC_STATUS: Record<string, number> = {
  invalid_request_error: 400,
  billing_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

/** The HTTP status an error of this format stands for (OpenAI's `server_error`: 500). */
export function inBandStatus(fault: ErrorFault, format: InBandErrorFormat): number {
  if (format === 'anthropic') return ANTHROPIC_STATUS[fault.code ?? 'overloaded_error'] ?? 500;
  if (format === 'gemini') return googleStatus(fault.code ?? 'INTERNAL').code;
  return 500;
}

/** The frame of a format as its provider sends it: Anthropic names the event, the others send `data:` only. */
export function inBandFrame(fault: ErrorFault, format: InBandErrorFormat): string {
  const data = `data: ${JSON.stringify(inBandPayload(fault, format))}\n\n`;
  return format === 'anthropic' ? `event: error\n${data}` : data;
}

/** For the OpenAI wires: another provider's frame relayed verbatim, or `undefined` for OpenAI's own formats. */
export function relayedFrame(fault: ErrorFault): string | undefined {
  const format = formatOf(fault, 'openai');
  return format === 'anthropic' || format === 'gemini' ? inBandFrame(fault, format) : undefined;
}

/** For the OpenAI wires: another provider's error object (a non-streamed body), or `undefined` for OpenAI's own. */
export function relayedPayload(fault: ErrorFault): unknown {
  const format = formatOf(fault, 'openai');
  return format === 'anthropic' || format === 'gemini' ? inBandPayload(fault, format) : undefined;
}
