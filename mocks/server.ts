/** The fault kit as a real HTTP server on 127.0.0.1, for any provider client (and for real TCP behaviour). */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { abortableSleep } from '../src/policy/sleep.js';
import { checkAt, rule } from './checks.js';
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

/** Options of {@link startMockServer}. */
export interface MockServerOptions extends MockOptions {
  /** What to answer. */
  script: Script;
  /** Port to listen on (default 0: any free port). */
  port?: number;
}

/** A running loopback mock. */
export interface MockServer {
  /**
   * Base URL per provider, for `createOpenAI({ baseURL })`, `createAnthropic({ baseURL })` and
   * `createGoogleGenerativeAI({ baseURL })`, e.g. `http://127.0.0.1:54321/v1` (`/v1beta` for Google).
   */
  readonly urls: { readonly openai: string; readonly anthropic: string; readonly google: string };
  /** Every request received, on every wire, in order. */
  readonly requests: RecordedRequest[];
  /** Replaces the script and clears `requests` (in place), e.g. between demo sections or tests. */
  setScript(script: Script): void;
  /** Stops listening and destroys open connections (stalled streams included). */
  close(): Promise<void>;
}

/**
 * Starts the mock on 127.0.0.1. It routes by path, so one server serves every wire with one script:
 * `POST …/chat/completions`, `…/responses` (OpenAI), `…/messages` (Anthropic), `…/models/{model}:generateContent`
 * and `…:streamGenerateContent?alt=sse` (Gemini), under any path prefix; other requests get a 404 JSON error.
 *
 * @example
 * const mock = await startMockServer({ script: [reply.text('Hello')] });
 * const anthropic = createAnthropic({ baseURL: mock.urls.anthropic, apiKey: 'test' });
 * // …
 * await mock.close();
 */
export async function startMockServer(options: MockServerOptions): Promise<MockServer> {
  return start('startMockServer', options);
}

async function start(where: string, options: MockServerOptions): Promise<MockServer> {
  checkAt(where, 'port', options.port, rule.port);
  const player = new ScriptPlayer(options.script, options);
  const server = createServer((req, res) => {
    handle(player, req, res).catch((e: unknown) => {
      res.destroy(e instanceof Error ? e : new Error(String(e)));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    urls: { openai: `${origin}/v1`, anthropic: `${origin}/v1`, google: `${origin}/v1beta` },
    requests: player.requests,
    setScript: (script) => player.reset(script),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function handle(player: ScriptPlayer, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const path = url.pathname;
  const pieces: Buffer[] = [];
  for await (const piece of req) pieces.push(piece as Buffer);
  const route = matchRoute(req.method ?? '', url);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const plan =
    route === undefined
      ? unroutedPlan(req.method ?? '', url)
      : player.plan({
          method: 'POST',
          path,
          headers,
          bodyText: Buffer.concat(pieces).toString('utf8'),
          route,
        });

  const gone = new AbortController();
  res.on('close', () => gone.abort());
  if (plan.delayMs > 0) await abortableSleep(plan.delayMs, gone.signal).catch(() => {});
  if (gone.signal.aborted) return;
  if (plan.type === 'networkError') {
    await failConnection(plan, req, gone.signal);
    return;
  }
  await play(plan, res, gone.signal);
}

/**
 * A request with no response, over real TCP. The connection is already open when the step is chosen, so a
 * refused connection and a DNS failure can only be played as a close before any byte (undici: `SocketError:
 * other side closed`, `UND_ERR_SOCKET`); a reset sends a TCP RST (`read ECONNRESET`); a timeout holds the
 * connection open and silent until the client gives up or the mock closes.
 */
async function failConnection(
  plan: Extract<ResponsePlan, { type: 'networkError' }>,
  req: IncomingMessage,
  signal: AbortSignal,
): Promise<void> {
  if (plan.failure === 'reset') req.socket.resetAndDestroy();
  else if (plan.failure === 'timeout') await untilAborted(signal);
  else req.socket.destroy();
}

async function play(plan: Extract<ResponsePlan, { type: 'body' }>, res: ServerResponse, signal: AbortSignal) {
  res.writeHead(plan.status, plan.headers);
  let flushed: Promise<void> = Promise.resolve();
  await writeBody(
    plan,
    {
      write(text) {
        flushed = new Promise((resolve) => res.write(text, () => resolve()));
      },
      end: () => res.end(),
      async reset() {
        await flushed;
        res.socket?.resetAndDestroy();
      },
    },
    signal,
  );
}
