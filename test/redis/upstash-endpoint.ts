/**
 * A local stand-in for Upstash's REST endpoint (a test helper, not shipped): an HTTP server that speaks the protocol
 * `@upstash/redis` speaks and forwards every command to a real redis-server. The protocol is Upstash's REST API
 * (upstash/docs redis/features/restapi.mdx) as the client uses it (upstash/redis-js packages/redis/pkg/http.ts,
 * pipeline.ts, commands/command.ts):
 *
 * - `POST /` with one command as a JSON array (`["SET","k","v"]`; numbers and booleans are words too) answers
 *   `200 {"result": …}`, or `400 {"error": "<Redis's error>"}`;
 * - `POST /pipeline` and `POST /multi-exec` with an array of commands answer `200 [{"result": …} | {"error": …}, …]`,
 *   one entry per command; `/multi-exec` runs them as one MULTI/EXEC, and a transaction Redis discards as a whole is
 *   `400 {"error": …}`;
 * - `Authorization: Bearer <token>` (or `?_token=<token>`), else `401 {"error": …}`;
 * - `Upstash-Encoding: base64`: every string in a result is the base64 of its bytes in Redis, except a top-level
 *   `"OK"` (errors are never encoded); without it, bytes that are no UTF-8 arrive as U+FFFD;
 * - what the REST API does not serve (upstash/docs, "REST - Redis API Compatibility"): blocking commands, WATCH,
 *   UNWATCH, DISCARD, MULTI and EXEC outside `/multi-exec`, SUBSCRIBE and the like, connection commands other than
 *   PING and ECHO, CLUSTER: `400 {"error": …}` (in a pipeline, that entry's error);
 * - Redis unreachable: `500 {"error": …}` (the client counts every non-2xx answer as a failure).
 *
 * Path-style commands (`GET /set/foo/bar`) are not implemented: the client never sends them.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, ErrorReply, MultiErrorReply, RESP_TYPES } from 'redis';

/** A running endpoint: the `url` and `token` an `@upstash/redis` client is created with. */
export interface UpstashEndpoint {
  readonly url: string;
  readonly token: string;
  /** Every request served, in order: its path and the commands in its body. */
  readonly requests: { path: string; commands: string[][] }[];
  close(): Promise<void>;
}

/** Bulk strings as bytes, so base64 encodes them as Redis holds them. */
const asBytes = { [RESP_TYPES.BLOB_STRING]: Buffer } as const;

/** Commands the REST API refuses, by name (upper case). */
const refused = new Set([
  ...['BLPOP', 'BRPOP', 'BRPOPLPUSH', 'BLMOVE', 'BLMPOP', 'BZPOPMIN', 'BZPOPMAX', 'BZMPOP'],
  ...['WATCH', 'UNWATCH', 'DISCARD', 'MULTI', 'EXEC'],
  ...['SUBSCRIBE', 'PSUBSCRIBE', 'SSUBSCRIBE', 'UNSUBSCRIBE', 'PUNSUBSCRIBE', 'SUNSUBSCRIBE', 'MONITOR'],
  ...['AUTH', 'HELLO', 'SELECT', 'QUIT', 'RESET', 'CLUSTER'],
]);

type Entry = { result: unknown } | { error: string };

/** Starts the endpoint on a free loopback port, forwarding to the redis-server at `redisUrl`. */
export async function startUpstashEndpoint(redisUrl: string): Promise<UpstashEndpoint> {
  // Without an offline queue a command fails at once while Redis is down, as a hosted endpoint answers then.
  const redis = createClient({
    url: redisUrl,
    RESP: 2,
    disableOfflineQueue: true,
    socket: { reconnectStrategy: () => 50 },
  });
  redis.on('error', () => {});
  await redis.connect();
  const bytes = redis.withTypeMapping(asBytes);
  const token = randomUUID();
  const requests: UpstashEndpoint['requests'] = [];

  const run = async (words: string[]): Promise<Entry> => {
    const name = words[0]?.toUpperCase() ?? '';
    if (refusedCommand(words)) return { error: `ERR command is not available over the REST API: '${name}'` };
    try {
      return { result: await bytes.sendCommand(words) };
    } catch (error) {
      if (error instanceof ErrorReply) return { error: error.message };
      throw error;
    }
  };

  const transaction = async (commands: string[][]): Promise<Entry[] | { error: string }> => {
    const name = commands.find(refusedCommand)?.[0];
    if (name !== undefined) return { error: `ERR command is not available over the REST API: '${name}'` };
    const multi = bytes.multi();
    for (const words of commands) multi.addCommand(words);
    try {
      return ((await multi.exec()) as unknown[]).map((result) => ({ result }));
    } catch (error) {
      // Some commands failed inside EXEC: the others ran (Redis semantics), each keeps its own answer.
      if (error instanceof MultiErrorReply)
        return error.replies.map((reply) =>
          reply instanceof ErrorReply ? { error: reply.message } : { result: reply },
        );
      // EXECABORT and the like: nothing ran.
      if (error instanceof ErrorReply) return { error: error.message };
      throw error;
    }
  };

  const serve = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const auth = request.headers.authorization;
    if ((auth === undefined ? url.searchParams.get('_token') : auth.replace(/^Bearer /, '')) !== token)
      return reply(401, { error: 'Unauthorized: the token is missing or invalid' });
    if (request.method !== 'POST' || !['/', '/pipeline', '/multi-exec'].includes(url.pathname))
      return reply(404, { error: `${request.method} ${url.pathname} is not served by this endpoint` });
    const body = await readJson(request);
    const single = url.pathname === '/';
    const commands = single ? [body] : body;
    if (!Array.isArray(commands) || !commands.every(isCommand))
      return reply(400, {
        error: 'ERR the body must be a command (a JSON array of words), or an array of them',
      });
    const words = commands.map((command) => command.map(String));
    requests.push({ path: url.pathname, commands: words });
    const base64 = request.headers['upstash-encoding'] === 'base64';
    const encode = (entry: Entry): Entry =>
      'result' in entry ? { result: encodeResult(entry.result, base64, true) } : entry;
    try {
      if (single) {
        const entry = await run(words[0]!);
        return reply('error' in entry ? 400 : 200, encode(entry));
      }
      const entries =
        url.pathname === '/pipeline' ? await Promise.all(words.map(run)) : await transaction(words);
      return Array.isArray(entries) ? reply(200, entries.map(encode)) : reply(400, entries);
    } catch (error) {
      return reply(500, { error: `Redis is unavailable: ${(error as Error).message}` });
    }
  };

  const server = createServer((request, response) => {
    serve(request, response).catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: String(error) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      redis.destroy();
    },
  };
}

function refusedCommand(words: string[]): boolean {
  const name = words[0]?.toUpperCase() ?? '';
  const blockingRead = (name === 'XREAD' || name === 'XREADGROUP') && words.some((w) => /^block$/i.test(w));
  return refused.has(name) || blockingRead;
}

const isCommand = (value: unknown): value is (string | number | boolean)[] =>
  Array.isArray(value) &&
  value.length > 0 &&
  value.every((word) => ['string', 'number', 'boolean'].includes(typeof word));

/** A Redis reply as JSON: bytes as text (or base64), status replies as text, integers, null, arrays. */
function encodeResult(value: unknown, base64: boolean, topLevel: boolean): unknown {
  if (Buffer.isBuffer(value)) return base64 ? value.toString('base64') : value.toString('utf8');
  if (typeof value === 'string') {
    return base64 && !(topLevel && value === 'OK') ? Buffer.from(value).toString('base64') : value;
  }
  if (Array.isArray(value)) return value.map((item) => encodeResult(item, base64, false));
  if (value instanceof ErrorReply) return value.message;
  return value;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}
