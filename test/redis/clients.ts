/** The two clients graceful-ai/redis supports, connected to a test server. */
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import type { RedisClientLike } from '../../adapters/redis/connection.js';

export type ClientKind = 'node-redis' | 'ioredis';

export interface TestClient {
  client: RedisClientLike;
  quit(): Promise<void>;
}

/** A connected client of `kind`; reconnects on its own, as an app's would. */
export async function connect(kind: ClientKind, url: string): Promise<TestClient> {
  if (kind === 'node-redis') {
    const client = createClient({ url, socket: { reconnectStrategy: () => 50 } });
    client.on('error', () => {});
    await client.connect();
    return { client, quit: async () => void (await client.close?.()) };
  }
  const client = new Redis(url, { lazyConnect: true, retryStrategy: () => 50 });
  client.on('error', () => {});
  await client.connect();
  return { client, quit: async () => void client.disconnect() };
}

/** Sends one command through either client (no time limit: blocking commands included). */
export function command(client: TestClient, args: string[]): Promise<unknown> {
  const c = client.client as {
    sendCommand?: (a: string[]) => Promise<unknown>;
    call?: (c: string, ...a: string[]) => Promise<unknown>;
  };
  return c.call ? c.call(args[0]!, ...args.slice(1)) : c.sendCommand!(args);
}
