import { createOpenAI } from '@ai-sdk/openai';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateText } from '../../../../adapters/ai-sdk/drop-in/generate-text.js';
import { fault, reply } from '../../../../mocks/index.js';
import { mockHandlers } from '../../../../mocks/msw.js';

const msw = setupServer();
beforeAll(() => msw.listen({ onUnhandledFrame: 'error' }));
afterEach(() => msw.resetHandlers());
afterAll(() => msw.close());

const model = createOpenAI({ apiKey: 'sk-test' }).chat('gpt-4o');

describe('drop-in generateText', () => {
  it('the guard is the single retry authority: maxRetries maps onto it (classified, backoff injected)', async () => {
    const handlers = mockHandlers([fault.serverError(503), fault.serverError(503), reply.text('Hello')]);
    msw.use(...handlers);
    const sleep = vi.fn(async () => {});
    const result = await generateText({
      model,
      prompt: 'hi',
      maxRetries: 2,
      streamGuard: { sleep, random: () => 0.5 },
    });
    expect(result.text).toBe('Hello');
    expect(handlers.requests).toHaveLength(3);
    expect(sleep.mock.calls.map((c) => (c as unknown[])[0])).toEqual([1000, 2000]);
    expect(result.providerMetadata?.['graceful-ai']?.attempts).toMatchObject([
      { mode: 'generate', outcome: 'failed' },
      { mode: 'generate', outcome: 'failed' },
      { mode: 'generate', outcome: 'ok' },
    ]);
  });

  it('maxRetries: 0 means no retry; a permanent error is never retried', async () => {
    const handlers = mockHandlers([fault.serverError(503), reply.text('never')]);
    msw.use(...handlers);
    await expect(generateText({ model, prompt: 'hi', maxRetries: 0 })).rejects.toMatchObject({
      statusCode: 503,
    });
    expect(handlers.requests).toHaveLength(1);

    const auth = mockHandlers([fault.unauthorized(), reply.text('never')]);
    msw.resetHandlers(...auth);
    await expect(generateText({ model, prompt: 'hi' })).rejects.toMatchObject({ statusCode: 401 });
    expect(auth.requests).toHaveLength(1);
  });
});
