/**
 * Every 0.1 name that 0.2 renamed keeps working as a deprecated alias through 0.x: users and tests written against
 * 0.1 must not break. One test per alias proves the OLD name gives the SAME behaviour as the new one (not merely
 * "no throw"); then the one debug line per alias and process (NODE_DEBUG=graceful-ai, in a child process), and the
 * `@deprecated` TSDoc on every old declaration.

 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isStepCount, streamText as sdkStreamText, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { z } from 'zod';
import { generateText } from '../../../adapters/ai-sdk/generate-text.js';
import {
  type GracefulToolOptions,
  getRetryInfo,
  gracefulTool,
  type RetryInfo,
} from '../../../adapters/ai-sdk/graceful-tool.js';
import { onToolEvent } from '../../../adapters/ai-sdk/index.js';
import {
  type StreamGuardEvent,
  type StreamGuardEventMap,
  type StreamGuardOptions,
  streamGuard,
} from '../../../adapters/ai-sdk/stream-guard.js';
import { streamText } from '../../../adapters/ai-sdk/stream-text.js';
import type { Classification } from '../../../src/classify/types.js';
import { RetryDelayTooLongError, RetryExhaustedError } from '../../../src/errors/session-errors.js';
import {
  Emitter,
  type TelemetryOptions,
  ToolTelemetry,
  type ToolTelemetryOptions,
  TurnTrace,
} from '../../../src/observe/index.js';
import type { ToolEvent } from '../../../src/observe/tool-events.js';
import {
  createToolPolicy,
  type PlanStepResult,
  retry,
  runToolPlan,
  type StepResult,
} from '../../../src/policy/index.js';
import type { SessionEvent } from '../../../src/session/events.js';
import type { SessionMessage } from '../../../src/session/message.js';
import { type AttemptContext, SessionCore } from '../../../src/session/session-core.js';
import type { SessionSettingsInput } from '../../../src/session/settings.js';
import { badRequest, isolatedTelemetry, unavailable } from '../../src/policy/fixtures.js';
import { lastToolOutputs, scriptedModel as turnModel } from './scripted-model.js';
import { apiError, finish, preamble, scriptedModel, streamOf, textParts } from './stream-guard-fixtures.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const noSleep = async (_ms: number, _signal?: AbortSignal) => {};

// ---------------------------------------------------------------------------------------------------------------
// Tool options: `retry: { maxAttempts, … }` → `autoRetry: { maxRetries, … }`
// ---------------------------------------------------------------------------------------------------------------

/** Wraps a tool that fails with a 503 `failures` times, calls it once, and reports what happened. */
async function callTool(options: GracefulToolOptions, failures = Number.POSITIVE_INFINITY) {
  let n = 0;
  const execute = vi.fn(async (_input: { city: string }) => {
    if (++n <= failures) throw unavailable();
    return 'sunny';
  });
  const { telemetry, seen } = isolatedTelemetry();
  const sleep = vi.fn(noSleep);
  const wrapped = gracefulTool(tool({ inputSchema: z.object({ city: z.string() }), execute }), {
    name: 'weather',
    breaker: false,
    runtime: { sleep, random: () => 0.5, telemetry },
    ...options,
  });
  const result = await Promise.resolve(
    wrapped.execute?.({ city: 'Oslo' }, { toolCallId: 'c1', messages: [], context: {} }),
  ).then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error: String(error) }),
  );
  const retries = seen.flatMap((e) => (e.type === 'tool_retry' ? [e] : []));
  return { attempts: execute.mock.calls.length, sleeps: sleep.mock.calls.map((c) => c[0]), retries, result };
}

describe('deprecated tool option retry → autoRetry', () => {
  it('retry: { maxAttempts: 3 } runs exactly 3 attempts on a transient error, as autoRetry: { maxRetries: 2 }', async () => {
    const old = await callTool({ retry: { maxAttempts: 3 } });
    const current = await callTool({ autoRetry: { maxRetries: 2 } });
    expect(old.attempts).toBe(3);
    expect(old.result.ok).toBe(false);
    expect(old).toEqual(current);
  });

  it('retry: { maxAttempts: 3 } recovers a tool that fails twice (the model sees the value)', async () => {
    const old = await callTool({ retry: { maxAttempts: 3 } }, 2);
    expect(old.attempts).toBe(3);
    expect(old.result).toEqual({ ok: true, value: 'sunny' });
    // One attempt fewer is not enough: the budget really is 3 attempts, not 3 retries.
    const short = await callTool({ retry: { maxAttempts: 3 } }, 3);
    expect(short.attempts).toBe(3);
    expect(short.result.ok).toBe(false);
  });

  it("retry's backoff fields (initialDelayMs, multiplier, maxDelayMs, jitter) act as under autoRetry", async () => {
    const backoff = { initialDelayMs: 10, multiplier: 3, maxDelayMs: 50, jitter: 0 };
    const old = await callTool({ retry: { maxAttempts: 4, ...backoff } });
    const current = await callTool({ autoRetry: { maxRetries: 3, ...backoff } });
    expect(old.sleeps).toEqual([10, 30, 50]);
    expect(old).toEqual(current);
  });

  it('retry: false is still one attempt, as autoRetry: false', async () => {
    const old = await callTool({ retry: false });
    const current = await callTool({ autoRetry: false });
    expect(old.attempts).toBe(1);
    expect(old.sleeps).toEqual([]);
    expect(old).toEqual(current);
  });

  it('autoRetry wins when both are given', async () => {
    const both = await callTool({ autoRetry: { maxRetries: 1 }, retry: { maxAttempts: 5 } });
    expect(both.attempts).toBe(2);
    const off = await callTool({ autoRetry: false, retry: { maxAttempts: 5 } });
    expect(off.attempts).toBe(1);
  });

  it('createToolPolicy (graceful-ai/policy) takes retry: { maxAttempts } too', async () => {
    const run = async (options: Parameters<typeof createToolPolicy>[1]) => {
      const fn = vi.fn(() => Promise.reject(unavailable()));
      const { telemetry } = isolatedTelemetry();
      const policy = createToolPolicy('t', { breaker: false, sleep: noSleep, telemetry, ...options });
      const outcome = await policy.run(fn);
      return { calls: fn.mock.calls.length, ok: outcome.ok, attempts: outcome.attempts };
    };
    const old = await run({ retry: { maxAttempts: 3 } });
    expect(old).toEqual({ calls: 3, ok: false, attempts: 3 });
    expect(old).toEqual(await run({ autoRetry: { maxRetries: 2 } }));
  });

  it("retry()'s policy (graceful-ai/policy) still accepts maxAttempts: 3 attempts, then the last error", async () => {
    const run = async (policy: Parameters<typeof retry>[1]) => {
      let n = 0;
      const fn = vi.fn(() => Promise.reject(unavailable(`fail ${++n}`)));
      const error = await retry(fn, { sleep: noSleep, random: () => 0.5, ...policy }).catch(
        (e: unknown) => e,
      );
      return { calls: fn.mock.calls.length, message: (error as Error).message };
    };
    const old = await run({ maxAttempts: 3 });
    expect(old).toEqual({ calls: 3, message: 'fail 3' });
    expect(old).toEqual(await run({ maxRetries: 2 }));
    // maxRetries wins when both are given.
    expect((await run({ maxRetries: 0, maxAttempts: 5 })).calls).toBe(1);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Stream guard: `maxStreamRetries` → `maxRetries`; `backoff: { … }` → flat fields; `events` → `onEvent`
// ---------------------------------------------------------------------------------------------------------------

/** A model whose every stream request fails with a 503 before any content. */
function alwaysUnavailable() {
  return new MockLanguageModelV4({
    doStream: async () => {
      throw apiError(503);
    },
  });
}

/** Runs the AI SDK's own `streamText` over a guarded model that always fails before content. */
async function guardedRun(options: StreamGuardOptions) {
  const model = alwaysUnavailable();
  const sleep = vi.fn(noSleep);
  const result = sdkStreamText({
    model: wrapLanguageModel({ model, middleware: streamGuard({ sleep, random: () => 0.5, ...options }) }),
    prompt: 'hi',
    maxRetries: 0,
    onError: () => {},
  });
  const error = await result.text.then(
    () => undefined,
    (e: unknown) => e,
  );
  return { requests: model.doStreamCalls.length, sleeps: sleep.mock.calls.map((c) => c[0]), error };
}

describe('deprecated stream guard options', () => {
  it('maxStreamRetries: 1 makes exactly 2 stream requests on repeated pre-content 503s, as maxRetries: 1', async () => {
    const old = await guardedRun({ maxStreamRetries: 1 });
    const current = await guardedRun({ maxRetries: 1 });
    expect(old.requests).toBe(2);
    expect(old.error).toMatchObject({ statusCode: 503 });
    expect(old.requests).toBe(current.requests);
    expect(old.sleeps).toEqual(current.sleeps);
    expect((await guardedRun({ maxStreamRetries: 0 })).requests).toBe(1);
  });

  it('maxRetries wins over maxStreamRetries when both are given', async () => {
    expect((await guardedRun({ maxRetries: 0, maxStreamRetries: 3 })).requests).toBe(1);
  });

  it('backoff: { initialDelayMs: 7 } shows as delay 7 in a stream_retry event (and in the sleep)', async () => {
    const events: StreamGuardEvent[] = [];
    const old = await guardedRun({
      maxRetries: 1,
      backoff: { initialDelayMs: 7 },
      onEvent: (e) => events.push(e),
    });
    expect(old.sleeps).toEqual([7]);
    expect(events.filter((e) => e.type === 'stream_retry')).toMatchObject([{ delayMs: 7, nextAttempt: 2 }]);
    expect(old.sleeps).toEqual((await guardedRun({ maxRetries: 1, initialDelayMs: 7 })).sleeps);
  });

  it('backoff: { initialDelayMs, multiplier, maxDelayMs, jitter } gives the same delays as the flat fields', async () => {
    const backoff = { initialDelayMs: 10, multiplier: 3, maxDelayMs: 50, jitter: 0.5 };
    const random = () => 0.9; // with jitter 0.5: ×1.4, so jitter really is read
    const old = await guardedRun({ maxRetries: 3, random, backoff });
    const current = await guardedRun({ maxRetries: 3, random, ...backoff });
    expect(old.sleeps).toEqual([14, 42, 50]);
    expect(old.sleeps).toEqual(current.sleeps);
  });

  it('the flat fields win over backoff when both are given', async () => {
    const both = await guardedRun({
      maxRetries: 2,
      initialDelayMs: 5,
      backoff: { initialDelayMs: 7, multiplier: 3 },
    });
    // initialDelayMs from the flat field (5), multiplier from backoff (3): each field on its own.
    expect(both.sleeps).toEqual([5, 15]);
  });

  it('events: new Emitter() receives the same events onEvent does', async () => {
    const emitter = new Emitter<StreamGuardEventMap>();
    const viaEmitter: StreamGuardEvent[] = [];
    emitter.subscribe((e) => viaEmitter.push(e));
    await guardedRun({ maxRetries: 1, events: emitter });
    const viaOnEvent: StreamGuardEvent[] = [];
    await guardedRun({ maxRetries: 1, onEvent: (e) => viaOnEvent.push(e) });
    const summary = (events: StreamGuardEvent[]) =>
      events.map((e) => (e.type === 'stream_retry' ? [e.type, e.nextAttempt, e.delayMs] : [e.type]));
    expect(summary(viaEmitter)).toEqual([['stream_retry', 2, 1000], ['stream_failed']]);
    expect(summary(viaEmitter)).toEqual(summary(viaOnEvent));
    const failed = viaEmitter.at(-1);
    expect(failed?.type === 'stream_failed' && failed.attempts).toHaveLength(2);
  });

  it('events: any object with emit(type, payload) receives them; with onEvent, both do', async () => {
    const emitted: [string, unknown][] = [];
    const sink = { emit: (type: string, payload: unknown) => emitted.push([type, payload]) };
    const listened: StreamGuardEvent[] = [];
    await guardedRun({ maxRetries: 1, events: sink, onEvent: (e) => listened.push(e) });
    expect(emitted.map(([type]) => type)).toEqual(['stream_retry', 'stream_failed']);
    expect(listened.map((e) => e.type)).toEqual(['stream_retry', 'stream_failed']);
    expect(emitted[0]?.[1]).toMatchObject({ nextAttempt: 2, delayMs: 1000 });
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Drop-ins: `graceful` → `streamGuard`
// ---------------------------------------------------------------------------------------------------------------

/** The drop-in `streamText` over a model that always fails before content. */
async function dropInRun(
  options: Pick<Parameters<typeof streamText>[0], 'graceful' | 'streamGuard' | 'maxRetries'>,
) {
  const model = alwaysUnavailable();
  const result = streamText({ model, prompt: 'hi', onError: () => {}, turnTimeoutMs: false, ...options });
  const error = await result.text.then(
    () => undefined,
    (e: unknown) => e,
  );
  return { requests: model.doStreamCalls.length, error };
}

/**
 * The drop-in `streamText` over a model that answers after one 503 (with `retry-after-ms: 0`, so an unguarded SDK
 * retries at once too); the guard's attempt records, if any (the guard records only when it retried or recovered).
 */
async function dropInAttempts(options: Pick<Parameters<typeof streamText>[0], 'graceful' | 'streamGuard'>) {
  const model = scriptedModel([
    { throws: apiError(503, { headers: { 'retry-after-ms': '0' } }) },
    streamOf([...preamble('r1'), ...textParts('Hi there'), finish()]),
  ]);
  const result = streamText({ model, prompt: 'hi', turnTimeoutMs: false, maxRetries: 1, ...options });
  expect(await result.text).toBe('Hi there');
  return (await result.providerMetadata)?.['graceful-ai']?.attempts;
}

describe('deprecated drop-in option graceful → streamGuard', () => {
  it('graceful: { maxRetries: 0 } behaves as streamGuard: { maxRetries: 0 } (one request, the 503 surfaces)', async () => {
    const old = await dropInRun({ graceful: { maxRetries: 0, sleep: noSleep } });
    const current = await dropInRun({ streamGuard: { maxRetries: 0, sleep: noSleep } });
    expect(old.requests).toBe(1);
    expect(old.error).toMatchObject({ statusCode: 503 });
    expect(old.requests).toBe(current.requests);
    // …and it is really read: without it the drop-in's default (2 retries) applies.
    expect((await dropInRun({ graceful: { sleep: noSleep } })).requests).toBe(3);
  });

  it('graceful: { maxRetries: 1, … } is the guard used, on the drop-in generateText too', async () => {
    const model = alwaysUnavailableGenerate();
    await generateText({
      model,
      prompt: 'hi',
      turnTimeoutMs: false,
      graceful: { maxRetries: 1, sleep: noSleep },
    }).catch(() => undefined);
    expect(model.doGenerateCalls).toHaveLength(2);
  });

  it('graceful: false calls the SDK unguarded, as streamGuard: false', async () => {
    expect(await dropInAttempts({})).toMatchObject([
      { attempt: 1, mode: 'stream', outcome: 'failed' },
      { attempt: 2, mode: 'stream', outcome: 'ok' },
    ]);
    expect(await dropInAttempts({ graceful: false })).toBeUndefined();
    expect(await dropInAttempts({ streamGuard: false })).toBeUndefined();
  });

  it('streamGuard wins when both are given', async () => {
    const both = await dropInRun({
      streamGuard: { maxRetries: 1, sleep: noSleep },
      graceful: { maxRetries: 0, sleep: noSleep },
    });
    expect(both.requests).toBe(2);
    expect(await dropInAttempts({ streamGuard: {}, graceful: false })).toHaveLength(2);
  });

  // 0.1's drop-in built `streamGuard({ maxStreamRetries: options.maxRetries ?? 2, ...graceful })`: a count inside
  // `graceful` (either name) wins over the call's `maxRetries`.
  it('graceful: { maxStreamRetries: 1 } (a 0.1 drop-in call) makes 2 requests, as in 0.1', async () => {
    const old = await dropInRun({ graceful: { maxStreamRetries: 1, sleep: noSleep } });
    expect(old.requests).toBe(2);
  });
});

function alwaysUnavailableGenerate() {
  return new MockLanguageModelV4({
    doGenerate: async () => {
      throw apiError(503);
    },
    doStream: async () => {
      throw apiError(503);
    },
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Session settings: `retry.baseDelayMs` → `retry.initialDelayMs`; `retry.maxDelayMs` alone bounds retry-after
// ---------------------------------------------------------------------------------------------------------------

type Outcome = { text: string } | Error;

/** An error the session's classify hook reads (`kind`, `retryAfterMs` ride on it). */
function sessionError(message: string, retryAfterMs?: number): Error {
  return Object.assign(new Error(message), { kind: 'transient' as const, retryAfterMs });
}

const sessionClassify = (error: unknown): Classification | undefined => {
  const e = error as { kind?: Classification['kind']; retryAfterMs?: number };
  return e.kind === undefined ? undefined : { kind: e.kind, reason: 'test', retryAfterMs: e.retryAfterMs };
};

function session(outcomes: Outcome[], settings?: SessionSettingsInput) {
  const sleeps: number[] = [];
  const core = new SessionCore<SessionMessage, { text: string }>({
    classify: { classify: sessionClassify },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    clock: { now: () => 0 },
    settings,
  });
  const events: SessionEvent[] = [];
  core.subscribe((event) => events.push(event));
  const run = async (ctx: AttemptContext<SessionMessage>) => {
    const outcome = outcomes.shift();
    if (outcome === undefined) throw new Error('no more outcomes');
    if (outcome instanceof Error) throw outcome;
    ctx.commitStep([{ role: 'assistant', content: outcome.text }]);
    return outcome;
  };
  const prompt = (text: string) =>
    core.runTurn(text, { role: 'user', content: text }, run).catch((error: unknown) => error);
  const retryStarts = () => events.flatMap((e) => (e.type === 'auto_retry_start' ? [e] : []));
  return { core, sleeps, prompt, retryStarts };
}

const twoFailuresThenOk = (): Outcome[] => [sessionError('503 a'), sessionError('503 b'), { text: 'ok' }];

describe('deprecated session settings', () => {
  it('retry.baseDelayMs: 10 gives delays 10, 20, as retry.initialDelayMs: 10', async () => {
    const old = session(twoFailuresThenOk(), { retry: { baseDelayMs: 10 } });
    expect(await old.prompt('hi')).toEqual({ text: 'ok' });
    expect(old.sleeps).toEqual([10, 20]);
    const current = session(twoFailuresThenOk(), { retry: { initialDelayMs: 10 } });
    await current.prompt('hi');
    expect(old.sleeps).toEqual(current.sleeps);
    expect(old.retryStarts()).toEqual(current.retryStarts());
  });

  it('the resolved settings still carry baseDelayMs (= initialDelayMs); initialDelayMs wins when both are given', async () => {
    const old = session([], { retry: { baseDelayMs: 10 } });
    expect(old.core.settings.retry).toMatchObject({ baseDelayMs: 10, initialDelayMs: 10 });
    const both = session(twoFailuresThenOk(), { retry: { baseDelayMs: 10, initialDelayMs: 3 } });
    await both.prompt('hi');
    expect(both.sleeps).toEqual([3, 6]);
  });

  // `session.settings` is public and re-read at every decision: the 0.1 name stays live on it.
  it('changing settings.retry.baseDelayMs on a live session applies, as in 0.1', async () => {
    const old = session(twoFailuresThenOk());
    old.core.settings.retry.baseDelayMs = 10;
    await old.prompt('hi');
    expect(old.sleeps).toEqual([10, 20]);
  });

  it('retry.maxDelayMs alone still bounds the server delay: a longer retry-after fails with RetryDelayTooLongError', async () => {
    const old = session([sessionError('429 slow down', 10_000)], { retry: { maxDelayMs: 5_000 } });
    const error = await old.prompt('hi');
    expect(RetryDelayTooLongError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ retryAfterMs: 10_000, maxRetryAfterMs: 5_000, maxDelayMs: 5_000 });
    expect(old.sleeps).toEqual([]);
    // The same as the 0.2 setting…
    const current = session([sessionError('429 slow down', 10_000)], { retry: { maxRetryAfterMs: 5_000 } });
    expect(await current.prompt('hi')).toMatchObject({ retryAfterMs: 10_000, maxRetryAfterMs: 5_000 });
    // …and without either, 10 s is within the default bound and is waited.
    const neither = session([sessionError('429 slow down', 10_000), { text: 'ok' }]);
    expect(await neither.prompt('hi')).toEqual({ text: 'ok' });
    expect(neither.sleeps).toEqual([10_000]);
  });

  it('retry.maxDelayMs alone: a retry-after within it is waited exactly, and it still caps the backoff', async () => {
    const within = session([sessionError('429', 3_000), { text: 'ok' }], { retry: { maxDelayMs: 5_000 } });
    expect(await within.prompt('hi')).toEqual({ text: 'ok' });
    expect(within.sleeps).toEqual([3_000]);
    const capped = session(twoFailuresThenOk(), { retry: { baseDelayMs: 1_000, maxDelayMs: 1_500 } });
    await capped.prompt('hi');
    expect(capped.sleeps).toEqual([1_000, 1_500]);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Events, errors, info and trace fields: the old field holds the same value as the new one
// ---------------------------------------------------------------------------------------------------------------

describe('deprecated event, error, info and trace fields', () => {
  it('session auto_retry_start.maxAttempts holds retry.maxRetries, as maxRetries does', async () => {
    const s = session(twoFailuresThenOk(), { retry: { maxRetries: 5, initialDelayMs: 1 } });
    await s.prompt('hi');
    const starts = s.retryStarts();
    expect(starts.map((e) => [e.attempt, e.maxRetries, e.maxAttempts])).toEqual([
      [1, 5, 5],
      [2, 5, 5],
    ]);
  });

  it('RetryExhaustedError.attempts equals retries (retries after the first attempt)', async () => {
    const s = session(
      [1, 2, 3].map((n) => sessionError(`overloaded ${n}`)),
      { retry: { maxRetries: 2, initialDelayMs: 1 } },
    );
    const error = await s.prompt('hi');
    expect(RetryExhaustedError.isInstance(error)).toBe(true);
    const exhausted = error as RetryExhaustedError;
    expect(exhausted.retries).toBe(2);
    expect(exhausted.attempts).toBe(2);
    expect(new RetryExhaustedError({ retries: 4, cause: new Error('x') }).attempts).toBe(4);
  });

  it('RetryDelayTooLongError.maxDelayMs equals maxRetryAfterMs', async () => {
    const s = session([sessionError('429', 120_000)], { retry: { maxRetryAfterMs: 60_000 } });
    const error = (await s.prompt('hi')) as RetryDelayTooLongError;
    expect(error.maxRetryAfterMs).toBe(60_000);
    expect(error.maxDelayMs).toBe(60_000);
    const built = new RetryDelayTooLongError({ retryAfterMs: 9, maxRetryAfterMs: 7, cause: new Error('x') });
    expect(built.maxDelayMs).toBe(7);
  });

  it('getRetryInfo(options).maxRetries equals .retries on every call of a run', async () => {
    const infos: RetryInfo[] = [];
    let n = 0;
    const execute = vi.fn(async (_input: { city: string }, options: object) => {
      const info = getRetryInfo(options);
      if (info) infos.push(info);
      // The 0.1 idiom: soft-fail on the last attempt the budget allows.
      if (info && info.retry === info.maxRetries) return 'soft answer';
      if (++n <= 5) throw new Error(`down ${n}`);
      return 'sunny';
    });
    const weather = gracefulTool(tool({ inputSchema: z.object({ city: z.string() }), execute }), {
      name: 'weather',
      retries: 2,
      autoRetry: false,
      breaker: false,
    });
    const model = turnModel((step) =>
      step < 3 ? { calls: [['weather', { city: 'Oslo' }]] } : { text: 'done' },
    );
    await generateText({
      model,
      tools: { weather },
      prompt: 'go',
      stopWhen: isStepCount(5),
      maxRetries: 0,
      turnTimeoutMs: false,
    });
    expect(infos.map((i) => [i.retry, i.retries, i.maxRetries])).toEqual([
      [0, 2, 2],
      [1, 2, 2],
      [2, 2, 2],
    ]);
    const outputs = model.doGenerateCalls.flatMap((c) => lastToolOutputs(c));
    expect(outputs.at(-1)).toEqual({ toolName: 'weather', output: { type: 'text', value: 'soft answer' } });
  });

  it("every tool event carries tool = toolName; tool_retry's maxAttempts = maxRetries + 1 (a telemetry's emitter)", async () => {
    const trace = new TurnTrace();
    const { telemetry, seen } = isolatedTelemetry(trace);
    const rt = { sleep: noSleep, random: () => 0.5, telemetry };
    // tool_retry, tool_succeeded
    let n = 0;
    await createToolPolicy('weather', { autoRetry: { maxRetries: 2 }, breaker: false, ...rt }).run(() => {
      if (++n === 1) throw unavailable();
      return 'ok';
    });
    // tool_failed
    await createToolPolicy('strict', { autoRetry: false, breaker: false, ...rt }).run(() => {
      throw badRequest();
    });
    // tool_timeout
    await createToolPolicy('slow', { autoRetry: false, breaker: false, timeoutMs: 50, ...rt }).run(
      () => new Promise(() => {}),
    );
    // circuit_state, fallback_used
    await createToolPolicy('flaky', { autoRetry: false, breaker: { failureThreshold: 1 }, ...rt }).run(
      () => {
        throw unavailable();
      },
      { fallback: { name: 'backup', run: () => 'from backup' } },
    );
    // plan_step
    await runToolPlan([{ id: 'step-1', tool: async function lookup() {} }], { telemetry });

    const types = new Set(seen.map((e) => e.type));
    for (const type of [
      'tool_retry',
      'tool_succeeded',
      'tool_failed',
      'tool_timeout',
      'circuit_state',
      'fallback_used',
      'plan_step',
    ]) {
      expect(types, type).toContain(type);
    }
    for (const event of seen) {
      if ('toolName' in event) expect(event.tool, event.type).toBe(event.toolName);
    }
    const retryEvent = seen.find((e) => e.type === 'tool_retry');
    expect(retryEvent).toMatchObject({ tool: 'weather', toolName: 'weather', maxRetries: 2, maxAttempts: 3 });
    expect(seen.find((e) => e.type === 'plan_step')).toMatchObject({ tool: 'lookup', toolName: 'lookup' });

    // TraceEntry.tool_id holds the toolName, except for plan_step, where it is the step's id (as in 0.1).
    expect(trace.entries.length).toBeGreaterThanOrEqual(7);
    for (const entry of trace.entries) {
      if (entry.event_type === 'plan_step')
        expect(entry).toMatchObject({ tool_id: 'step-1', toolName: 'lookup' });
      else expect(entry.tool_id, entry.event_type).toBe(entry.toolName);
    }
  });

  it('onToolEvent (main entry) receives tool and maxAttempts from a tool wrapped with the default telemetry', async () => {
    const seen: ToolEvent[] = [];
    const unsubscribe = onToolEvent((event) => seen.push(event));
    try {
      let n = 0;
      const execute = async () => {
        if (++n === 1) throw unavailable();
        return 'sunny';
      };
      const wrapped = gracefulTool(tool({ inputSchema: z.object({}), execute }), {
        name: 'main-entry-tool',
        autoRetry: { maxRetries: 3 },
        breaker: false,
        runtime: { sleep: noSleep, random: () => 0.5 },
      });
      await wrapped.execute?.({}, { toolCallId: 'c1', messages: [], context: {} });
    } finally {
      unsubscribe();
    }
    const mine = seen.filter((e) => 'toolName' in e && e.toolName === 'main-entry-tool');
    expect(mine.map((e) => e.type)).toEqual(['tool_retry', 'tool_succeeded']);
    expect(mine[0]).toMatchObject({ tool: 'main-entry-tool', maxRetries: 3, maxAttempts: 4 });
    expect(mine[1]).toMatchObject({ tool: 'main-entry-tool', attempts: 2 });
  });

  it('TurnTrace.record({ tool_id }) still works: toolName and tool_id both hold it', () => {
    const trace = new TurnTrace();
    trace.record({ event_type: 'tool_retry', tool_id: 'weather', decision: 'retry', retry_count: 1 });
    expect(trace.entries[0]).toMatchObject({ toolName: 'weather', tool_id: 'weather', retry_count: 1 });
    trace.record({ event_type: 'tool_retry', toolName: 'weather', decision: 'retry' });
    expect(trace.entries[1]).toMatchObject({ toolName: 'weather', tool_id: 'weather' });
    expect(JSON.parse(JSON.stringify(trace)).entries[0].tool_id).toBe('weather');
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Types: `StepResult` → `PlanStepResult` (graceful-ai/policy), `TelemetryOptions` → `ToolTelemetryOptions`
// (graceful-ai/observe)
// ---------------------------------------------------------------------------------------------------------------

describe('deprecated type aliases', () => {
  it('StepResult and PlanStepResult are the same type, assignable both ways', async () => {
    expectTypeOf<StepResult>().toEqualTypeOf<PlanStepResult>();
    expectTypeOf<StepResult>().toMatchTypeOf<PlanStepResult>();
    expectTypeOf<PlanStepResult>().toMatchTypeOf<StepResult>();
    const plan = await runToolPlan([{ id: 'a', tool: async () => 1 }], {
      telemetry: isolatedTelemetry().telemetry,
    });
    const old: StepResult[] = plan.steps;
    const current: PlanStepResult[] = old;
    expect(current).toMatchObject([{ id: 'a', outcome: 'ok', value: 1 }]);
  });

  it('TelemetryOptions and ToolTelemetryOptions are the same type; a 0.1 TelemetryOptions still builds a ToolTelemetry', () => {
    expectTypeOf<TelemetryOptions>().toEqualTypeOf<ToolTelemetryOptions>();
    expectTypeOf<TelemetryOptions>().toMatchTypeOf<ToolTelemetryOptions>();
    expectTypeOf<ToolTelemetryOptions>().toMatchTypeOf<TelemetryOptions>();
    const { events, seen } = isolatedTelemetry();
    const options: TelemetryOptions = { events };
    const telemetry = new ToolTelemetry(options);
    const back: ToolTelemetryOptions = options;
    telemetry.succeeded({ toolName: 't', attempts: 1 });
    expect(back.events).toBe(events);
    expect(seen).toMatchObject([{ type: 'tool_succeeded', toolName: 't', tool: 't', attempts: 1 }]);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// One debug line per alias and process (NODE_DEBUG=graceful-ai), in a child process
// ---------------------------------------------------------------------------------------------------------------

/** Every alias that writes a line through `deprecatedOption`: [old name, new name] as the line quotes them. */
const loggedAliases: [string, string][] = [
  ['retry', 'autoRetry'],
  ['retry.maxAttempts', 'autoRetry.maxRetries'],
  ['maxAttempts', 'maxRetries'],
  ['maxStreamRetries', 'maxRetries'],
  ['backoff', 'initialDelayMs, multiplier, maxDelayMs, jitter'],
  ['events', 'onEvent'],
  ['graceful', 'streamGuard'],
  ['settings.retry.baseDelayMs', 'settings.retry.initialDelayMs'],
];

/** Uses the 0.2 names once, then every deprecated option twice. */
const childScript = `
import { MockLanguageModelV4 } from 'ai/test';
import { guardCallOptions } from './adapters/ai-sdk/guard-call-options.ts';
import { streamGuard } from './adapters/ai-sdk/stream-guard.ts';
import { Emitter } from './src/observe/emitter.ts';
import { retry } from './src/policy/retry.ts';
import { createToolPolicy } from './src/policy/tool-policy.ts';
import { resolveSessionSettings } from './src/session/settings.ts';

const model = new MockLanguageModelV4();
streamGuard({ maxRetries: 1, initialDelayMs: 5, multiplier: 2, onEvent() {} });
createToolPolicy('new', { autoRetry: { maxRetries: 1 } });
await retry(() => 1, { maxRetries: 1 });
resolveSessionSettings({ retry: { initialDelayMs: 5, maxRetryAfterMs: 5 } });
guardCallOptions({ model, streamGuard: {}, turnTimeoutMs: false });
process.stderr.write('--- 0.2 names done ---\\n');
for (let i = 0; i < 2; i++) {
  streamGuard({ maxStreamRetries: 1 });
  streamGuard({ backoff: { initialDelayMs: 5 } });
  streamGuard({ events: new Emitter() });
  createToolPolicy('old' + i, { retry: { maxAttempts: 2 } });
  await retry(() => 1, { maxAttempts: 2 });
  resolveSessionSettings({ retry: { baseDelayMs: 5 } });
  guardCallOptions({ model, graceful: {}, turnTimeoutMs: false });
}
process.stdout.write('done');
`;

function runChild(env: NodeJS.ProcessEnv) {
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', childScript], {
    cwd: root,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(child.error).toBeUndefined();
  expect(child.status, child.stderr).toBe(0);
  expect(child.stdout).toBe('done');
  return child.stderr.split('\n').filter((line) => line.length > 0);
}

describe('the deprecation debug line', () => {
  it('with NODE_DEBUG=graceful-ai: exactly one line per deprecated option used twice, naming it and the new name; none for the 0.2 names', () => {
    const lines = runChild({ ...process.env, NODE_DEBUG: 'graceful-ai' });
    const marker = lines.indexOf('--- 0.2 names done ---');
    expect(marker).toBeGreaterThanOrEqual(0);
    expect(lines.slice(0, marker).filter((l) => /deprecated/i.test(l))).toEqual([]);
    const deprecated = lines.slice(marker + 1).filter((l) => /deprecated/i.test(l));
    for (const [oldName, newName] of loggedAliases) {
      const naming = deprecated.filter((l) =>
        l.includes(`option '${oldName}' is deprecated; use '${newName}'`),
      );
      expect(naming, oldName).toHaveLength(1);
      expect(naming[0]).toMatch(/^GRACEFUL-AI \d+: debug /);
    }
    expect(deprecated).toHaveLength(loggedAliases.length);
  }, 60_000);

  it('without NODE_DEBUG: nothing is written', () => {
    const env = { ...process.env };
    delete env.NODE_DEBUG;
    expect(runChild(env)).toEqual(['--- 0.2 names done ---']);
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------------------------
// `@deprecated` TSDoc on every old declaration
// ---------------------------------------------------------------------------------------------------------------

/** The TSDoc block right above the first line matching `declaration` (after the first line matching `within`). */
function docAbove(file: string, declaration: RegExp, within?: RegExp): string | undefined {
  const lines = readFileSync(`${root}${file}`, 'utf8').split('\n');
  const start = within ? lines.findIndex((line) => within.test(line)) : 0;
  if (start < 0) return undefined;
  const at = lines.findIndex((line, i) => i >= start && declaration.test(line));
  if (at < 0) return undefined;
  let i = at - 1;
  if (!/\*\/\s*$/.test(lines[i] ?? '')) return '';
  const end = i;
  while (i > 0 && !lines[i]!.includes('/**')) i--;
  return lines.slice(i, end + 1).join('\n');
}

describe('@deprecated TSDoc', () => {
  it.each<[file: string, within: RegExp | undefined, declaration: RegExp, newName: string]>([
    ['src/policy/tool-policy.ts', /interface ToolPolicyOptions\b/, /^\s*retry\?:/, 'autoRetry'],
    ['src/policy/retry.ts', /interface RetryOptions\b/, /^\s*maxAttempts\?:/, 'maxRetries'],
    [
      'adapters/ai-sdk/stream-guard.ts',
      /interface StreamGuardOptions\b/,
      /^\s*maxStreamRetries\?:/,
      'maxRetries',
    ],
    ['adapters/ai-sdk/stream-guard.ts', /interface StreamGuardOptions\b/, /^\s*backoff\?:/, 'initialDelayMs'],
    ['adapters/ai-sdk/stream-guard.ts', /interface StreamGuardOptions\b/, /^\s*events\?:/, 'onEvent'],
    [
      'adapters/ai-sdk/guard-call-options.ts',
      /interface GracefulCallOptions\b/,
      /^\s*graceful\?:/,
      'streamGuard',
    ],
    ['src/session/settings.ts', /interface RetrySettings\b/, /^\s*baseDelayMs\??:/, 'initialDelayMs'],
    ['src/session/events.ts', /^\s*auto_retry_start:/, /^\s*maxAttempts:/, 'maxRetries'],
    ['src/observe/tool-events.ts', /interface ToolNamed\b/, /^\s*tool:/, 'toolName'],
    ['src/observe/tool-events.ts', /^\s*tool_retry:/, /^\s*maxAttempts:/, 'maxRetries'],
    ['src/errors/session-errors.ts', /class RetryExhaustedError\b/, /^\s*get attempts\(\)/, 'retries'],
    [
      'src/errors/session-errors.ts',
      /class RetryDelayTooLongError\b/,
      /^\s*get maxDelayMs\(\)/,
      'maxRetryAfterMs',
    ],
    ['adapters/ai-sdk/graceful-tool.ts', /interface RetryInfo\b/, /^\s*maxRetries:/, 'retries'],
    ['src/observe/trace.ts', /interface TraceEntry\b/, /^\s*tool_id:/, 'toolName'],
    ['src/observe/trace.ts', /^\s*record\(entry/, /^\s*tool_id\?:/, 'toolName'],
    ['src/policy/tool-plan.ts', undefined, /^export type StepResult\b/, 'PlanStepResult'],
    ['src/observe/tool-telemetry.ts', undefined, /^export type TelemetryOptions\b/, 'ToolTelemetryOptions'],
  ])('%s: %s … %s is @deprecated, pointing to %s', (file, within, declaration, newName) => {
    const doc = docAbove(file, declaration, within);
    expect(doc, `no declaration ${declaration} in ${file}`).toBeDefined();
    expect(doc).toMatch(/@deprecated/);
    expect(doc).toContain(newName);
  });
});
