/**
 * A tool's attempts in the AI SDK's trace: one `graceful-ai.tool.attempt` span per attempt under the SDK's tool span
 * (`execute_tool`, or `ai.toolCall` with `LegacyOpenTelemetry`), what each decided and why; the tool retry and
 * breaker counters; and none when the SDK records no telemetry.
 */
import { isStepCount, tool } from 'ai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { streamText } from '../../../../adapters/ai-sdk/drop-in/stream-text.js';
import { installOtel, type OtelHarness } from '../otel-harness.js';
import { scriptedModel as turnModel } from '../scripted-model.js';
import { flakyExecute } from '../stream-guard-fixtures.js';

let unique = 0;

/** Step 1 calls `tool`, step 2 answers. */
const toolLoopModel = (toolName: string) =>
  turnModel((step) => (step === 0 ? { calls: [[toolName, { city: 'Paris' }]] } : { text: 'Sunny.' }));

const run = async (integrationOff = false, failures = 1, toolName = `weather${++unique}`) => {
  const flaky = flakyExecute(failures, { forecast: 'sunny' });
  const result = streamText({
    model: toolLoopModel(toolName),
    prompt: 'weather?',
    tools: { [toolName]: tool({ inputSchema: z.object({ city: z.string() }), execute: flaky.execute }) },
    stopWhen: isStepCount(3),
    gracefulTools: {
      idempotent: true,
      runtime: { sleep: async () => {}, random: () => 0.5 },
      breaker: { failureThreshold: 2 },
    },
    ...(integrationOff ? { telemetry: { isEnabled: false } } : {}),
  });
  await result.text;
  return { toolName, calls: flaky.calls };
};

describe.each(['otel', 'legacy'] as const)('tool attempts in the trace (%s integration)', (integration) => {
  let otel: OtelHarness;
  beforeAll(() => {
    otel = installOtel({ integration });
  });
  afterEach(() => otel.reset());
  afterAll(() => otel.uninstall());
  const toolSpan = (toolName: string) =>
    integration === 'otel' ? `execute_tool ${toolName}` : 'ai.toolCall';

  it('a tool retried then succeeding: two attempt spans under the SDK tool span', async () => {
    const { toolName, calls } = await run();
    expect(calls()).toBe(2);
    const attempts = otel.spans().filter((s) => s.name === 'graceful-ai.tool.attempt');
    expect(attempts.map((s) => otel.parentName(s))).toEqual([toolSpan(toolName), toolSpan(toolName)]);
    expect(attempts.map((s) => s.attributes)).toEqual([
      {
        'gen_ai.tool.name': toolName,
        'graceful_ai.attempt.number': 1,
        'graceful_ai.tool.decision': 'retry',
        'graceful_ai.error.kind': 'transient',
        'graceful_ai.error.reason': 'code:ECONNRESET',
        'graceful_ai.retry.delay_ms': 100,
        'error.type': 'Error',
      },
      {
        'gen_ai.tool.name': toolName,
        'graceful_ai.attempt.number': 2,
        'graceful_ai.tool.decision': 'ok',
      },
    ]);
    expect(attempts[0]?.status.code).toBe(2);
    expect(await otel.metric('graceful_ai.retries')).toContainEqual({
      attributes: { 'graceful_ai.scope': 'tool', 'gen_ai.tool.name': toolName },
      value: 1,
    });
  });

  it('a tool whose breaker opens: the last attempt says why the call gave up; the opening is counted', async () => {
    const { toolName } = await run(false, 10);
    const attempts = otel.spans().filter((s) => s.name === 'graceful-ai.tool.attempt');
    expect(attempts.map((s) => s.attributes['graceful_ai.tool.decision'])).toEqual([
      'retry',
      'give_up:circuit_open',
    ]);
    const transitions = otel
      .spans()
      .flatMap((s) =>
        s.events.filter((e) => e.name === 'graceful_ai.tool_breaker').map((e) => [s.name, e.attributes]),
      );
    expect(transitions).toEqual([
      [
        toolSpan(toolName),
        {
          'gen_ai.tool.name': toolName,
          'graceful_ai.breaker.from': 'closed',
          'graceful_ai.breaker.to': 'open',
        },
      ],
    ]);
    expect(await otel.metric('graceful_ai.breaker.opens')).toContainEqual({
      attributes: { 'graceful_ai.scope': 'tool', 'gen_ai.tool.name': toolName },
      value: 1,
    });
  });

  it('the SDK telemetry off: no tool attempt span', async () => {
    await run(true);
    expect(otel.spans().filter((s) => s.name.startsWith('graceful-ai'))).toEqual([]);
  });
});
