import { createOpenAI } from '@ai-sdk/openai';
import { generateText, streamText } from 'ai';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fault, reply, type Step, streamFault } from '../../../mocks/index.js';
import { mockHandlers } from '../../../mocks/msw.js';
import { classifyError } from '../../../src/classify/classify.js';

// The errors the REAL @ai-sdk/openai provider produces for each fault, classified as the tools, the stream guard
// and the session will see them (the provider code is read at data.error.code, data.code, data.response.error.code
// and err.code).
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const openai = createOpenAI({ apiKey: 'test-key' });
const apis = ['chat', 'responses'] as const;
const model = (api: (typeof apis)[number]) =>
  api === 'chat' ? openai.chat('gpt-4o') : openai.responses('gpt-4o');

async function generateError(api: (typeof apis)[number], step: Step): Promise<unknown> {
  server.use(...mockHandlers([step]));
  return generateText({ model: model(api), prompt: 'hi', maxRetries: 0 }).then(
    () => expect.unreachable('the call should fail'),
    (error: unknown) => error,
  );
}

async function streamErrors(api: (typeof apis)[number], step: Step): Promise<unknown[]> {
  server.use(...mockHandlers([step]));
  const errors: unknown[] = [];
  const result = streamText({ model: model(api), prompt: 'hi', maxRetries: 0, onError: () => {} });
  try {
    for await (const part of result.fullStream) if (part.type === 'error') errors.push(part.error);
  } catch (error) {
    errors.push(error);
  }
  return errors;
}

describe.each(apis)('classifying what the OpenAI %s provider throws', (api) => {
  it('HTTP faults', async () => {
    expect(classifyError(await generateError(api, fault.contextLengthExceeded()))).toMatchObject({
      kind: 'overflow',
      reason: 'provider:context_length_exceeded',
    });
    expect(classifyError(await generateError(api, fault.insufficientQuota()))).toEqual({
      kind: 'permanent',
      reason: 'provider:insufficient_quota',
    });
    expect(classifyError(await generateError(api, fault.rateLimit({ retryAfterMs: 1500 })))).toEqual({
      kind: 'transient',
      reason: 'status:429',
      retryAfterMs: 1500,
    });
    expect(classifyError(await generateError(api, fault.serverError(502, { html: true })))).toEqual({
      kind: 'transient',
      reason: 'status:502',
    });
    expect(classifyError(await generateError(api, fault.unauthorized()))).toMatchObject({
      kind: 'permanent',
      reason: 'status:401',
    });
    expect(classifyError(await generateError(api, fault.networkError()))).toMatchObject({
      kind: 'transient',
    });
  });

  it('an in-band overflow before output and after output', async () => {
    const before = await streamErrors(
      api,
      reply.text('Hello world', {
        fault: streamFault.error({ afterChars: 0, code: 'context_length_exceeded' }),
      }),
    );
    expect(before.map((e) => classifyError(e, { unknown: 'permanent' }).kind)).toEqual(['overflow']);
    const after = await streamErrors(
      api,
      reply.text('Hello world', {
        fault: streamFault.error({ afterChars: 5, code: 'context_length_exceeded' }),
      }),
    );
    expect(after.map((e) => classifyError(e, { unknown: 'permanent' }).kind)).toEqual(['overflow']);
  });

  // With the responses provider the Anthropic-format frame fails the chunk schema and arrives as an
  // AI_TypeValidationError whose `value` is the frame (not a StreamProviderError): the classifier reads that value.
  it('an in-band overload and a socket reset mid-stream are transient', async () => {
    const overloaded = await streamErrors(
      api,
      reply.text('Hello world', {
        fault: streamFault.error({ afterChars: 5, format: 'anthropic' }),
      }),
    );
    expect(overloaded.map((e) => classifyError(e, { unknown: 'permanent' }).kind)).toEqual(['transient']);
    const cut = await streamErrors(
      api,
      reply.text('Hello world', { fault: streamFault.cut({ afterChars: 5 }) }),
    );
    expect(cut.map((e) => classifyError(e, { unknown: 'permanent' }).kind)).toEqual(['transient']);
  });
});

it('a responses `response.failed` overflow is read at data.response.error.code', async () => {
  const errors = await streamErrors(
    'responses',
    reply.text('Hello', {
      fault: streamFault.error({ afterChars: 0, format: 'response.failed', code: 'context_length_exceeded' }),
    }),
  );
  expect(errors.map((e) => classifyError(e).kind)).toEqual(['overflow']);
});
