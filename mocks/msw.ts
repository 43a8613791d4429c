/** The fault kit as MSW 3 request handlers (in-process, no socket). */
import type { HttpHandler } from 'msw';
import { abortableSleep } from '../src/policy/sleep.js';
import { systemError } from './network-failure.js';
import { type MockOptions, type ResponsePlan, ScriptPlayer, untilAborted, writeBody } from './player.js';
import type { Api, RecordedRequest, Script } from './script.js';

// msw is an optional peer dependency: only this transport needs it, the loopback server does not.
const msw: typeof import('msw') | undefined = await import('msw').catch(() => undefined);

/** Options of {@link openaiHandlers}. */
export interface OpenAIHandlersOptions extends MockOptions {
  /** Base URL the handlers answer under (default `https://api.openai.com/v1`, the provider's default). */
  baseURL?: string;
}

/** MSW handlers that also expose the requests they recorded. */
export type OpenAIHandlers = HttpHandler[] & {
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
};

/**
 * MSW 3 handlers for `POST {baseURL}/chat/completions` and `POST {baseURL}/responses` that play `script`.
 *
 * @example
 * const server = setupServer();
 * server.listen({ onUnhandledFrame: 'error' });
 * const handlers = openaiHandlers([reply.text('Hello')]);
 * server.use(...handlers);
 * // … handlers.requests[0].body.messages
 */
export function openaiHandlers(script: Script, options: OpenAIHandlersOptions = {}): OpenAIHandlers {
  if (!msw) {
    throw new Error(
      'graceful-ai/testing: openaiHandlers() needs msw@3, which is not installed. Run `npm i -D msw@3`, or use startMockOpenAI() (a loopback server that needs no msw).',
    );
  }
  const { http, HttpResponse } = msw;
  const base = (options.baseURL ?? 'https://api.openai.com/v1').replace(/\/+$/, '');
  const player = new ScriptPlayer(script, options);
  const handler = (api: Api) =>
    http.post(`${base}${api === 'chat' ? '/chat/completions' : '/responses'}`, async ({ request }) => {
      const url = new URL(request.url);
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => {
        headers[name] = value;
      });
      const plan = player.plan({
        method: request.method,
        path: url.pathname,
        headers,
        bodyText: await request.text(),
        api,
      });
      // An abort during the delay just ends it: MSW then discards the response.
      if (plan.delayMs > 0) await abortableSleep(plan.delayMs, request.signal).catch(() => {});
      if (plan.type === 'networkError') return failConnection(plan, request, HttpResponse.error());
      if (plan.ending === 'end' && plan.chunks.length === 1) {
        return new HttpResponse(plan.chunks[0], { status: plan.status, headers: plan.headers });
      }
      return new HttpResponse(bodyStream(plan, request.signal), {
        status: plan.status,
        // Without chunked transfer-encoding MSW reports a mid-body error as a clean end, not as an error.
        headers: { ...plan.headers, 'transfer-encoding': 'chunked' },
      });
    });
  return Object.assign([handler('chat'), handler('responses')], { requests: player.requests });
}

/**
 * A request with no response. MSW can fail a fetch in two ways: `Response.error()` (quiet, but the cause under
 * `TypeError: fetch failed` is that Response, no system error) or a thrown error with `code` and `errno` (exactly
 * undici's wrapping, but MSW prints it as an unhandled exception). The default `reset` stays quiet; `refused` and
 * `dns` exist for their codes, so they throw.
 */
async function failConnection(
  plan: Extract<ResponsePlan, { type: 'networkError' }>,
  request: Request,
  error: Response,
): Promise<Response> {
  if (plan.failure === 'refused' || plan.failure === 'dns')
    throw systemError(plan.failure, new URL(request.url));
  if (plan.failure === 'timeout') {
    // Never answers: the client's timeout or abort ends the request (MSW then discards this response).
    await untilAborted(request.signal);
  }
  return error;
}

function bodyStream(
  plan: Parameters<typeof writeBody>[0],
  requestSignal: AbortSignal,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const gone = new AbortController();
  requestSignal.addEventListener('abort', () => gone.abort(), { once: true });
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const sink = {
        write: (text: string) => controller.enqueue(encoder.encode(text)),
        end: () => controller.close(),
        async reset() {
          // The last enqueued chunk is lost unless the reader gets one turn before the error.
          await new Promise((resolve) => setImmediate(resolve));
          controller.error(new TypeError('mock connection reset'));
        },
      };
      void writeBody(plan, sink, gone.signal).catch((e: unknown) => controller.error(e));
    },
    cancel() {
      gone.abort();
    },
  });
}
