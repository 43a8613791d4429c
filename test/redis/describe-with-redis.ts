import { afterAll, beforeAll, describe, it } from 'vitest';
import { type RedisServer, startRedis } from '../../scripts/redis-server.js';
import { connect, type TestClient } from './clients.js';
import { redisPlan } from './redis-plan.js';
import { startUpstashEndpoint, type UpstashEndpoint } from './upstash-endpoint.js';

let noticeShown = false;

/**
 * `describe` for tests that need Redis: with redis-server, `body` gets a started server (per file) in `server()`;
 * without it, one failing test under CI, else a skipped suite and a one-line notice.
 */
export function describeWithRedis(name: string, body: (server: () => RedisServer) => void): void {
  const plan = redisPlan();
  if (plan.run) {
    describe(name, () => {
      let server: RedisServer | undefined;
      beforeAll(async () => {
        server = await startRedis();
      });
      afterAll(async () => {
        await server?.close();
      });
      body(() => {
        if (!server) throw new Error('redis-server has not started');
        return server;
      });
    });
    return;
  }
  if (plan.fail) {
    describe(name, () => {
      it('needs redis-server', () => {
        throw new Error(plan.message);
      });
    });
    return;
  }
  if (!noticeShown) console.warn(plan.message);
  noticeShown = true;
  describe.skip(name, () => body(() => ({}) as RedisServer));
}

/**
 * In a `describeWithRedis` body: an Upstash REST endpoint in front of the file's server, and a node-redis client
 * beside it to read over TCP what went through HTTP. Both live as long as the file's tests.
 */
export function endpointBesideTcp(server: () => RedisServer): {
  endpoint: () => UpstashEndpoint;
  tcp: () => TestClient;
} {
  let endpoint: UpstashEndpoint | undefined;
  let tcp: TestClient | undefined;
  beforeAll(async () => {
    endpoint = await startUpstashEndpoint(server().url);
    tcp = await connect('node-redis', server().url);
  });
  afterAll(async () => {
    await endpoint?.close();
    await tcp?.quit();
  });
  return { endpoint: () => endpoint!, tcp: () => tcp! };
}
