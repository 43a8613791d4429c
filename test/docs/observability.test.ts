/**
 * docs/observability.md's table of spans, events and metrics is what graceful-ai records: scenarios that exercise
 * every one of them (a recovered stream with a reset, a retry, a failover, a model breaker opening, a repaired
 * history, a tool retried and a tool breaker opening, a session's auto-retry and compaction, shared cool-downs
 * announced, waited out and refused) are run with the OpenTelemetry SDK; the names and attribute
 * keys they record must equal the table's, row by row.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createOpenAI } from '@ai-sdk/openai';
import { isStepCount, tool } from 'ai';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { streamText } from '../../adapters/ai-sdk/drop-in/stream-text.js';
import { AgentSession } from '../../adapters/ai-sdk/session/agent-session.js';
import { fault, reply } from '../../mocks/index.js';
import { mockHandlers } from '../../mocks/msw.js';
import { InMemoryCoordination } from '../../src/policy/shared-cooldowns.js';
import { installOtel, type OtelHarness } from '../adapters/ai-sdk/otel-harness.js';
import { scriptedModel as turnModel } from '../adapters/ai-sdk/scripted-model.js';
import {
  apiError,
  finish,
  generated,
  preamble,
  scriptedModel,
  streamOf,
  textParts,
} from '../adapters/ai-sdk/stream-guard-fixtures.js';
import { markdownTables } from './markdown.js';

const msw = setupServer();
const page = 'docs/observability.md';
const text = readFileSync(join(import.meta.dirname, '../..', page), 'utf8');

/** The table's rows: name → attribute keys (backticked names of `graceful_ai.*`, `gen_ai.*` or `error.*`). */
function documented(): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const cell of markdownTables(page, text)) {
    if (cell.column !== 0 || cell.row.length !== 4) continue;
    const name = /`([^`]+)`/.exec(cell.text)?.[1];
    if (name === undefined) continue;
    const keys = [...(cell.row[3] ?? '').matchAll(/`((?:graceful_ai|gen_ai|error)\.[a-z_.]+)`/g)].map(
      (m) => m[1]!,
    );
    rows.set(name, [...new Set(keys)].sort());
  }
  return rows;
}

let unique = 0;
const quiet = { sleep: vi.fn(async () => {}), random: () => 0.5 };
const id = (provider = 'openai.chat') => ({ provider, modelId: `doc-${++unique}` });
const cut = (shown: string) =>
  streamOf([...preamble('r1'), ...textParts(shown, { open: true })], apiError(503));
const answer = (said: string) => streamOf([...preamble('r2'), ...textParts(said), finish()]);

/** A coordination on a clock only the guard's sleeps move. */
function sharedCooldowns() {
  let now = 0;
  const sleep = async (ms: number) => {
    now += ms;
  };
  return { coordination: new InMemoryCoordination({ clock: { now: () => now } }), sleep };
}

async function scenarios(): Promise<void> {
  // An AgentSession: a 503 retried, then an overflow compacted.
  msw.use(
    ...mockHandlers([
      fault.serverError(503),
      reply.text('a1'),
      fault.contextLengthExceeded(),
      reply.text('a2'),
    ]),
  );
  const agent = new AgentSession({
    model: createOpenAI({ apiKey: 'sk-test' }).chat('gpt-doc'),
    logger: { debug() {}, info() {}, warn() {}, error() {} },
    sleep: async () => {},
  });
  await agent.prompt('one');
  await agent.prompt('two');
  // A retry cancelled during its wait.
  msw.use(...mockHandlers([fault.serverError(503)]));
  agent.subscribe((event) => {
    if (event.type === 'auto_retry_start') agent.abortRetry();
  });
  await agent.prompt('three').catch(() => {});
  // Shared cool-downs: announced by a 429, waited out by the next call, refused when longer than a call may wait.
  const { coordination, sleep } = sharedCooldowns();
  const limited = (seconds: number) => apiError(429, { headers: { 'retry-after': String(seconds) } });
  const shared = { prompt: 'hi', maxRetries: 0, coordination, onError: () => {} };
  const cooled = id();
  await streamText({
    ...shared,
    model: scriptedModel([{ throws: limited(2) }], [], cooled),
    streamGuard: { sleep },
  }).consumeStream();
  await streamText({
    ...shared,
    model: scriptedModel([{ throws: limited(30) }], [], cooled),
    streamGuard: { sleep },
  }).consumeStream();
  await streamText({
    ...shared,
    model: scriptedModel([answer('never')], [], cooled),
    streamGuard: { sleep, maxRetryAfterMs: 10_000 },
  }).consumeStream();
  // A recovered stream whose recovery answers anew (a reset), after a retry before content.
  const recovered = scriptedModel(
    [{ throws: apiError(503) }, cut('Partial')],
    [generated('Another answer.')],
    id(),
  );
  await streamText({ model: recovered, prompt: 'hi', streamGuard: quiet }).text;
  // A failover, and the primary's breaker opening.
  const primary = scriptedModel([{ throws: apiError(503) }], [], id());
  const fallback = scriptedModel([answer('Fallback.')], [], id('anthropic.messages'));
  await streamText({
    model: primary,
    prompt: 'hi',
    maxRetries: 0,
    streamGuard: { ...quiet, fallbackModels: [fallback], modelBreaker: { failureThreshold: 1 } },
  }).text;
  // A history with a tool call that never got its result.
  await streamText({
    model: scriptedModel([answer('Fine.')], [], id()),
    streamGuard: quiet,
    messages: [
      { role: 'user', content: 'weather?' },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'lost', toolName: 'weather', input: { city: 'Paris' } }],
      },
      { role: 'user', content: 'hello?' },
    ],
  }).text;
  // A tool retried, then its breaker opening.
  const model = turnModel((step) => (step === 0 ? { calls: [['weather', {}]] } : { text: 'Done.' }));
  const failing = tool({
    inputSchema: z.object({}),
    execute: async (): Promise<string> => {
      throw Object.assign(new Error('connect ECONNRESET'), { code: 'ECONNRESET' });
    },
  });
  await streamText({
    model,
    prompt: 'weather?',
    tools: { weather: failing },
    stopWhen: isStepCount(3),
    gracefulTools: { runtime: quiet, idempotent: true, breaker: { failureThreshold: 2 } },
  }).text;
}

describe('docs/observability.md: the table of spans, events and metrics', () => {
  let otel: OtelHarness;
  const recorded = new Map<string, Set<string>>();
  const note = (name: string, keys: string[]) => {
    const set = recorded.get(name) ?? new Set<string>();
    for (const key of keys) set.add(key);
    recorded.set(name, set);
  };

  beforeAll(async () => {
    msw.listen({ onUnhandledFrame: 'error' });
    otel = installOtel();
    await scenarios();
    for (const span of otel.spans()) {
      if (span.instrumentationScope.name === 'graceful-ai') note(span.name, Object.keys(span.attributes));
      for (const event of span.events)
        if (event.name.startsWith('graceful_ai.')) note(event.name, Object.keys(event.attributes ?? {}));
    }
    for (const name of [
      'graceful_ai.retries',
      'graceful_ai.recoveries',
      'graceful_ai.recovery.duration',
      'graceful_ai.resets',
      'graceful_ai.failovers',
      'graceful_ai.breaker.opens',
    ]) {
      const points = await otel.metric(name);
      if (points.length > 0)
        note(
          name,
          points.flatMap((p) => Object.keys(p.attributes)),
        );
    }
  });
  afterAll(() => {
    otel.uninstall();
    msw.close();
  });

  it('every documented name is recorded and every recorded name documented', () => {
    expect([...recorded.keys()].sort()).toEqual([...documented().keys()].sort());
  });

  it('each row lists the attribute keys recorded under its name', () => {
    const rows = documented();
    for (const [name, keys] of recorded)
      expect({ name, keys: [...keys].sort() }).toEqual({ name, keys: rows.get(name) });
  });
});
