/**
 * Failover through real providers (`@ai-sdk/openai`, `@ai-sdk/anthropic`, `@ai-sdk/google`) on the fault kit's
 * wires, through the drop-in `streamText`: OpenAI down before the answer, OpenAI cut mid-answer and still down
 * (Anthropic continues the shown text as a prefill), Anthropic cut and Gemini answering anew (the reset path), every
 * model down (`FailoverError`), and the model breaker keyed per API key.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import type { TextStreamPart, ToolSet } from 'ai';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { streamText } from '../../../../adapters/ai-sdk/drop-in/stream-text.js';
import type {
  StreamGuardEvent,
  StreamGuardOptions,
} from '../../../../adapters/ai-sdk/stream-guard/options.js';
import {
  assistantPrefill,
  fault,
  type RecordedRequest,
  reply,
  type ScriptFunction,
  streamFault,
} from '../../../../mocks/index.js';
import { mockHandlers } from '../../../../mocks/msw.js';
import { FailoverError } from '../../../../src/errors/failover-error.js';
import type { AttemptRecord } from '../../../../src/stream/attempt-record.js';
import { isResetPart } from '../../../../src/stream/reset-part.js';

const msw = setupServer();
beforeAll(() => msw.listen({ onUnhandledFrame: 'error' }));
afterEach(() => msw.resetHandlers());
afterAll(() => msw.close());

const openai = createOpenAI({ apiKey: 'sk-test' });
const anthropic = createAnthropic({ apiKey: 'sk-ant-test' });
const google = createGoogleGenerativeAI({ apiKey: 'g-test' });

const SHOWN = 'The quick brown '; // what the reader sees before the cut
const ANSWER = 'The quick brown fox jumps over the lazy dog.';
let unique = 0;
/** A model id no other test uses: model breakers are per model, process-wide. */
const id = (name: string) => `${name}-${++unique}`;

async function run(
  script: ScriptFunction,
  primary: Parameters<typeof streamText>[0]['model'],
  guard: StreamGuardOptions,
) {
  const handlers = mockHandlers(script);
  msw.use(...handlers);
  const events: StreamGuardEvent[] = [];
  const errors: unknown[] = [];
  const result = streamText({
    model: primary,
    prompt: 'Say the pangram.',
    maxRetries: 1,
    streamGuard: { sleep: async () => {}, modelBreaker: false, onEvent: (e) => events.push(e), ...guard },
    onError: ({ error }) => void errors.push(error),
  });
  const parts: TextStreamPart<ToolSet>[] = [];
  for await (const part of result.fullStream) parts.push(part);
  return { result, parts, events, errors, requests: handlers.requests };
}

const shown = (parts: TextStreamPart<ToolSet>[]) =>
  parts.map((p) => (p.type === 'text-delta' ? p.text : '')).join('');
const sent = (requests: readonly RecordedRequest[]) =>
  requests.map((r) => `${r.api}${r.stream ? ' stream' : ''}`);
const modelsOf = async (result: { providerMetadata: PromiseLike<unknown> }) =>
  ((await result.providerMetadata) as { 'graceful-ai'?: { attempts?: AttemptRecord[] } } | undefined)?.[
    'graceful-ai'
  ]?.attempts?.map((a) => `${a.model.provider}:${a.outcome}`);

describe('failover on the providers’ wires', () => {
  it('OpenAI down before the answer: its retries, then Anthropic streams the answer', async () => {
    const script: ScriptFunction = (request) =>
      request.api === 'chat' ? fault.serverError(503) : reply.text(ANSWER);
    const { result, parts, events, requests } = await run(script, openai.chat(id('gpt-4o')), {
      fallbackModels: [anthropic('claude-sonnet-4-5')],
    });
    expect(sent(requests)).toEqual(['chat stream', 'chat stream', 'messages stream']);
    expect(shown(parts)).toBe(ANSWER);
    expect(await result.text).toBe(ANSWER);
    expect(events.filter((e) => e.type === 'stream_failover')).toMatchObject([
      {
        from: { provider: 'openai.chat' },
        to: { provider: 'anthropic.messages', modelId: 'claude-sonnet-4-5' },
      },
    ]);
    expect(await modelsOf(result)).toEqual([
      'openai.chat:failed',
      'openai.chat:failed',
      'anthropic.messages:ok',
    ]);
  });

  it('OpenAI cut mid-answer and still down: Anthropic continues the shown text (the prefill); each character read once', async () => {
    const script: ScriptFunction = (request, { index }) => {
      if (index === 0) return reply.text(ANSWER, { fault: streamFault.cut({ afterChars: SHOWN.length }) });
      if (request.api === 'chat') return fault.serverError(503);
      return assistantPrefill(request) === 'The quick brown'
        ? reply.text(' fox jumps over the lazy dog.')
        : reply.text('A different answer.');
    };
    const { result, parts, requests } = await run(script, openai.chat(id('gpt-4o')), {
      fallbackModels: [anthropic('claude-sonnet-4-5')],
    });
    expect(sent(requests)).toEqual(['chat stream', 'chat', 'messages']);
    expect(shown(parts)).toBe(ANSWER);
    expect(parts.some(isResetPart)).toBe(false);
    expect(await result.text).toBe(ANSWER);
    expect(await modelsOf(result)).toEqual([
      'openai.chat:failed',
      'openai.chat:failed',
      'anthropic.messages:ok',
    ]);
  });

  it("recovery: 'stream' — the continuation streams live from Anthropic", async () => {
    const script: ScriptFunction = (request, { index }) => {
      if (index === 0) return reply.text(ANSWER, { fault: streamFault.cut({ afterChars: SHOWN.length }) });
      if (request.api === 'chat') return fault.serverError(503);
      expect(assistantPrefill(request)).toBe('The quick brown');
      return reply.text(' fox jumps over the lazy dog.');
    };
    const { result, parts, requests } = await run(script, openai.chat(id('gpt-4o')), {
      fallbackModels: [anthropic('claude-sonnet-4-5')],
      recovery: 'stream',
    });
    // The streamed recovery retries on OpenAI (maxRetries: 1) before it fails over.
    expect(sent(requests)).toEqual(['chat stream', 'chat stream', 'chat stream', 'messages stream']);
    expect(shown(parts)).toBe(ANSWER);
    expect(await result.text).toBe(ANSWER);
  });

  it('Anthropic cut and overloaded, Gemini answers anew: a reset part, then the new answer, each character once', async () => {
    const script: ScriptFunction = (request, { index }) => {
      if (index === 0) return reply.text(ANSWER, { fault: streamFault.cut({ afterChars: SHOWN.length }) });
      if (request.api === 'messages') return fault.overloaded();
      return reply.text('A fox, quickly over a dog.');
    };
    const { result, parts, requests } = await run(script, anthropic(id('claude-sonnet-4-5')), {
      fallbackModels: [google('gemini-2.5-flash')],
    });
    expect(sent(requests)).toEqual(['messages stream', 'messages', 'generateContent']);
    const reset = parts.findIndex(isResetPart);
    expect(shown(parts.slice(0, reset))).toBe(SHOWN);
    expect(shown(parts.slice(reset))).toBe('A fox, quickly over a dog.');
    expect(await result.text).toBe('A fox, quickly over a dog.');
  });

  it('every model down: the text rejects with a FailoverError naming each model and why; onError gets it', async () => {
    const script: ScriptFunction = (request) =>
      request.api === 'chat' ? fault.serverError(503) : fault.overloaded();
    const primary = openai.chat(id('gpt-4o'));
    const { result, errors } = await run(script, primary, {
      fallbackModels: [anthropic('claude-haiku-4-5')],
    });
    const error = await result.text.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(FailoverError.isInstance(error)).toBe(true);
    const failover = error as FailoverError;
    expect(failover.models.map((m) => [m.model.provider, m.model.modelId, m.reason])).toEqual([
      ['openai.chat', primary.modelId, 'status:503'],
      ['anthropic.messages', 'claude-haiku-4-5', 'status:529'],
    ]);
    expect(failover.message).toBe(
      `Every model failed: openai.chat:${primary.modelId} (status:503: The server is overloaded or not ready yet.); ` +
        'anthropic.messages:claude-haiku-4-5 (status:529: Overloaded). ' +
        "Check the providers' status, or add fallbackModels that do not share the outage.",
    );
    expect(errors.filter((e) => FailoverError.isInstance(e))).toHaveLength(1);
  });

  it('a context overflow is not failed over: the primary’s error as it is', async () => {
    const script: ScriptFunction = (request) =>
      request.api === 'chat' ? fault.contextLengthExceeded() : reply.text(ANSWER);
    const { result, requests } = await run(script, openai.chat(id('gpt-4o')), {
      fallbackModels: [anthropic('claude-sonnet-4-5')],
    });
    await expect(result.text).rejects.toThrow(/context length/i);
    expect(sent(requests)).toEqual(['chat stream']);
  });
});

describe('the model breaker on the wire', () => {
  it('keyed by API key: a key whose breaker is open skips its model; the same model with another key is still asked', async () => {
    const modelId = id('gpt-4o');
    const script: ScriptFunction = (request) =>
      request.api === 'chat' && request.headers.authorization === 'Bearer sk-down'
        ? fault.serverError(503)
        : reply.text(ANSWER);
    const guard = {
      fallbackModels: [anthropic('claude-sonnet-4-5')],
      modelBreaker: { failureThreshold: 1, openMs: 60_000 },
      maxRetries: 0,
    };
    const down = createOpenAI({ apiKey: 'sk-down' }).chat(modelId);
    const first = await run(script, down, guard);
    expect(sent(first.requests)).toEqual(['chat stream', 'messages stream']);
    expect(first.events.filter((e) => e.type === 'model_breaker')).toMatchObject([
      { model: { provider: 'openai.chat', modelId }, from: 'closed', to: 'open' },
    ]);
    // The breaker is open: no request to that key's model at all.
    const second = await run(script, createOpenAI({ apiKey: 'sk-down' }).chat(modelId), guard);
    expect(sent(second.requests)).toEqual(['messages stream']);
    expect(await second.result.text).toBe(ANSWER);
    // Another key of the same model has its own breaker.
    const third = await run(script, createOpenAI({ apiKey: 'sk-up' }).chat(modelId), guard);
    expect(sent(third.requests)).toEqual(['chat stream']);
  });
});

describe('bad input', () => {
  it('the drop-in checks the failover options when the call starts, named streamGuard.<option>', () => {
    const call = (streamGuard: object) => () =>
      streamText({ model: openai.chat('gpt-4o'), prompt: 'hi', streamGuard: streamGuard as never });
    expect(call({ fallbackModels: 'gpt-4o' })).toThrow(
      /^graceful-ai: option 'streamGuard\.fallbackModels' must be an array of models/,
    );
    expect(call({ modelBreaker: { openMs: 0 } })).toThrow(RangeError);
    expect(call({ modelBreaker: { openMs: 0 } })).toThrow("option 'streamGuard.modelBreaker.openMs'");
  });
});

describe('the response names the model that finished the answer', () => {
  it.each(['generate', 'stream'] as const)(
    "recovery: '%s' on Anthropic after OpenAI was cut: response.modelId is Anthropic's",
    async (recovery) => {
      const script: ScriptFunction = (request, { index }) => {
        if (index === 0) return reply.text(ANSWER, { fault: streamFault.cut({ afterChars: SHOWN.length }) });
        if (request.api === 'chat') return fault.serverError(503);
        return reply.text(' fox jumps over the lazy dog.');
      };
      const { result } = await run(script, openai.chat(id('gpt-4o')), {
        fallbackModels: [anthropic('claude-sonnet-4-5')],
        recovery,
        maxRetries: 0,
      });
      expect(await result.text).toBe(ANSWER);
      expect((await result.response).modelId).toBe('claude-sonnet-4-5');
      expect((await result.steps)[0]?.response.modelId).toBe('claude-sonnet-4-5');
    },
  );

  it('a recovery on the same model keeps the response as the SDK reported it', async () => {
    const script: ScriptFunction = (_request, { index }) =>
      index === 0
        ? reply.text(ANSWER, { fault: streamFault.cut({ afterChars: SHOWN.length }) })
        : reply.text(ANSWER);
    const primary = openai.chat(id('gpt-4o'));
    const { result } = await run(script, primary, {});
    expect(await result.text).toBe(ANSWER);
    expect((await result.response).modelId).toBe(primary.modelId);
  });
});
