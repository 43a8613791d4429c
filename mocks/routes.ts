/**
 * The wire APIs the kit serves: which request path is which API, and what renders each one (its answer format,
 * its provider's errors, its response headers). Both transports route by path, so one server serves them all.
 */
import { anthropicErrors } from './anthropic-errors.js';
import { anthropicMessagesFormat } from './anthropic-messages.js';
import type { ErrorWire } from './api-errors.js';
import { geminiErrors } from './gemini-errors.js';
import { geminiFormat } from './gemini-generate-content.js';
import { chatFormat } from './openai-chat.js';
import { openaiErrors } from './openai-errors.js';
import { responsesFormat } from './openai-responses.js';
import type { AnswerMeta, Api } from './vocabulary.js';
import type { WireFormat } from './wire.js';

/** A request matched to a wire API; Gemini names the model and the streaming in the path. */
export interface Route {
  api: Api;
  /** Gemini: `:streamGenerateContent` (the other APIs say it in the body). */
  stream?: boolean;
  /** Gemini: the model of `models/{model}:…` (the other APIs send it in the body). */
  model?: string;
}

/** What the kit serves, for the 404 a request elsewhere gets. */
export const SERVED =
  'POST …/chat/completions, …/responses, …/messages, …/models/{model}:generateContent and …/models/{model}:streamGenerateContent?alt=sse';

/** The route of a request, or `undefined` when the kit does not serve it. */
export function matchRoute(method: string, url: URL): Route | undefined {
  if (method !== 'POST') return undefined;
  const path = url.pathname;
  if (path.endsWith('/chat/completions')) return { api: 'chat' };
  if (path.endsWith('/responses')) return { api: 'responses' };
  if (path.endsWith('/messages')) return { api: 'messages' };
  const gemini = /\/([^/:]+):(generateContent|streamGenerateContent)$/.exec(path);
  if (gemini === null) return undefined;
  const stream = gemini[2] === 'streamGenerateContent';
  // @ai-sdk/google always streams server-sent events; without alt=sse Gemini would send a JSON array instead.
  if (stream && url.searchParams.get('alt') !== 'sse') return undefined;
  return { api: 'generateContent', stream, model: decodeURIComponent(gemini[1]!) };
}

/** How one wire API answers. */
export interface Wire {
  format: WireFormat;
  errors: ErrorWire;
  /** Headers of every answer (the provider's request id). */
  headers(meta: Pick<AnswerMeta, 'n'>): Record<string, string>;
}

const openaiHeaders = (meta: Pick<AnswerMeta, 'n'>) => ({ 'x-request-id': `req_mock_${meta.n}` });

export const WIRES: Record<Api, Wire> = {
  chat: { format: chatFormat, errors: openaiErrors, headers: openaiHeaders },
  responses: { format: responsesFormat, errors: openaiErrors, headers: openaiHeaders },
  messages: {
    format: anthropicMessagesFormat,
    errors: anthropicErrors,
    headers: (meta) => ({ 'request-id': `req_mock_${meta.n}` }),
  },
  generateContent: { format: geminiFormat, errors: geminiErrors, headers: () => ({}) },
};
