/**
 * The three clients graceful-ai/redis supports, connected to a test server: node-redis and ioredis over TCP, and
 * `@upstash/redis` over HTTP through a local Upstash REST endpoint in front of the same server (`upstash-endpoint.ts`).
 */
import { Redis as UpstashRedis } from '@upstash/redis';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { commandSender, type RedisClientLike } from '../../adapters/redis/connection.js';
import { startUpstashEndpoint } from './upstash-endpoint.js';

export const clientKinds = ['node-redis', 'ioredis', 'upstash'] as const;
export type ClientKind = (typeof clientKinds)[number];

export interface TestClient {
  kind: ClientKind;
  client: RedisClientLike;
  quit(): Promise<void>;
}

/**
 * A connected client of `kind` to the redis-server at `url`; reconnects on its own, as an app's would. An Upstash
 * client gets its own endpoint, with the client's defaults (base64 responses, JSON deserialization, auto-pipelining).
 */
export async function connect(kind: ClientKind, url: string): Promise<TestClient> {
  if (kind === 'node-redis') {
    const client = createClient({ url, socket: { reconnectStrategy: () => 50 } });
    client.on('error', () => {});
    await client.connect();
    return { kind, client, quit: async () => void (await client.close?.()) };
  }
  if (kind === 'upstash') {
    const endpoint = await startUpstashEndpoint(url);
    const client = new UpstashRedis({ url: endpoint.url, token: endpoint.token });
    return { kind, client, quit: () => endpoint.close() };
  }
  const client = new Redis(url, { lazyConnect: true, retryStrategy: () => 50 });
  client.on('error', () => {});
  await client.connect();
  return { kind, client, quit: async () => void client.disconnect() };
}

/**
 * Sends one command through the client as graceful-ai does (no time limit: blocking commands included, except over
 * Upstash's REST API, which refuses them).
 */
export function command(client: TestClient, args: string[]): Promise<unknown> {
  return commandSender(client.client)(args);
}
