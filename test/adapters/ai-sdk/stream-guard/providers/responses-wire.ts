/**
 * The Responses API wire (one SSE frame per event: `response.created` … `response.output_text.delta` …
 * `response.completed`) as the providers that speak it send it (OpenAI through Azure, xAI): each provider test gives
 * its dialect — its response object, its SSE framing — and gets the frames of {@link ProviderWire}. One message
 * item with one text part, as in the recorded text fixtures.
 */
import type { ProviderWire } from './provider-scenarios.js';

/** How one provider writes the Responses wire. `n` numbers the answer. */
export interface ResponsesDialect {
  /** One event as an SSE frame (with or without an `event:` line). */
  frame(event: { type: string } & Record<string, unknown>): string;
  /** The response object of answer `n` (in `response.created`, `response.completed`, and non-streamed). */
  response(n: number, status: 'in_progress' | 'completed', output: unknown[]): Record<string, unknown>;
}

const messageId = (n: number) => `msg_${n}`;

/** Answer `n`'s message item: in progress and empty, or completed with `text`. */
const message = (n: number, text?: string) => ({
  id: messageId(n),
  type: 'message',
  status: text === undefined ? 'in_progress' : 'completed',
  content: text === undefined ? [] : [{ type: 'output_text', annotations: [], logprobs: [], text }],
  role: 'assistant',
});

const textPart = (text: string) => ({ type: 'output_text', annotations: [], logprobs: [], text });

/** The frames and the non-streamed answer of `dialect`. */
export function responsesWire(
  dialect: ResponsesDialect,
): Pick<ProviderWire, 'framing' | 'head' | 'text' | 'tail' | 'generated'> {
  const { frame, response } = dialect;
  const at = (n: number) => ({ item_id: messageId(n), output_index: 0, content_index: 0 });
  return {
    framing: 'sse',
    head: (n) => [
      frame({ type: 'response.created', response: response(n, 'in_progress', []) }),
      frame({ type: 'response.in_progress', response: response(n, 'in_progress', []) }),
      frame({ type: 'response.output_item.added', output_index: 0, item: message(n) }),
      frame({ type: 'response.content_part.added', ...at(n), part: textPart('') }),
    ],
    text: (n, delta) => frame({ type: 'response.output_text.delta', ...at(n), delta, logprobs: [] }),
    tail: (n, text) => [
      frame({ type: 'response.output_text.done', ...at(n), text, logprobs: [] }),
      frame({ type: 'response.content_part.done', ...at(n), part: textPart(text) }),
      frame({ type: 'response.output_item.done', output_index: 0, item: message(n, text) }),
      frame({ type: 'response.completed', response: response(n, 'completed', [message(n, text)]) }),
    ],
    generated: (n, text) => ({ json: response(n, 'completed', [message(n, text)]) }),
  };
}
