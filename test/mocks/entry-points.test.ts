/**
 * The transports' entry points: MSW handlers (`graceful-ai/testing/msw`) per provider base URL (custom ones, one
 * proxy URL for two providers, the routes they claim and the ones they leave alone), and the deprecated 0.x names
 * `openaiHandlers` and `startMockOpenAI`, which keep working as aliases of `mockHandlers` and `startMockServer`.
 * That `graceful-ai/testing` itself needs no msw is checked on the packed package (test/package/pack.test.ts).
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText } from 'ai';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { reply, startMockOpenAI, startMockServer } from '../../mocks/index.js';
import { mockHandlers, type OpenAIHandlers, openaiHandlers } from '../../mocks/msw.js';
import { defaultLogger } from '../../src/observe/logger.js';

describe('MSW handlers', () => {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());

  it('answer under custom base URLs; two providers behind one proxy URL share it', async () => {
    const proxy = 'https://llm-proxy.example/v1';
    const google = 'https://gemini-proxy.example/v1beta';
    const handlers = mockHandlers([reply.text('a'), reply.text('b'), reply.text('c')], {
      baseURLs: { openai: proxy, anthropic: `${proxy}/`, google },
    });
    server.use(...handlers);
    const models = [
      createOpenAI({ apiKey: 'k', baseURL: proxy }).chat('m'),
      createAnthropic({ apiKey: 'k', baseURL: proxy })('m'),
      createGoogleGenerativeAI({ apiKey: 'k', baseURL: google })('m'),
    ];
    const texts = [];
    for (const model of models) texts.push((await generateText({ model, prompt: 'hi', maxRetries: 0 })).text);
    expect(texts).toEqual(['a', 'b', 'c']);
    expect(handlers.requests.map((r) => r.api)).toEqual(['chat', 'messages', 'generateContent']);
  });

  it("claim only the routes they serve: another endpoint of a provider stays the user's", async () => {
    server.use(
      http.post('https://api.openai.com/v1/embeddings', () => HttpResponse.json({ mine: true })),
      ...mockHandlers([reply.text('never used')]),
    );
    const embeddings = await fetch('https://api.openai.com/v1/embeddings', { method: 'POST', body: '{}' });
    expect(await embeddings.json()).toEqual({ mine: true });
    const tokens = await fetch('https://generativelanguage.googleapis.com/v1beta/models/m:countTokens', {
      method: 'POST',
      body: '{}',
    });
    expect(tokens.status).toBe(404);
    expect(tokens.headers.get('x-should-retry')).toBe('false');
    expect(((await tokens.json()) as { error: { code: string } }).error.code).toBe('mock_not_found');
  });

  it('openaiHandlers (deprecated) is mockHandlers: its baseURL is baseURLs.openai, the other wires are served too', async () => {
    const debug = vi.spyOn(defaultLogger, 'debug');
    const handlers: OpenAIHandlers = openaiHandlers([reply.text('a'), reply.text('b')], {
      baseURL: 'https://openai-proxy.example/v1',
    });
    openaiHandlers([]);
    server.use(...handlers);
    const openai = createOpenAI({ apiKey: 'k', baseURL: 'https://openai-proxy.example/v1' });
    expect((await generateText({ model: openai.responses('m'), prompt: 'hi', maxRetries: 0 })).text).toBe(
      'a',
    );
    const anthropic = createAnthropic({ apiKey: 'k' });
    expect((await generateText({ model: anthropic('m'), prompt: 'hi', maxRetries: 0 })).text).toBe('b');
    expect(handlers.requests.map((r) => r.api)).toEqual(['responses', 'messages']);
    const lines = debug.mock.calls.map(([line]) => line).filter((line) => line.includes('openaiHandlers'));
    expect(lines).toEqual([
      "'openaiHandlers' is deprecated; use 'mockHandlers' (it keeps working through 0.x)",
    ]);
    debug.mockRestore();
  });
});

describe('startMockOpenAI (deprecated)', () => {
  it('is startMockServer with url = urls.openai, and notes the deprecation once', async () => {
    const debug = vi.spyOn(defaultLogger, 'debug');
    const old = await startMockOpenAI({ script: [reply.text('old')] });
    const current = await startMockServer({ script: [] });
    try {
      expect(old.url).toBe(old.urls.openai);
      expect(Object.keys(current)).not.toContain('url');
      const model = createOpenAI({ apiKey: 'k', baseURL: old.url }).chat('m');
      expect((await generateText({ model, prompt: 'hi', maxRetries: 0 })).text).toBe('old');
      expect(old.requests).toHaveLength(1);
      old.setScript([reply.text('again')]);
      expect(old.requests).toHaveLength(0);
      await expect(startMockOpenAI({ script: [], port: -1 })).rejects.toThrow(
        /^startMockOpenAI: option 'port'/,
      );
      await expect(startMockServer({ script: [], port: -1 })).rejects.toThrow(
        /^startMockServer: option 'port'/,
      );
      const lines = debug.mock.calls.map(([line]) => line).filter((line) => line.includes('startMockOpenAI'));
      expect(lines).toEqual([
        "'startMockOpenAI' is deprecated; use 'startMockServer' (it keeps working through 0.x)",
      ]);
    } finally {
      debug.mockRestore();
      await Promise.all([old.close(), current.close()]);
    }
  });
});
