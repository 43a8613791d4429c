/**
 * Safe re-execution through the drop-in `generateText`: a tool is re-run automatically only when that is safe
 * (declared idempotent, MCP annotations, or an error that proves the call never took effect); otherwise its
 * failure goes to the model at once. A loud tool fails the run with its own error after one execution, whatever its
 * breaker does.
 */
import { isStepCount, type Tool, type ToolSet, tool } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { generateText } from '../../../../adapters/ai-sdk/drop-in/generate-text.js';
import { gracefulTool } from '../../../../adapters/ai-sdk/tools/graceful-tool.js';
import { CircuitOpenError } from '../../../../src/errors/circuit-open-error.js';
import { modelText } from '../../../../src/model-text/model-text.js';
import { isolatedTelemetry, unavailable, virtualTime } from '../../../src/policy/fixtures.js';
import { lastToolOutputs, scriptedModel } from '../scripted-model.js';

const input = z.object({ to: z.string() });
const coded = (code: string, message: string) => Object.assign(new Error(message), { code });

/** A `send_email` tool that "sends", then throws `error` (a function: a fresh error per call) on its first `failures` calls. */
function sendEmail(error: () => unknown, failures = Number.POSITIVE_INFINITY, extra: Partial<Tool> = {}) {
  const sent: string[] = [];
  let calls = 0;
  const execute = vi.fn(async ({ to }: { to: string }) => {
    sent.push(to);
    if (++calls <= failures) throw error();
    return `sent to ${to}`;
  });
  // The extra fields (MCP annotations) are put on the tool object as an MCP client does.
  return { tool: Object.assign(tool({ inputSchema: input, execute }), extra) as Tool, execute, sent };
}

/**
 * Runs the drop-in `generateText`: the model calls `send_email` once, then answers. Automatic retries run on a
 * virtual clock (the default `autoRetry`: 4 retries). Returns what the model was told and the tool events.
 */
async function run(tools: ToolSet, gracefulTools: Record<string, unknown> = {}) {
  const { telemetry, seen } = isolatedTelemetry();
  const model = scriptedModel((step) =>
    step === 0 ? { calls: [['send_email', { to: 'ann@example.com' }]] } : { text: 'done' },
  );
  const result = await generateText({
    model,
    prompt: 'Mail Ann.',
    tools,
    stopWhen: isStepCount(3),
    gracefulTools: { runtime: { ...virtualTime(), random: () => 0.5, telemetry }, ...gracefulTools },
  });
  const told = model.doGenerateCalls.flatMap((c) => lastToolOutputs(c));
  const failed = seen.flatMap((e) => (e.type === 'tool_failed' ? [e.decision] : []));
  const retries = seen.filter((e) => e.type === 'tool_retry').length;
  return { result, told, failed, retries };
}

/** The text the model read for the failed `send_email` call. */
const errorText = (told: { output: unknown }[]) => {
  expect(told).toHaveLength(1);
  const output = told[0]!.output as { type: string; value: string };
  expect(output.type).toBe('error-text');
  return output.value;
};

describe('safe re-execution: a tool that is not idempotent', () => {
  it('throwing a plain Error (after sending) is executed exactly once and the model is told', async () => {
    const email = sendEmail(() => new Error('mail server said goodbye after accepting the message'));
    const { told, failed, retries, result } = await run({ send_email: email.tool });
    expect(email.execute).toHaveBeenCalledTimes(1);
    expect(email.sent).toEqual(['ann@example.com']);
    expect(retries).toBe(0);
    expect(failed).toEqual(['not_idempotent']);
    expect(errorText(told)).toContain('mail server said goodbye after accepting the message');
    expect(result.text).toBe('done');
  });

  it('declared idempotent: true, the same tool is retried (4 retries by default); its undeclared twin is not', async () => {
    const declared = sendEmail(() => new Error('mail server said goodbye'));
    const onTool = await run({ send_email: gracefulTool(declared.tool, { idempotent: true }) });
    expect(declared.execute).toHaveBeenCalledTimes(5);
    expect(onTool.retries).toBe(4);
    expect(onTool.failed).toEqual(['exhausted']);
    expect(errorText(onTool.told)).toContain('mail server said goodbye');

    // The drop-in's `gracefulTools` defaults declare every tool of the set.
    const byDefault = sendEmail(() => new Error('mail server said goodbye'));
    await run({ send_email: byDefault.tool }, { idempotent: true });
    expect(byDefault.execute).toHaveBeenCalledTimes(5);

    const twin = sendEmail(() => new Error('mail server said goodbye'));
    await run({ send_email: twin.tool });
    expect(twin.execute).toHaveBeenCalledTimes(1);
  });

  it.each<[string, number, Record<string, unknown>]>([
    [
      'metadata.annotations.idempotentHint (@ai-sdk/mcp)',
      5,
      { metadata: { annotations: { idempotentHint: true } } },
    ],
    [
      'metadata.annotations.readOnlyHint (@ai-sdk/mcp)',
      5,
      { metadata: { annotations: { readOnlyHint: true } } },
    ],
    ['annotations.idempotentHint (MCP wire shape)', 5, { annotations: { idempotentHint: true } }],
    ['annotations.readOnlyHint (MCP wire shape)', 5, { annotations: { readOnlyHint: true } }],
    [
      'hints that are false or not booleans',
      1,
      { metadata: { annotations: { idempotentHint: false, readOnlyHint: 'true', destructiveHint: false } } },
    ],
  ])('MCP tool annotations: %s → %i execution(s)', async (_name, executions, extra) => {
    const email = sendEmail(() => new Error('mail server said goodbye'), Number.POSITIVE_INFINITY, extra);
    await run({ send_email: email.tool });
    expect(email.execute).toHaveBeenCalledTimes(executions);
  });

  it('an explicit idempotent: false wins over the MCP hints', async () => {
    const hinted = { metadata: { annotations: { readOnlyHint: true, idempotentHint: true } } };
    const email = sendEmail(() => new Error('mail server said goodbye'), Number.POSITIVE_INFINITY, hinted);
    await run({ send_email: gracefulTool(email.tool, { idempotent: false }) });
    expect(email.execute).toHaveBeenCalledTimes(1);
  });

  it.each<[string, number, () => unknown]>([
    // Proof the call never took effect: re-run, and the model sees the result.
    [
      'a refused connection (ECONNREFUSED)',
      3,
      () => coded('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.5:587'),
    ],
    ['a 503 from the dependency', 3, () => unavailable('mail API: 503 Service Unavailable')],
    ['a 503 on the cause', 3, () => new Error('mail API failed', { cause: unavailable() })],
    // No proof: the message may have gone out before the reset.
    ['a reset connection (ECONNRESET)', 1, () => coded('ECONNRESET', 'socket hang up')],
  ])('whose dependency fails twice with %s runs %i time(s)', async (_name, executions, error) => {
    const email = sendEmail(error, 2);
    const { told } = await run({ send_email: email.tool });
    expect(email.execute).toHaveBeenCalledTimes(executions);
    if (executions === 3) {
      expect(told).toEqual([
        { toolName: 'send_email', output: { type: 'text', value: 'sent to ann@example.com' } },
      ]);
    }
  });

  it('a recognised outage not re-run: the model reads the error, that the call may have taken effect, and the outage guidance', async () => {
    const email = sendEmail(() => coded('ECONNRESET', 'socket hang up'));
    const { told, failed } = await run({ send_email: email.tool });
    expect(email.execute).toHaveBeenCalledTimes(1);
    expect(failed).toEqual(['not_idempotent']);
    const text = errorText(told);
    expect(text).toContain('socket hang up');
    expect(text.endsWith(`${modelText.mayHaveTakenEffect}\n\n${modelText.guidance.unavailable}`)).toBe(true);
    expect(text).not.toContain(modelText.guidance.retry);
  });
});

describe('safe re-execution: a loud (graceful: false) tool', () => {
  const loud = (email: ReturnType<typeof sendEmail>, options: Parameters<typeof gracefulTool>[1] = {}) => ({
    send_email: gracefulTool(email.tool, { graceful: false, ...options }),
  });

  it('is executed once and the run rejects with that very error', async () => {
    const error = new Error('mail server said goodbye');
    const email = sendEmail(() => error);
    await expect(run(loud(email))).rejects.toBe(error);
    expect(email.execute).toHaveBeenCalledTimes(1);
  });

  it('also when its failure opens the breaker (failureThreshold: 1)', async () => {
    const error = new Error('mail server said goodbye');
    const email = sendEmail(() => error);
    await expect(run(loud(email, { breaker: { failureThreshold: 1 } }))).rejects.toBe(error);
    expect(email.execute).toHaveBeenCalledTimes(1);
  });

  it('an idempotent one whose failure opens the breaker before its retry fails with its own error, not CircuitOpenError', async () => {
    const error = new Error('mail server said goodbye');
    const email = sendEmail(() => error);
    const rejection = await run(loud(email, { idempotent: true, breaker: { failureThreshold: 1 } })).catch(
      (e: unknown) => e,
    );
    expect(rejection).toBe(error);
    expect(CircuitOpenError.isInstance(rejection)).toBe(false);
    expect(email.execute).toHaveBeenCalledTimes(1);
  });

  it('a graceful tool in the same situation still tells the model the circuit is open', async () => {
    const error = new Error('mail server said goodbye');
    const email = sendEmail(() => error);
    const { told, failed } = await run({
      send_email: gracefulTool(email.tool, { idempotent: true, breaker: { failureThreshold: 1 } }),
    });
    expect(email.execute).toHaveBeenCalledTimes(1);
    expect(failed).toEqual(['circuit_open']);
    expect(errorText(told)).toContain('circuit open');
  });
});
