/**
 * `graceful-ai/redis` with an `@upstash/redis` client inside the non-Node runtimes, bundled whole, against a local
 * Upstash REST endpoint in front of a real redis-server: a model's breaker, a cool-down and a session written from
 * the runtime are what a Node process reads over TCP. Vercel's edge runtime emulation (`edge-runtime`: only the edge
 * globals) runs the package's default entry; Cloudflare workerd (through miniflare, no compatibility flags) runs
 * `@upstash/redis/cloudflare`, as a Worker imports it.
 */
import { EdgeRuntime } from 'edge-runtime';
import { Miniflare } from 'miniflare';
import { expect, it } from 'vitest';
import { command } from '../redis/clients.js';
import { describeWithRedis, endpointBesideTcp } from '../redis/describe-with-redis.js';
import { bundleProgram, GLOBAL_NAME } from './bundle.js';
import {
  MODEL_KEY,
  type RedisProgramInput,
  type RedisProgramResult,
  SESSION_ID,
  USER_TEXT,
} from './redis-program.js';

describeWithRedis('graceful-ai/redis with @upstash/redis in non-Node runtimes', (server) => {
  const { endpoint, tcp } = endpointBesideTcp(server);

  /** The program's result and what Redis holds afterwards under `prefix`: the same in every runtime. */
  async function expectShared(result: RedisProgramResult, prefix: string): Promise<void> {
    expect(result).toMatchObject({
      breaker: 'open',
      second: 'CircuitOpenError',
      cooldown: 'CooldownError',
      entries: 1,
      logged: [],
      console: [],
    });
    const record = JSON.parse(String(await command(tcp(), ['GET', `${prefix}breaker:${MODEL_KEY}`])));
    expect(record).toMatchObject({ state: 'open', failures: 0 });
    expect(Number(await command(tcp(), ['PTTL', `${prefix}cooldown:${MODEL_KEY}`]))).toBeGreaterThan(0);
    const session = `${prefix}session:{${SESSION_ID}}`;
    const entries = (await command(tcp(), ['LRANGE', `${session}:entries`, '0', '-1'])) as string[];
    expect(entries.map((line) => JSON.parse(line))).toEqual([
      { type: 'message', at: 1, message: { role: 'user', content: USER_TEXT } },
    ]);
    expect(await command(tcp(), ['EXISTS', `${session}:lease`])).toBe(0);
  }

  it('Vercel edge runtime (edge-runtime): the bundle imports nothing; all of it reaches Redis, nothing printed', async () => {
    const bundle = await bundleProgram('./redis-program.ts');
    expect(bundle.imports).toEqual([]);
    const input: RedisProgramInput = { url: endpoint().url, token: endpoint().token, prefix: 'edge:' };
    const before = endpoint().requests.length;
    const runtime = new EdgeRuntime();
    runtime.evaluate(bundle.code);
    const json = await runtime.evaluate<Promise<string>>(
      `${GLOBAL_NAME}.run(${JSON.stringify(input)}).then(JSON.stringify)`,
    );
    const result = JSON.parse(json) as RedisProgramResult;
    expect(result.runtime).toMatchObject({ edgeRuntime: 'edge-runtime', getBuiltinModule: false });
    await expectShared(result, input.prefix);
    // Every command went over HTTP, through the endpoint.
    expect(endpoint().requests.length - before).toBeGreaterThan(5);
  });

  it('Cloudflare workerd (miniflare, @upstash/redis/cloudflare): the same', async () => {
    const bundle = await bundleProgram('./redis-program.ts', {
      alias: { '@upstash/redis': '@upstash/redis/cloudflare' },
    });
    expect(bundle.imports).toEqual([]);
    const input: RedisProgramInput = { url: endpoint().url, token: endpoint().token, prefix: 'workerd:' };
    const mf = new Miniflare({
      modules: [
        {
          type: 'ESModule',
          path: 'worker.mjs',
          contents: `${bundle.code}
export default {
  async fetch() {
    return new Response(JSON.stringify(await globalThis.${GLOBAL_NAME}.run(${JSON.stringify(input)})));
  },
};
`,
        },
      ],
      compatibilityDate: '2024-01-01',
    });
    try {
      const response = await mf.dispatchFetch('http://localhost/');
      const body = await response.text();
      expect(response.status, body).toBe(200);
      const result = JSON.parse(body) as RedisProgramResult;
      expect(result.runtime).toMatchObject({ userAgent: 'Cloudflare-Workers', getBuiltinModule: false });
      await expectShared(result, input.prefix);
    } finally {
      await mf.dispose();
    }
  });
});
