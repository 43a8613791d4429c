/**
 * The chat UI example's server, plain `node:http`: `GET /` the page, `GET /app.js` its script (app.tsx, bundled
 * with esbuild at start), `GET /api/chats/:id` a chat's persisted messages, `POST /api/chat` the chat route (the
 * chat's agent, `chat-agent.ts`, on `model`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { LanguageModel } from 'ai';
import { build } from 'esbuild';
import { chatAgent } from './chat-agent.js';
import { type ChatStore, chatRoute } from './chat-route.js';

export interface ChatServerOptions {
  /** The model that answers, e.g. `openai('gpt-4o-mini')`. */
  model: LanguageModel;
  /** Port on 127.0.0.1 (default 0: any free port). */
  port?: number;
}

export interface ChatServer {
  /** e.g. `http://127.0.0.1:54321/` */
  readonly url: string;
  /** Every chat's persisted messages, by chat id. */
  readonly chats: ChatStore;
  close(): Promise<void>;
}

const page = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>graceful-ai chat</title></head>
  <body><div id="root"></div><script type="module" src="/app.js"></script></body>
</html>`;

export async function startChatServer({ model, port = 0 }: ChatServerOptions): Promise<ChatServer> {
  const script = await bundlePage();
  const chats: ChatStore = new Map();
  const postChat = chatRoute(chatAgent(model), chats);

  const routes = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    const chatId = /^\/api\/chats\/([^/]+)$/.exec(pathname)?.[1];
    if (req.method === 'GET' && pathname === '/') return send(res, new Response(page, type('text/html')));
    if (req.method === 'GET' && pathname === '/app.js')
      return send(res, new Response(script, type('text/javascript')));
    if (req.method === 'GET' && chatId)
      return send(res, Response.json(chats.get(decodeURIComponent(chatId)) ?? []));
    if (req.method === 'POST' && pathname === '/api/chat')
      return send(res, await postChat(await toRequest(req)));
    return send(res, Response.json({ error: `no route for ${req.method} ${pathname}` }, { status: 404 }));
  };

  const server = createServer((req, res) => {
    routes(req, res).catch((error: unknown) => {
      console.error(`chat-ui: ${req.method} ${req.url} failed:`, error);
      if (res.headersSent) res.destroy();
      else res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    chats,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** app.tsx and everything it imports (React, `@ai-sdk/react`) as one ES module for the browser. */
async function bundlePage(): Promise<string> {
  const { outputFiles } = await build({
    entryPoints: [join(import.meta.dirname, 'app.tsx')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  return outputFiles[0]!.text;
}

const type = (contentType: string): ResponseInit => ({ headers: { 'content-type': contentType } });

async function toRequest(req: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new Request(new URL(req.url ?? '/', 'http://localhost'), {
    method: req.method,
    headers: req.headers as Record<string, string>,
    body: Buffer.concat(chunks),
  });
}

/** Writes a web `Response` to Node's response, streaming its body as it comes. */
async function send(res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body) for await (const chunk of response.body) res.write(chunk);
  res.end();
}
