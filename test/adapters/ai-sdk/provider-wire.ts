/**
 * Replays provider wire frames to the REAL provider packages (`@ai-sdk/anthropic`, `@ai-sdk/google`,
 * `@ai-sdk/openai`, `@ai-sdk/amazon-bedrock`, `@ai-sdk/gateway`…) through their `fetch` option: each request gets the
 * next scripted reply (a stream as SSE frames or AWS event-stream messages, optionally cut by a socket reset; a
 * non-streamed answer as JSON; an HTTP error with its headers), and every request body is kept, so a test can check
 * what a later step sent. No network: the reply never leaves the process.
 */
import { vi } from 'vitest';

/**
 * A streamed reply: SSE frames (`sse`) or binary AWS event-stream messages (`eventStream`, Bedrock), then a clean
 * close (default) or a socket reset.
 */
export type StreamReply = ({ sse: string[] } | { eventStream: Uint8Array[] }) & { end?: 'close' | 'reset' };

/**
 * A JSON reply: a body with a status (default 200) and headers. A success answers a non-streamed request only; an
 * error status (400 and up) answers either kind, as an API rejects a request before it streams anything.
 */
export interface JsonReply {
  json: unknown;
  status?: number;
  headers?: Record<string, string>;
}

export type Reply = StreamReply | JsonReply;

/** One request a provider sent. */
export interface WireRequest {
  url: string;
  /**
   * Whether the provider asked for a stream: `stream: true` in the body, Gemini's `:streamGenerateContent`,
   * Bedrock's `/converse-stream`, or the gateway's `ai-language-model-streaming: true` header.
   */
  stream: boolean;
  body: Record<string, unknown>;
}

/** An SSE frame with an `event:` line (Anthropic, OpenAI responses). */
export const sseEvent = (data: { type: string }): string =>
  `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;

/** An SSE frame with a `data:` line only (Gemini, OpenAI chat). */
export const sseData = (data: unknown): string => `data: ${JSON.stringify(data)}\n\n`;

/** What undici throws when the server resets the connection mid-body. */
function socketReset(): TypeError {
  return new TypeError('terminated', {
    cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
  });
}

/**
 * A `fetch` answering each request with the next reply. A streamed reply to a non-streamed request (or the
 * reverse) fails the test: it would hide a guard that re-streams a spent request.
 */
export function replayFetch(replies: Reply[]) {
  const requests: WireRequest[] = [];
  const encoder = new TextEncoder();
  const fetch = vi.fn(async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
    const stream =
      body.stream === true ||
      url.includes(':streamGenerateContent') ||
      url.endsWith('/converse-stream') ||
      new Headers(init?.headers).get('ai-language-model-streaming') === 'true';
    requests.push({ url, stream, body });
    const reply = replies.shift();
    if (reply === undefined) throw new Error(`test script: no reply left for request ${requests.length}`);
    const rejection = 'json' in reply && (reply.status ?? 200) >= 400;
    if (!rejection && 'json' in reply === stream) {
      throw new Error(`test script: request ${requests.length} is ${stream ? '' : 'not '}streamed`);
    }
    if ('json' in reply) {
      return new Response(JSON.stringify(reply.json), {
        status: reply.status ?? 200,
        headers: { 'content-type': 'application/json', ...reply.headers },
      });
    }
    const frames: Uint8Array[] =
      'sse' in reply ? reply.sse.map((frame) => encoder.encode(frame)) : [...reply.eventStream];
    const body$ = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          const frame = frames.shift();
          if (frame !== undefined) return controller.enqueue(frame);
          if (reply.end !== 'reset') return controller.close();
          // The reader gets a turn first, as on a socket: an error would drop the frames it has not parsed yet.
          await new Promise((resolve) => setImmediate(resolve));
          controller.error(socketReset());
        },
      },
      { highWaterMark: 0 },
    );
    const contentType = 'sse' in reply ? 'text/event-stream' : 'application/vnd.amazon.eventstream';
    return new Response(body$, { status: 200, headers: { 'content-type': contentType } });
  });
  return { fetch, requests };
}
