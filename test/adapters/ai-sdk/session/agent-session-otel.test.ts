/**
 * An AgentSession's auto-retries and compactions in the caller's trace (OpenTelemetry SDK, in-memory exporter,
 * `@ai-sdk/otel`'s integration), over the OpenAI chat wire (the fault kit behind MSW): a span per retry covering its
 * wait, a span per compaction, both under the span active when `prompt()` was called; the retries counted; no span
 * when the session's calls turn the SDK's telemetry off.
 */
import { createOpenAI } from '@ai-sdk/openai';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AgentSession, type AgentSessionOptions } from '../../../../adapters/ai-sdk/session/agent-session.js';
import { fault, reply, type Script } from '../../../../mocks/index.js';
import { mockHandlers } from '../../../../mocks/msw.js';
import type { Sleep } from '../../../../src/util/time.js';
import { inApp, installOtel } from '../otel-harness.js';

const msw = setupServer();
const otel = installOtel();
beforeAll(() => msw.listen({ onUnhandledFrame: 'error' }));
afterEach(() => {
  msw.resetHandlers();
  otel.reset();
});
afterAll(() => {
  msw.close();
  otel.uninstall();
});

const openai = createOpenAI({ apiKey: 'sk-test' });
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

function session(script: Script, options: Partial<AgentSessionOptions> = {}) {
  msw.use(...mockHandlers(script));
  /** The graceful-ai spans finished when each backoff sleep began (none: the retry span is still open). */
  const finishedAtSleep: string[][] = [];
  const sleep: Sleep = async (_ms, signal) => {
    finishedAtSleep.push(otel.spans().map((s) => s.name));
    if (signal?.aborted) throw signal.reason;
  };
  const agent = new AgentSession({ model: openai.chat('gpt-mock'), logger: quiet, sleep, ...options });
  return { agent, finishedAtSleep };
}

/** The session retries counted so far (the counter is cumulative over the file). */
async function sessionRetries(): Promise<number> {
  const points = await otel.metric('graceful_ai.retries');
  expect(points.map((p) => p.attributes)).toEqual(
    points.length === 0 ? [] : [{ 'graceful_ai.scope': 'session', 'graceful_ai.error.kind': 'transient' }],
  );
  return Number(points[0]?.value ?? 0);
}

const graceful = () => otel.spans().filter((s) => s.name.startsWith('graceful-ai.session'));
const time = ([s, ns]: [number, number]) => s * 1e9 + ns;
const endsBefore = (a: ReadableSpan, b: ReadableSpan) => time(a.endTime) <= time(b.startTime);

describe('AgentSession auto-retries in the trace', () => {
  it('a span per retry under the caller span, after the failed call, holding the retried one; counted', async () => {
    const { agent, finishedAtSleep } = session([fault.serverError(503), reply.text('Hello there')]);
    const counted = await sessionRetries();
    await inApp(() => agent.prompt('hi'));
    expect(otel.tree()).toBe(
      [
        'app.request',
        '  invoke_agent gpt-mock',
        '    step 1',
        '      chat gpt-mock',
        '        graceful-ai.attempt',
        '  graceful-ai.session.retry',
        '    invoke_agent gpt-mock',
        '      step 1',
        '        chat gpt-mock',
        '          graceful-ai.attempt',
      ].join('\n'),
    );
    const retry = otel.span('graceful-ai.session.retry');
    expect(retry.attributes).toEqual({
      'graceful_ai.session.retry.attempt': 1,
      'graceful_ai.retry.delay_ms': 2000,
      'graceful_ai.error.kind': 'transient',
      'graceful_ai.error.reason': 'status:503',
      'error.type': 'AI_APICallError',
      'graceful_ai.session.retry.outcome': 'ok',
    });
    // The span covers the wait and the retried call: open while the backoff sleeps, ended after the retried call.
    expect(finishedAtSleep).toEqual([expect.not.arrayContaining(['graceful-ai.session.retry'])]);
    const [failed, retried] = otel.spans().filter((s) => s.name === 'invoke_agent gpt-mock');
    expect(endsBefore(failed!, retry)).toBe(true);
    expect(time(retried!.endTime)).toBeLessThanOrEqual(time(retry.endTime));
    expect(retry.status.code).not.toBe(2);
    expect(await sessionRetries()).toBe(counted + 1);
  });

  it('two retries: two spans numbered 1 and 2 with their backoff', async () => {
    const { agent } = session([fault.serverError(503), fault.serverError(500), reply.text('Hello')]);
    await inApp(() => agent.prompt('hi'));
    expect(
      graceful().map((s) => [
        s.attributes['graceful_ai.session.retry.attempt'],
        s.attributes['graceful_ai.retry.delay_ms'],
        s.attributes['graceful_ai.error.reason'],
        s.attributes['graceful_ai.session.retry.outcome'],
        otel.parentName(s),
      ]),
    ).toEqual([
      // The first retried call failed too: its retry is `failed`, and the second one follows beside it.
      [1, 2000, 'status:503', 'failed', 'app.request'],
      [2, 4000, 'status:500', 'ok', 'app.request'],
    ]);
  });

  it('a retry cancelled before its attempt went out ends with outcome failed', async () => {
    const { agent } = session([fault.serverError(503), reply.text('never')]);
    agent.subscribe((event) => {
      if (event.type === 'auto_retry_start') agent.abortRetry();
    });
    await expect(inApp(() => agent.prompt('hi'))).rejects.toMatchObject({ name: 'RetryCancelledError' });
    expect(otel.span('graceful-ai.session.retry').attributes).toMatchObject({
      'graceful_ai.session.retry.attempt': 1,
      'graceful_ai.session.retry.outcome': 'failed',
    });
  });

  it('a session in a busy turn: the rejected prompt leaves the running turn its spans', async () => {
    const { agent } = session([fault.serverError(503), reply.text('Hello')]);
    const running = inApp(() => agent.prompt('one'));
    await expect(agent.prompt('two')).rejects.toMatchObject({ name: 'SessionBusyError' });
    await running;
    expect(graceful().map((s) => [s.name, otel.parentName(s)])).toEqual([
      ['graceful-ai.session.retry', 'app.request'],
    ]);
  });
});

describe('AgentSession compaction in the trace', () => {
  it('a span per compaction under the caller span: messages before, removed, outcome', async () => {
    const { agent } = session([reply.text('a1'), fault.contextLengthExceeded(), reply.text('a2')]);
    await agent.prompt('one');
    otel.reset();
    await inApp(() => agent.prompt('two'));
    const compaction = otel.span('graceful-ai.session.compaction');
    expect(compaction.attributes).toEqual({
      'graceful_ai.compaction.messages_before': 3,
      'graceful_ai.compaction.messages_removed': 1,
      'graceful_ai.compaction.outcome': 'ok',
    });
    expect(otel.parentName(compaction)).toBe('app.request');
    expect(graceful().map((s) => s.name)).toEqual(['graceful-ai.session.compaction']);
  });

  it('a compaction that throws ends failed', async () => {
    const compact = () => {
      throw new Error('summariser down');
    };
    const { agent } = session([fault.contextLengthExceeded()], { compact });
    await expect(agent.prompt('one')).rejects.toThrow('summariser down');
    expect(otel.span('graceful-ai.session.compaction').attributes).toEqual({
      'graceful_ai.compaction.messages_before': 1,
      'graceful_ai.compaction.outcome': 'failed',
    });
  });
});

describe('when the session turns the SDK telemetry off', () => {
  it('no span, even under a recording caller span; the retry is still counted', async () => {
    const { agent } = session([fault.serverError(503), fault.contextLengthExceeded(), reply.text('Hi')], {
      callOptions: { telemetry: { isEnabled: false } },
    });
    const counted = await sessionRetries();
    await inApp(() => agent.prompt('hi'));
    expect(otel.tree()).toBe('app.request');
    expect(await sessionRetries()).toBe(counted + 1);
  });
});
