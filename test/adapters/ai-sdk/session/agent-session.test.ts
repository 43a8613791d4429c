import { appendFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAI } from '@ai-sdk/openai';
import { APICallError, type ModelMessage } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AgentSession, type AgentSessionOptions } from '../../../../adapters/ai-sdk/session/agent-session.js';
import {
  fault,
  lastUserText,
  type RecordedRequest,
  reply,
  type Script,
  streamFault,
} from '../../../../mocks/index.js';
import { mockHandlers } from '../../../../mocks/msw.js';
import { ContextOverflowError } from '../../../../src/errors/context-overflow-error.js';
import {
  RetryCancelledError,
  RetryDelayTooLongError,
  RetryExhaustedError,
  SessionBusyError,
} from '../../../../src/errors/session-errors.js';
import type { SessionEvent } from '../../../../src/session/events.js';
import type { Sleep } from '../../../../src/util/time.js';

const msw = setupServer();
beforeAll(() => msw.listen({ onUnhandledFrame: 'error' }));
afterEach(() => {
  msw.resetHandlers();
  vi.useRealTimers();
});
afterAll(() => msw.close());

const openai = createOpenAI({ apiKey: 'sk-test' });
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

type Api = 'chat' | 'responses';

/** Waits on real I/O (setImmediate is not faked) without moving the fake clock, unlike `vi.waitFor`. */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !condition(); i++) await new Promise((resolve) => setImmediate(resolve));
  expect(condition()).toBe(true);
}

function start(
  script: Script,
  options: Partial<AgentSessionOptions> & { api?: Api; realSleep?: boolean } = {},
) {
  const handlers = mockHandlers(script);
  msw.use(...handlers);
  const sleeps: number[] = [];
  const fakeSleep: Sleep = async (ms, signal) => {
    sleeps.push(ms);
    if (signal?.aborted) throw signal.reason;
  };
  const { api = 'chat', realSleep, ...rest } = options;
  const session = new AgentSession({
    model: api === 'chat' ? openai.chat('gpt-mock') : openai.responses('gpt-mock'),
    system: 'You are terse.',
    logger: quiet,
    ...(realSleep ? {} : { sleep: fakeSleep }),
    ...rest,
  });
  const events: SessionEvent<ModelMessage>[] = [];
  session.subscribe((event) => events.push(event));
  const retryEvents = () =>
    events.filter((e) => e.type === 'auto_retry_start' || e.type === 'auto_retry_end');
  return { session, events, retryEvents, sleeps, requests: handlers.requests as RecordedRequest[] };
}

// A tool step kept across a retry, and retries, compaction and quota on every wire:
// matrix/agent-session.matrix.test.ts.
describe.each<Api>(['chat', 'responses'])('AgentSession over the %s API', (api) => {
  it('retries 503s with 2 s then 4 s, emits the retry events in order, and resolves with the answer', async () => {
    const s = start([fault.serverError(503), fault.serverError(500), reply.text('Hello there')], { api });
    await expect(s.session.prompt('hi')).resolves.toMatchObject({
      text: 'Hello there',
      finishReason: 'stop',
    });
    expect(s.sleeps).toEqual([2000, 4000]);
    expect(s.retryEvents()).toEqual([
      {
        type: 'auto_retry_start',
        attempt: 1,
        maxRetries: 3,
        delayMs: 2000,
        errorMessage: 'The server is overloaded or not ready yet.',
      },
      {
        type: 'auto_retry_start',
        attempt: 2,
        maxRetries: 3,
        delayMs: 4000,
        errorMessage: 'The server had an error while processing your request. Sorry about that!',
      },
      { type: 'auto_retry_end', success: true, attempt: 2 },
    ]);
    expect(s.events.map((e) => e.type).filter((t) => t !== 'text_delta')).toEqual([
      'turn_start',
      'message',
      'attempt_error',
      'auto_retry_start',
      'attempt_error',
      'auto_retry_start',
      'message',
      'auto_retry_end',
      'turn_end',
    ]);
    expect(s.events.find((e) => e.type === 'attempt_error')).toMatchObject({
      kind: 'transient',
      reason: 'status:503',
    });
    expect(s.events.filter((e) => e.type === 'text_delta').length).toBeGreaterThan(0);
    expect(s.session.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(s.requests).toHaveLength(3);
    expect(s.session.isRetrying).toBe(false);
  });
});

describe('AgentSession retry policy', () => {
  it('honours retry-after-ms from a 429', async () => {
    const s = start([fault.rateLimit({ retryAfterSeconds: 1, retryAfterMs: 1500 }), reply.text('ok')]);
    await s.session.prompt('hi');
    expect(s.sleeps).toEqual([1500]);
  });

  it('fails at once when the server asks for more than maxDelayMs', async () => {
    const s = start([fault.rateLimit({ retryAfterSeconds: 120 }), reply.text('never')]);
    const error = await s.session.prompt('hi').catch((e: unknown) => e);
    expect(RetryDelayTooLongError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /wait 2m before retrying, which exceeds retry\.maxRetryAfterMs \(1m\)/,
    );
    expect(s.requests).toHaveLength(1);
    expect(s.sleeps).toEqual([]);
  });

  it('surfaces exhaustion as "Retry failed after 3 attempts: <error>"', async () => {
    const s = start([1, 2, 3, 4].map(() => fault.serverError(503)));
    const error = await s.session.prompt('hi').catch((e: unknown) => e);
    expect(RetryExhaustedError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      'Retry failed after 3 attempts: The server is overloaded or not ready yet.',
    );
    expect(APICallError.isInstance((error as Error).cause)).toBe(true);
    expect(s.retryEvents().at(-1)).toMatchObject({ type: 'auto_retry_end', success: false, attempt: 3 });
    expect(s.events.at(-1)).toMatchObject({ type: 'turn_end', success: false });
  });

  it('does not retry insufficient_quota on a 429, nor a 401', async () => {
    const quota = start([fault.insufficientQuota(), reply.text('never')]);
    await expect(quota.session.prompt('hi')).rejects.toThrow(/exceeded your current quota/);
    expect(quota.requests).toHaveLength(1);
    msw.resetHandlers();
    const auth = start([fault.unauthorized(), reply.text('never')]);
    await expect(auth.session.prompt('hi')).rejects.toThrow(/Incorrect API key/);
    expect(auth.requests).toHaveLength(1);
    expect(auth.retryEvents()).toEqual([]);
  });

  it('usage limit: onUsageLimit switches the model and the turn retries at once', async () => {
    const onUsageLimit = vi.fn(() => openai.chat('gpt-backup'));
    const s = start([fault.insufficientQuota(), reply.text('from backup')], { onUsageLimit });
    await expect(s.session.prompt('hi')).resolves.toMatchObject({ text: 'from backup' });
    expect(onUsageLimit).toHaveBeenCalledTimes(1);
    expect((s.requests[1]!.body as { model: string }).model).toBe('gpt-backup');
    expect(s.sleeps).toEqual([]);
    expect(s.retryEvents()).toMatchObject([
      { type: 'auto_retry_start', attempt: 1, delayMs: 0 },
      { type: 'auto_retry_end', success: true, attempt: 1 },
    ]);
  });

  it('classifies an error no rule knows as permanent (unknown: permanent): no retry', async () => {
    const doStream = vi.fn(async () => {
      throw new Error('the flux capacitor is misaligned');
    });
    const session = new AgentSession({ model: new MockLanguageModelV4({ doStream }), logger: quiet });
    const events: SessionEvent<ModelMessage>[] = [];
    session.subscribe((e) => events.push(e));
    await expect(session.prompt('hi')).rejects.toThrow('flux capacitor');
    expect(doStream).toHaveBeenCalledTimes(1);
    expect(events.find((e) => e.type === 'attempt_error')).toMatchObject({
      kind: 'permanent',
      reason: 'unknown',
    });
  });

  it('uses per-session classifier overrides, and classifies unknown errors as permanent', async () => {
    const teapot = () =>
      fault.http(418, { error: { message: 'short and stout', type: 'teapot', code: null } });
    const plain = start([teapot(), reply.text('never')]);
    await expect(plain.session.prompt('hi')).rejects.toThrow('short and stout');
    expect(plain.requests).toHaveLength(1);
    msw.resetHandlers();
    const s = start([teapot(), reply.text('brewed')], {
      classify: { treatAsTransient: [/short and stout/] },
    });
    await expect(s.session.prompt('hi')).resolves.toMatchObject({ text: 'brewed' });
    expect(s.events.find((e) => e.type === 'attempt_error')).toMatchObject({ kind: 'transient' });
  });
});

describe('AgentSession with the stream guard', () => {
  it('a stream cut mid-answer is recovered inside the attempt: no session retry, only the full answer kept', async () => {
    const s = start([
      reply.text('Partial answer here', { fault: streamFault.cut({ afterChars: 8 }) }),
      reply.text('Full answer'),
    ]);
    await expect(s.session.prompt('hi')).resolves.toMatchObject({ text: 'Full answer' });
    expect(s.requests.map((r) => r.stream)).toEqual([true, false]);
    expect(s.retryEvents()).toEqual([]);
    const shown = s.events.flatMap((e) =>
      e.type === 'text_delta' ? [e.delta] : e.type === 'text_reset' ? [`<reset ${e.discardedChars}>`] : [],
    );
    expect(shown.join('')).toBe('Partial <reset 8>Full answer');
    expect(s.session.messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'text', text: 'Full answer' }] },
    ]);
  });
});

describe('AgentSession lifecycle', () => {
  it('prompt() waits for the whole chain (fake timers, real backoff of 2 s and 4 s)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const s = start([fault.serverError(503), fault.serverError(503), reply.text('done')], {
      realSleep: true,
    });
    let settled = false;
    const turn = s.session.prompt('hi').finally(() => {
      settled = true;
    });
    await until(() => s.retryEvents().length === 1);
    await vi.advanceTimersByTimeAsync(1999);
    expect(s.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => s.retryEvents().length === 2);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(4000);
    await expect(turn).resolves.toMatchObject({ text: 'done' });
  });

  it('abortRetry() during the sleep cancels at once: auto_retry_end "Retry cancelled", no further request', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const s = start([fault.serverError(503), reply.text('never')], { realSleep: true });
    const turn = s.session.prompt('hi').catch((e: unknown) => e);
    await until(() => s.session.isRetrying);
    await vi.advanceTimersByTimeAsync(500);
    s.session.abortRetry();
    const error = await turn;
    expect(RetryCancelledError.isInstance(error)).toBe(true);
    expect(s.retryEvents().at(-1)).toEqual({
      type: 'auto_retry_end',
      success: false,
      attempt: 1,
      finalError: 'Retry cancelled',
    });
    expect(s.session.isRetrying).toBe(false);
    expect(s.requests).toHaveLength(1);
  });

  it('abort() mid-stream aborts the request: never retried', async () => {
    const s = start([
      reply.text('This answer stalls forever', { fault: streamFault.stall({ afterChars: 8 }) }),
    ]);
    s.session.subscribe((event) => {
      if (event.type === 'text_delta') s.session.abort();
    });
    await expect(s.session.prompt('hi')).rejects.toThrow();
    expect(s.events.find((e) => e.type === 'attempt_error')).toMatchObject({ kind: 'abort' });
    expect(s.retryEvents()).toEqual([]);
    expect(s.requests).toHaveLength(1);
    expect(s.session.isRunning).toBe(false);
  });

  it('rejects a second prompt() while a turn runs', async () => {
    const s = start([reply.text('first', { delayMs: 20 }), reply.text('second')]);
    const first = s.session.prompt('one');
    await expect(s.session.prompt('two')).rejects.toSatisfy(SessionBusyError.isInstance);
    await first;
    await expect(s.session.prompt('three')).resolves.toMatchObject({ text: 'second' });
  });
});

describe('AgentSession context overflow', () => {
  it('compacts once and continues: overflow → compaction events → success with a shorter context', async () => {
    const s = start([reply.text('a1'), fault.contextLengthExceeded(), reply.text('a2')]);
    await s.session.prompt('one');
    await expect(s.session.prompt('two')).resolves.toMatchObject({ text: 'a2' });
    expect(s.events.filter((e) => e.type.startsWith('compaction'))).toEqual([
      {
        type: 'compaction_start',
        messageCount: 3,
        errorMessage: expect.stringContaining('maximum context length is 128000 tokens'),
      },
      { type: 'compaction_end', messageCount: 2, removedCount: 1 },
    ]);
    expect(s.retryEvents()).toEqual([]);
    const sent = (s.requests[2]!.body as { messages: { role: string }[] }).messages.map((m) => m.role);
    expect(sent).toEqual(['system', 'assistant', 'user']);
    expect(lastUserText(s.requests[2]!)).toBe('two');
  });

  it('a second overflow in the same turn fails with ContextOverflowError carrying the provider error', async () => {
    const s = start([fault.contextLengthExceeded(), fault.contextLengthExceeded(), reply.text('never')]);
    const error = await s.session.prompt('one').catch((e: unknown) => e);
    expect(ContextOverflowError.isInstance(error)).toBe(true);
    expect(APICallError.isInstance((error as Error).cause)).toBe(true);
    expect(s.requests).toHaveLength(2);
  });

  it('uses a custom compact strategy', async () => {
    const compact = vi.fn((messages: readonly ModelMessage[]) => messages.slice(-1));
    const s = start([reply.text('a1'), fault.contextLengthExceeded(), reply.text('a2')], { compact });
    await s.session.prompt('one');
    await s.session.prompt('two');
    expect(compact).toHaveBeenCalledTimes(1);
    expect(s.session.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});

describe('AgentSession persistence', () => {
  it('restores the conversation from a JSONL file after a torn last line and continues it', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'graceful-session-')), 'session.jsonl');
    const script = [fault.serverError(503), reply.text('first answer'), reply.text('second answer')];
    const handlers = mockHandlers(script);
    msw.use(...handlers);
    const options = { model: openai.chat('gpt-mock'), logger: quiet, sleep: async () => {} };
    const first = AgentSession.load(path, options);
    await first.prompt('one');
    expect(() => AgentSession.load(path, options)).toThrow(/in use by process/);
    first.close();
    appendFileSync(path, '{"type":"message","at":1,"message":{"role":"user","cont');
    const warn = vi.fn();
    const second = AgentSession.load(path, { ...options, logger: { ...quiet, warn } });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('torn last line'), expect.anything());
    expect(second.messages).toEqual(first.messages);
    const types = second.store.entries.map((e) => e.type);
    expect(types).toEqual(['message', 'error', 'auto_retry_start', 'message', 'auto_retry_end']);
    await second.prompt('two');
    const sent = (handlers.requests[2]!.body as { messages: { role: string; content: unknown }[] }).messages;
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    second.close();
  });
});
