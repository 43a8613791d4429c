/** The scenario matrix, `AgentSession`: retries, a tool step kept across a retry, compaction and quota on every wire. */
import { type ModelMessage, tool } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AgentSession, type AgentSessionOptions } from '../../../../adapters/ai-sdk/session/agent-session.js';
import {
  fault,
  lastToolResults,
  lastUserText,
  reply,
  type Script,
  type Step,
} from '../../../../mocks/index.js';
import type { SessionEvent } from '../../../../src/session/events.js';
import { type Wire, wires } from '../../../wires.js';
import { mockEveryWire, recordedSleep } from './mocked.js';

const mock = mockEveryWire();
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

function start(wire: Wire, script: Script, options: Partial<AgentSessionOptions> = {}) {
  const requests = mock(script);
  const { sleep, delays } = recordedSleep();
  const session = new AgentSession({ model: wire.model(), logger: quiet, sleep, ...options });
  const events: SessionEvent<ModelMessage>[] = [];
  session.subscribe((event) => events.push(event));
  const retryEvents = () =>
    events.filter((e) => e.type === 'auto_retry_start' || e.type === 'auto_retry_end');
  return { session, events, retryEvents, requests, delays };
}

describe.each(wires)('AgentSession on $name ($label)', (wire) => {
  // [what, the step, the wait the session must take]: a 429 names its own (retry-after, or Gemini's RetryInfo),
  // the others take the session's first backoff (2 s).
  const transient: Array<[string, Step, number]> = [
    ['a 429 with a retry-after of 1 s', fault.rateLimit({ retryAfterSeconds: 1 }), 1000],
    ['overloaded (529 on Anthropic, 503 elsewhere)', fault.overloaded(), 2000],
    ['a 503', fault.serverError(503), 2000],
  ];
  it.each(transient)('%s → auto-retry after the wait, the turn answers', async (_name, step, wait) => {
    const s = start(wire, [step, reply.text('Hello there')]);
    await expect(s.session.prompt('hi')).resolves.toMatchObject({
      text: 'Hello there',
      finishReason: 'stop',
    });
    expect(s.delays).toEqual([wait]);
    expect(s.retryEvents()).toMatchObject([
      { type: 'auto_retry_start', attempt: 1, delayMs: wait },
      { type: 'auto_retry_end', success: true, attempt: 1 },
    ]);
    expect(s.events.find((e) => e.type === 'attempt_error')).toMatchObject({ kind: 'transient' });
    expect(s.requests).toHaveLength(2);
    expect(s.session.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('a later step fails after a tool step: the retry continues after it, the tool never runs twice', async () => {
    const execute = vi.fn(async ({ city }: { city: string }) => `sunny in ${city}`);
    const weather = tool({ inputSchema: z.object({ city: z.string() }), execute });
    const s = start(
      wire,
      [reply.toolCall('weather', { city: 'Oslo' }), fault.serverError(503), reply.text('Sunny.')],
      { tools: { weather } },
    );
    await expect(s.session.prompt('weather?')).resolves.toMatchObject({ text: 'Sunny.' });
    expect(execute).toHaveBeenCalledTimes(1);
    expect(s.requests).toHaveLength(3);
    expect(lastToolResults(s.requests[2]!)).toMatchObject([
      { toolName: 'weather', output: expect.stringContaining('sunny in Oslo') },
    ]);
    expect(s.session.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(s.events.filter((e) => e.type === 'tool_call' || e.type === 'tool_result')).toMatchObject([
      { type: 'tool_call', toolName: 'weather', input: { city: 'Oslo' } },
      { type: 'tool_result', toolName: 'weather', output: 'sunny in Oslo' },
    ]);
  });

  it('a context overflow → compaction once, then the turn continues with a shorter context', async () => {
    const s = start(wire, [reply.text('a1'), fault.contextLengthExceeded(), reply.text('a2')]);
    await s.session.prompt('Summarise the first commit.');
    await expect(s.session.prompt('And the second?')).resolves.toMatchObject({ text: 'a2' });
    expect(s.events.filter((e) => e.type.startsWith('compaction'))).toEqual([
      { type: 'compaction_start', messageCount: 3, errorMessage: expect.any(String) },
      { type: 'compaction_end', messageCount: 2, removedCount: 1 },
    ]);
    expect(s.retryEvents()).toEqual([]);
    expect(s.delays).toEqual([]);
    expect(s.requests).toHaveLength(3);
    expect(lastUserText(s.requests[2]!)).toBe('And the second?');
    // The first question was compacted away; the answer to it stays (responses sends it by reference).
    expect(JSON.stringify(s.requests[1]!.body)).toContain('first commit');
    expect(JSON.stringify(s.requests[2]!.body)).not.toContain('first commit');
    expect(s.session.messages.map((m) => m.role)).toEqual(['assistant', 'user', 'assistant']);
  });

  it('a spent balance (insufficient quota) is terminal: the usage-limit hook is asked, no retry', async () => {
    const onUsageLimit = vi.fn((_error: unknown): false => false);
    const s = start(wire, [fault.insufficientQuota(), reply.text('never')], { onUsageLimit });
    const error = await s.session.prompt('hi').catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AI_APICallError', isRetryable: wire.name !== 'messages' });
    expect(onUsageLimit).toHaveBeenCalledOnce();
    expect(onUsageLimit.mock.calls[0]?.[0]).toBe(error);
    expect(s.requests).toHaveLength(1);
    expect(s.retryEvents()).toEqual([]);
    expect(s.delays).toEqual([]);
    expect(s.events.at(-1)).toMatchObject({ type: 'turn_end', success: false });
  });
});
