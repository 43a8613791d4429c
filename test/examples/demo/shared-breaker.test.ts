import { createServer, type Socket, connect as tcpConnect } from 'node:net';
import { createOpenAI } from '@ai-sdk/openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoContext } from '../../../examples/demo/context.js';
import { redisSource, scene } from '../../../examples/demo/shared-breaker.js';
import { type MockServer, startMockServer } from '../../../mocks/index.js';
import { describeWithRedis } from '../../redis/describe-with-redis.js';
import { capturedTranscript } from './play-section.js';

describe('demo scale-out scene: where its Redis comes from', () => {
  it('REDIS_URL first, then a throwaway redis-server, else a one-line notice', () => {
    expect(redisSource({ REDIS_URL: 'redis://cache:6379' }, true)).toEqual({ url: 'redis://cache:6379' });
    expect(redisSource({}, true)).toEqual({ start: true });
    const skipped = redisSource({}, false);
    expect(skipped).toEqual({ skip: expect.stringMatching(/^skipped: no Redis .*redis-server/) });
    expect((skipped as { skip: string }).skip).not.toContain('\n');
  });
});

/**
 * A TCP proxy to the Redis on `port` that hands over every answer `delayMs` late, in order: what a loaded machine
 * does to a process whose event loop reaches a Redis answer only after its timer for that answer fired.
 */
async function lateRedis(port: number, delayMs: number): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = tcpConnect(port, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => setTimeout(() => client.writable && client.write(chunk), delayMs));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: proxyPort } = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${proxyPort}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// Two processes started through tsx per scene: on a loaded machine that alone takes tens of seconds. The bound is
// for a hang, far above any slow run; the processes die with this test's worker whatever happens.
const sceneTimeoutMs = 600_000;

describeWithRedis('demo scale-out scene: two processes, one breaker', (server) => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ script: [] });
  });
  afterAll(async () => {
    await mock?.close();
  });

  const playScene = async (url: string) => {
    const transcript = capturedTranscript();
    const openai = createOpenAI({ apiKey: 'sk-demo', baseURL: mock.urls.openai });
    const ctx: DemoContext = {
      print: transcript.print,
      live: false,
      mock,
      model: (id = 'gpt-4o-mini') => openai.chat(id),
      provider: 'openai',
      script: (script) => mock.setScript(script),
    };
    const summary = await scene(ctx, url);
    return { summary, text: transcript.printed() };
  };

  const expectFailedFast = ({ summary, text }: Awaited<ReturnType<typeof playScene>>) => {
    expect(summary).toEqual({ section: 'scale-out', problems: [] });
    expect(text).toContain('process A: the tool ran 3 times');
    expect(text).toMatch(/process A \(pid \d+\): traffic circuit closed → open \(in Redis\)/);
    expect(text).toMatch(/Redis now holds \S+breaker:traffic with state open/);
    // The open period (10 minutes) outlasts any start of process B, however slow.
    expect(text).toMatch(
      /process B \(pid \d+\): traffic failed: circuit_open \(open for another (9m \d+s|10m)\)/,
    );
    expect(text).toContain('process B: the tool ran 0 times');
    expect(text).not.toMatch(/Redis failed|could not use Redis/);
    // Two processes, two model calls each (the tool call, then the answer).
    expect(mock.requests).toHaveLength(4);
  };

  it('the breaker process A opened fails process B fast, without running the tool', {
    timeout: sceneTimeoutMs,
  }, async () => {
    expectFailedFast(await playScene(server().url));
  });

  it('the same when every Redis answer comes 600 ms late, past the library’s 500 ms command limit', {
    timeout: sceneTimeoutMs,
  }, async () => {
    // With the library's limit process A takes Redis for down and goes on alone: its open breaker never reaches
    // Redis ("the shared breaker is none"), and a process B started anyway runs the dead tool 3 times against its
    // own, closed breaker. A loaded machine did exactly that to `npm test`.
    const late = await lateRedis(server().port, 600);
    try {
      expectFailedFast(await playScene(late.url));
    } finally {
      await late.close();
    }
  });
});
