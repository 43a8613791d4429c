/**
 * The OpenAI chat-completions wire (`data: {chunk}` SSE, then `data: [DONE]`) as the providers that copy it speak
 * it (`@ai-sdk/openai-compatible`, Groq, DeepSeek, Mistral): each provider test gives its dialect — the fields its
 * chunks carry besides `choices`, what its last chunks add — and gets the frames of {@link ProviderWire}.
 */

import { sseData } from '../../provider-wire.js';
import type { ProviderWire } from './provider-scenarios.js';

/** How one provider writes the chat-completions wire. `n` numbers the answer. */
export interface ChatDialect {
  /** The fields every chunk and the non-streamed answer carry besides `object` and `choices` (id, created, model…). */
  envelope(n: number): Record<string, unknown>;
  /** The fields each streamed choice carries besides `index`, `delta` and `finish_reason` (`logprobs: null`). */
  choice?: Record<string, unknown>;
  /** The delta of the chunk before the first token, when the provider sends one (`{ role, content: '' }`). */
  roleDelta?: Record<string, unknown>;
  /** The finishing chunk's delta (default `{}`) and the fields it adds (its usage, Groq's `x_groq`). */
  finishDelta?: Record<string, unknown>;
  finishing?: Record<string, unknown>;
  /** A usage chunk after the finishing one (`choices: []`), when the provider sends one. */
  usageChunk?: Record<string, unknown>;
  /** The non-streamed answer's usage. */
  usage: Record<string, unknown>;
}

export const done = 'data: [DONE]\n\n';

/** The frames and the non-streamed answer of `dialect`. */
export function chatCompletionsWire(
  dialect: ChatDialect,
): Pick<ProviderWire, 'framing' | 'head' | 'text' | 'tail' | 'generated'> {
  const chunk = (n: number, delta: Record<string, unknown>, finish: string | null = null, extra = {}) =>
    sseData({
      ...dialect.envelope(n),
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta, ...dialect.choice, finish_reason: finish }],
      ...extra,
    });
  return {
    framing: 'sse',
    head: (n) => (dialect.roleDelta ? [chunk(n, dialect.roleDelta)] : []),
    text: (n, piece) => chunk(n, { content: piece }),
    tail: (n) => [
      chunk(n, dialect.finishDelta ?? {}, 'stop', dialect.finishing),
      ...(dialect.usageChunk
        ? [sseData({ ...dialect.envelope(n), object: 'chat.completion.chunk', ...dialect.usageChunk })]
        : []),
      done,
    ],
    generated: (n, text) => ({
      json: {
        ...dialect.envelope(n),
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        usage: dialect.usage,
      },
    }),
  };
}

/** What an OpenAI-style API answers each rejection with: its status, and its error's message, type and code. */
export const openAIErrors = {
  auth: {
    status: 401,
    message: 'Incorrect API key provided.',
    type: 'invalid_request_error',
    code: 'invalid_api_key',
  },
  'rate-limit': {
    status: 429,
    message: 'Rate limit reached for requests.',
    type: 'rate_limit_error',
    code: 'rate_limit_exceeded',
  },
  unavailable: {
    status: 503,
    message: 'The server is overloaded. Please try again later.',
    type: 'server_error',
    code: null,
  },
} as const;

/** The OpenAI error body (`{ error: { message, type, param, code } }`), shared by the providers that copy it. */
export const openAIRejection: ProviderWire['rejection'] = (kind, headers) => {
  const { status, ...error } = openAIErrors[kind];
  return { status, headers, json: { error: { ...error, param: null } } };
};
