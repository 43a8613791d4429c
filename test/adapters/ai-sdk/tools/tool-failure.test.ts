import type { ModelMessage } from 'ai';
import { InvalidToolInputError, isStepCount, tool } from 'ai';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { generateText } from '../../../../adapters/ai-sdk/drop-in/generate-text.js';
import { streamText } from '../../../../adapters/ai-sdk/drop-in/stream-text.js';
import { gracefulRepairToolCall } from '../../../../adapters/ai-sdk/tools/graceful-repair-tool-call.js';
import { gracefulTool } from '../../../../adapters/ai-sdk/tools/graceful-tool.js';
import {
  failuresInARow,
  judgeToolFailure,
  PolicyFailure,
  type ToolFailureInput,
} from '../../../../adapters/ai-sdk/tools/tool-failure.js';
import { CircuitOpenError } from '../../../../src/errors/circuit-open-error.js';
import { ModelRetry } from '../../../../src/errors/model-retry.js';
import { TurnDeadlineError } from '../../../../src/errors/turn-deadline-error.js';
import { UnexpectedModelBehavior } from '../../../../src/errors/unexpected-model-behavior.js';
import { modelText } from '../../../../src/model-text/model-text.js';
import type { FailureDecision } from '../../../../src/observe/tool-events.js';
import { lastToolOutputs, scriptedModel } from '../scripted-model.js';

const FIX = modelText.guidance.retry;
const OUTAGE = modelText.guidance.unavailable;
const http = (status: number, message = `HTTP ${status}`) => Object.assign(new Error(message), { status });
const judge = (over: Partial<ToolFailureInput>) =>
  judgeToolFailure({ failure: new Error('x'), toolName: 't', retry: 0, retries: 1, graceful: true, ...over });
const circuitOpen = () => new CircuitOpenError({ toolName: 't', retryAfterMs: 30_000, reopensAt: 0 });

/** A conversation in which `t` failed in the previous step with call id `id`. */
const afterFailure = (id: string): ModelMessage[] => [
  { role: 'user', content: 'go' },
  { role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName: 't', input: {} }] },
  {
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId: id, toolName: 't', output: { type: 'error-text', value: 'x' } },
    ],
  },
];

describe('judgeToolFailure: the one owner of "tool failure → model text"', () => {
  it("the tool's own errors ask the model to fix its call, and count", () => {
    for (const error of [new ModelRetry('bad city'), http(400), new Error('bad id')]) {
      const verdict = judge({ failure: error });
      expect(verdict).toMatchObject({ kind: 'model', counts: true });
      expect(verdict.kind === 'model' && verdict.text.endsWith(FIX)).toBe(true);
    }
  });

  it('an outage never asks to fix arguments: circuit open, or a recognised transient error left after auto-retry', () => {
    const outages: unknown[] = [
      circuitOpen(),
      new PolicyFailure(http(503), {
        decision: 'exhausted',
        classification: { kind: 'transient', reason: 'status:503' },
      }),
      http(503), // no resilience layer ran: the classifier decides
    ];
    for (const failure of outages) {
      const verdict = judge({ failure });
      expect(verdict.kind === 'model' && verdict.text).toMatch(new RegExp(`${OUTAGE}$`));
      expect(verdict.kind === 'model' && verdict.text).not.toContain(FIX);
    }
  });

  it('property: whatever the policy decided, a recognised transient error never reads "Fix the errors"', () => {
    const decisions: FailureDecision[] = [
      'exhausted',
      'budget',
      'retry_after',
      'circuit_open',
      'not_idempotent',
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...decisions),
        fc.constantFrom(429, 500, 502, 503, 504),
        fc.option(fc.integer({ min: 0, max: 600_000 }), { nil: undefined }),
        (decision, status, retryAfterMs) => {
          const failure = new PolicyFailure(http(status), {
            decision,
            classification: { kind: 'transient', reason: `status:${status}` },
            retryAfterMs,
          });
          const verdict = judge({ failure, retry: 0, retries: 5 });
          return verdict.kind === 'model' && !verdict.text.includes(FIX) && verdict.text.endsWith(OUTAGE);
        },
      ),
    );
  });

  it("passes a server's retry-after that the retries could not wait for on to the model", () => {
    const failure = new PolicyFailure(http(429, 'rate limited'), {
      decision: 'retry_after',
      classification: { kind: 'transient', reason: 'status:429', retryAfterMs: 30_000 },
      retryAfterMs: 30_000,
    });
    const verdict = judge({ failure });
    expect(verdict.kind === 'model' && verdict.text).toContain(modelText.retryAfter(30_000));
  });

  it('a recognised outage not re-run (not idempotent) says the call may have taken effect, then the outage guidance', () => {
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    const failure = new PolicyFailure(reset, {
      decision: 'not_idempotent',
      classification: { kind: 'transient', reason: 'code:ECONNRESET' },
    });
    const verdict = judge({ failure });
    expect(verdict).toMatchObject({ kind: 'model', counts: true });
    const text = verdict.kind === 'model' ? verdict.text : '';
    expect(text).toContain('socket hang up');
    expect(text.endsWith(`${modelText.mayHaveTakenEffect}\n\n${OUTAGE}`)).toBe(true);
    expect(text).not.toContain(FIX);
    // An unrecognised error not re-run reads as any error of the tool's own: fix the call, no extra line.
    const plain = judge({
      failure: new PolicyFailure(new Error('mail server said goodbye'), {
        decision: 'not_idempotent',
        classification: { kind: 'transient', reason: 'unknown' },
      }),
    });
    expect(plain.kind === 'model' && plain.text.endsWith(FIX)).toBe(true);
    expect(plain.kind === 'model' && plain.text).not.toContain(modelText.mayHaveTakenEffect);
  });

  it('a deadline says to answer now and does not count', () => {
    const verdict = judge({
      failure: new TurnDeadlineError({ phase: 'skipped', toolName: 't', deadlineMs: 5 }),
    });
    expect(verdict).toMatchObject({ kind: 'model', counts: false });
    expect(verdict.kind === 'model' && verdict.text.endsWith(modelText.guidance.deadline)).toBe(true);
  });

  it('failure number retries + 1 in a row fails the run with UnexpectedModelBehavior (cause: the error)', () => {
    const error = new ModelRetry('again');
    const verdict = judge({ failure: error, retry: 1, retries: 1 });
    expect(verdict.kind).toBe('fail-run');
    expect(UnexpectedModelBehavior.isInstance(verdict.error) && verdict.error.cause).toBe(error);
    // An uncounted failure never exhausts the budget.
    expect(judge({ failure: circuitOpen(), retry: 1, retries: 1 }).kind).toBe('model');
  });

  it('graceful: false fails the run with the original error, except a ModelRetry', () => {
    const error = http(400);
    expect(judge({ failure: error, graceful: false })).toEqual({ kind: 'fail-run', error, counts: true });
    expect(judge({ failure: new ModelRetry('x'), graceful: false }).kind).toBe('model');
  });

  it('a failure that did not count is skipped by failuresInARow, for every caller', () => {
    expect(failuresInARow(afterFailure('counted-1'), 't')).toBe(1);
    judge({ failure: circuitOpen(), toolCallId: 'open-1' });
    expect(failuresInARow(afterFailure('open-1'), 't')).toBe(0);
  });
});

describe('the repair hook counts the budget as gracefulTool does', () => {
  const repairArgs = (messages: ModelMessage[]) => {
    const weather = gracefulTool(tool({ inputSchema: z.object({}), execute: async () => 'ok' }), {
      retries: 1,
      name: 't',
    });
    const error = new InvalidToolInputError({ toolName: 't', toolInput: '{', cause: new Error('bad JSON') });
    return {
      error,
      args: {
        error,
        toolCall: { type: 'tool-call' as const, toolCallId: 'next', toolName: 't', input: '{' },
        tools: { t: weather },
        inputSchema: async () => ({}),
        messages,
        system: undefined,
      },
    };
  };

  it('an earlier circuit-open result does not count against the invalid call (0.1 counted it)', async () => {
    judge({ failure: circuitOpen(), toolCallId: 'open-2' });
    const { error, args } = repairArgs(afterFailure('open-2'));
    expect(await gracefulRepairToolCall()(args as never)).toBeNull();
    expect(String(error)).toContain(modelText.invalidJson);
  });

  it('an earlier counted failure uses up a budget of 1: the run fails', async () => {
    const { error, args } = repairArgs(afterFailure('counted-2'));
    await gracefulRepairToolCall()(args as never);
    expect(() => String(error)).toThrow(UnexpectedModelBehavior);
  });
});

describe('the drop-ins install gracefulRepairToolCall', () => {
  const weather = tool({ inputSchema: z.object({ city: z.string() }), execute: async () => 'sunny' });
  const unknownThenText = () =>
    scriptedModel((step) => (step === 0 ? { calls: [['wether', { city: 'Paris' }]] } : { text: 'done' }));
  const errorTexts = (model: ReturnType<typeof scriptedModel>) =>
    [...model.doGenerateCalls, ...model.doStreamCalls].flatMap((call) =>
      lastToolOutputs(call).flatMap(({ output }) => {
        const o = output as { type: string; value: unknown };
        return o.type === 'error-text' ? [String(o.value)] : [];
      }),
    );

  it.each(['generateText', 'streamText'] as const)(
    'an unknown tool name reaches the model with the available tools and guidance (%s)',
    async (api) => {
      const model = unknownThenText();
      const options = { model, prompt: 'go', tools: { weather }, stopWhen: isStepCount(3) };
      if (api === 'generateText') await generateText(options);
      else await streamText(options).text;
      expect(errorTexts(model)).toEqual([
        `AI_NoSuchToolError: Model tried to call unavailable tool 'wether'. Available tools: weather.\n\n${FIX}`,
      ]);
    },
  );

  it("chains the caller's own experimental_repairToolCall first, and uses its repaired call", async () => {
    const model = unknownThenText();
    const repair = vi.fn(async ({ toolCall }: { toolCall: { toolCallId: string; input: string } }) => ({
      type: 'tool-call' as const,
      toolCallId: toolCall.toolCallId,
      toolName: 'weather',
      input: toolCall.input,
    }));
    const result = await generateText({
      model,
      prompt: 'go',
      tools: { weather },
      stopWhen: isStepCount(3),
      experimental_repairToolCall: repair,
    });
    expect(repair).toHaveBeenCalledTimes(1);
    expect(result.steps[0]?.toolResults.map((r) => r.output)).toEqual(['sunny']);
    expect(errorTexts(model)).toEqual([]);
  });

  it.each([
    ['generateText', 'repairToolCall'],
    ['generateText', 'experimental_repairToolCall'],
    ['streamText', 'repairToolCall'],
    ['streamText', 'experimental_repairToolCall'],
  ] as const)('%s: the caller’s %s that repairs nothing, then graceful-ai’s text', async (api, name) => {
    const model = unknownThenText();
    const repair = vi.fn(async () => null);
    const options = { model, prompt: 'go', tools: { weather }, stopWhen: isStepCount(3), [name]: repair };
    if (api === 'generateText') await generateText(options);
    else await streamText(options).text;
    expect(repair).toHaveBeenCalledOnce();
    expect(errorTexts(model)).toEqual([expect.stringContaining(FIX)]);
  });

  it('gracefulTools: false leaves tools and the repair hook alone (the SDK default)', async () => {
    const model = unknownThenText();
    await generateText({
      model,
      prompt: 'go',
      tools: { weather },
      stopWhen: isStepCount(3),
      gracefulTools: false,
    });
    expect(errorTexts(model)[0]).not.toContain(FIX);
  });
});
