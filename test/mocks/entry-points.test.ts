/**
 * The transports' entry points: MSW handlers (`graceful-ai/testing/msw`) per provider base URL (custom ones, one
 * proxy URL for two providers, the routes they claim and the ones they leave alone).
 * That `graceful-ai/testing` itself needs no msw is checked on the packed package (test/package/pack.test.ts).
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText } from 'ai';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reply } from '../../mocks/index.js';
import { mockHandlers } from '../../mocks/msw.js';

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
});
