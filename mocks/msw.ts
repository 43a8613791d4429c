/**
 * `graceful-ai/testing/msw`: the fault kit as MSW 3 request handlers (in-process, no socket). A separate entry point
 * because it needs msw (an optional peer dependency): `graceful-ai/testing` itself, scripts and the loopback
 * server, references msw nowhere, not even in its types. See docs/testing.md.
 */
import { type HttpHandler, HttpResponse, http } from 'msw';
import { abortableSleep } from '../src/policy/sleep.js';
import { systemError } from './network-failure.js';
import {
  type MockOptions,
  type ResponsePlan,
  ScriptPlayer,
  unroutedPlan,
  untilAborted,
  writeBody,
} from './player.js';
import { matchRoute } from './routes.js';
import type { RecordedRequest, Script } from './vocabulary.js';

/** Base URLs of the providers, as given to `createOpenAI`, `createAnthropic`, `createGoogleGenerativeAI`. */
export interface ProviderBaseURLs {
  /** Default `https://api.openai.com/v1`. */
  openai?: string;
  /** Default `https://api.anthropic.com/v1`. */
  anthropic?: string;
  /** Default `https://generativelanguage.googleapis.com/v1beta`. */
  google?: string;
}

/** Options of {@link mockHandlers}. */
export interface MockHandlersOptions extends MockOptions {
  /** Base URLs the handlers answer under (default: each provider's own, which its client uses by default). */
  baseURLs?: ProviderBaseURLs;
}

/** MSW handlers that also expose the requests they recorded. */
export type MockHandlers = HttpHandler[] & {
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
};

/** The paths served under a base URL; `/models/*` holds Gemini's `{model}:generateContent` (else a 404). */
const ROUTE_PATHS = ['/chat/completions', '/responses', '/messages', '/models/*'];

const DEFAULT_BASE_URLS: Required<ProviderBaseURLs> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  google: 'https://generativelanguage.googleapis.com/v1beta',
};

/**
 * MSW 3 handlers that play `script` on every wire: OpenAI `POST {openai}/chat/completions` and
 * `{openai}/responses`, Anthropic `POST {anthropic}/messages`, Gemini `POST {google}/models/{model}:generateContent`
 * and `:streamGenerateContent?alt=sse`. One script and one request list serve them all, in arrival order. Any
 * other POST under `{base}/models/` gets a 404 naming what is served.
 *
 * @example
 * const server = setupServer();
 * server.listen({ onUnhandledFrame: 'error' });
 * const handlers = mockHandlers([reply.text('Hello')]);
 * server.use(...handlers);
 * // createAnthropic({ apiKey: 'test' }) … handlers.requests[0].api === 'messages'
 */
export function mockHandlers(script: Script, options: MockHandlersOptions = {}): MockHandlers {
  const player = new ScriptPlayer(script, options);
  const bases = Object.values({ ...DEFAULT_BASE_URLS, ...options.baseURLs }).map((url) =>
    url.replace(/\/+$/, ''),
  );
  const resolver: Parameters<typeof http.post>[1] = async ({ request }) => {
    const url = new URL(request.url);
    const route = matchRoute(request.method, url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const plan =
      route === undefined
        ? unroutedPlan(request.method, url)
        : player.plan({
            method: request.method,
            path: url.pathname,
            headers,
            bodyText: await request.text(),
            route,
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
  };
  // Every route under every distinct base (routing is by path, so providers behind one proxy URL share it); only
  // these paths, so the user's own handlers for other endpoints of a provider are not shadowed.
  const handlers = [...new Set(bases)].flatMap((base) =>
    ROUTE_PATHS.map((path) => http.post(`${base}${path}`, resolver)),
  );
  return Object.assign(handlers, { requests: player.requests });
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
