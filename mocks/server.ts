/** The fault kit as a real HTTP server on 127.0.0.1, for any OpenAI client (and for real TCP behaviour). */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { abortableSleep } from '../src/policy/sleep.js';
import { checkAt, rule } from './checks.js';
import {
  MOCK_ERROR_HEADERS,
  type MockOptions,
  type ResponsePlan,
  ScriptPlayer,
  untilAborted,
  writeBody,
} from './player.js';
import type { Api, RecordedRequest, Script } from './script.js';

/** Options of {@link startMockOpenAI}. */
export interface MockOpenAIOptions extends MockOptions {
  /** What to answer. */
  script: Script;
  /** Port to listen on (default 0: any free port). */
  port?: number;
}

/** A running loopback mock. */
export interface MockOpenAIServer {
  /** Base URL for an OpenAI client, e.g. `http://127.0.0.1:54321/v1`. */
  readonly url: string;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** Replaces the script and clears `requests` (in place), e.g. between demo sections or tests. */
  setScript(script: Script): void;
  /** Stops listening and destroys open connections (stalled streams included). */
  close(): Promise<void>;
}

/**
 * Starts the mock on 127.0.0.1. It serves `POST …/chat/completions` and `POST …/responses` (any path prefix);
 * other requests get a 404 JSON error.
 *
 * @example
 * const mock = await startMockOpenAI({ script: [reply.text('Hello')] });
 * const openai = createOpenAI({ baseURL: mock.url, apiKey: 'test' });
 * // …
 * await mock.close();
 */
export async function startMockOpenAI(options: MockOpenAIOptions): Promise<MockOpenAIServer> {
  checkAt('startMockOpenAI', 'port', options.port, rule.port);
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
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests: player.requests,
    setScript: (script) => player.reset(script),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function apiOf(method: string, path: string): Api | undefined {
  if (method !== 'POST') return undefined;
  if (path.endsWith('/chat/completions')) return 'chat';
  if (path.endsWith('/responses')) return 'responses';
  return undefined;
}

async function handle(player: ScriptPlayer, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  const pieces: Buffer[] = [];
  for await (const piece of req) pieces.push(piece as Buffer);
  const api = apiOf(req.method ?? '', path);
  if (api === undefined) {
    const message = `mock serves POST …/chat/completions and POST …/responses only, not ${req.method} ${path}`;
    res.writeHead(404, { 'content-type': 'application/json', ...MOCK_ERROR_HEADERS });
    res.end(JSON.stringify({ error: { message, type: 'mock_error', param: null, code: 'mock_not_found' } }));
    return;
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const plan = player.plan({
    method: 'POST',
    path,
    headers,
    bodyText: Buffer.concat(pieces).toString('utf8'),
    api,
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
