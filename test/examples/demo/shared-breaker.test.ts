import { Writable } from 'node:stream';
import { createOpenAI } from '@ai-sdk/openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoContext } from '../../../examples/demo/context.js';
import { redisSource, scene } from '../../../examples/demo/shared-breaker.js';
import { createTranscript } from '../../../examples/demo/transcript.js';
import { type MockServer, startMockServer } from '../../../mocks/index.js';
import { describeWithRedis } from '../../redis/describe-with-redis.js';

describe('demo scale-out scene: where its Redis comes from', () => {
  it('REDIS_URL first, then a throwaway redis-server, else a one-line notice', () => {
    expect(redisSource({ REDIS_URL: 'redis://cache:6379' }, true)).toEqual({ url: 'redis://cache:6379' });
    expect(redisSource({}, true)).toEqual({ start: true });
    const skipped = redisSource({}, false);
    expect(skipped).toEqual({ skip: expect.stringMatching(/^skipped: no Redis .*redis-server/) });
    expect((skipped as { skip: string }).skip).not.toContain('\n');
  });
});

describeWithRedis('demo scale-out scene: two processes, one breaker', (server) => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ script: [] });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('the breaker process A opened fails process B fast, without running the tool', async () => {
    let text = '';
    const out = new Writable({
      write(chunk, _encoding, done) {
        text += String(chunk);
        done();
      },
    });
    const openai = createOpenAI({ apiKey: 'sk-demo', baseURL: mock.urls.openai });
    const ctx: DemoContext = {
      print: createTranscript({ out, color: false }),
      live: false,
      mock,
      model: (id = 'gpt-4o-mini') => openai.chat(id),
      provider: 'openai',
      script: (script) => mock.setScript(script),
    };
    const summary = await scene(ctx, server().url);
    expect(summary).toEqual({ section: 'scale-out', problems: [] });
    expect(text).toContain('process A: the tool ran 3 times');
    expect(text).toMatch(/process A \(pid \d+\): traffic circuit closed → open \(in Redis\)/);
    expect(text).toMatch(/Redis now holds \S+breaker:traffic with state open/);
    expect(text).toMatch(/process B \(pid \d+\): traffic failed: circuit_open/);
    expect(text).toContain('process B: the tool ran 0 times');
    // Two processes, two model calls each (the tool call, then the answer).
    expect(mock.requests).toHaveLength(4);
  }, 60_000);
});
