/**
 * A failed run never breaks a stream: the drop-in `streamText`'s parts and UI streams end with the open tool calls
 * closed, an `error`, then `finish`; `onError` is called once; nothing internal reaches a client or a callback.
 */
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import {
  APICallError,
  isStepCount,
  readUIMessageStream,
  type TextStreamPart,
  type ToolSet,
  tool,
  type UIMessage,
  type UIMessageChunk,
} from 'ai';
import { MockLanguageModelV4, simulateReadableStream } from 'ai/test';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { streamText } from '../../../../adapters/ai-sdk/drop-in/stream-text.js';
import { endFailedRunCleanly } from '../../../../adapters/ai-sdk/ui-stream/failed-run-ending.js';
import { runErrorReport } from '../../../../adapters/ai-sdk/ui-stream/run-error-report.js';
import { AggregateToolError } from '../../../../src/errors/aggregate-tool-error.js';
import { UnexpectedModelBehavior } from '../../../../src/errors/unexpected-model-behavior.js';
import { UnfinishedToolCallError } from '../../../../src/errors/unfinished-tool-call-error.js';
import { scriptedModel } from '../scripted-model.js';

type Part = TextStreamPart<ToolSet>;

async function all<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream) out.push(item);
  return out;
}

async function lastMessage(stream: ReadableStream<UIMessageChunk>): Promise<UIMessage> {
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream })) last = message;
  if (last === undefined) throw new Error('no message');
  return last;
}

const SECRET_PATH = '/srv/app/lookup.ts';
/** A new tool each time: a breaker is kept per tool object, and must not open across tests. */
const failingTool = () =>
  tool({
    inputSchema: z.object({ q: z.string() }),
    execute: async (): Promise<string> => {
      throw new Error(`ENOENT: no such file ${SECRET_PATH}`);
    },
  });
const fine = tool({ inputSchema: z.object({}), execute: async () => 'fine' });

/** The model calls `lookup` (and `ok`) until told otherwise: two failures in a row use up `retries: 1`. */
const lookupForever = () =>
  scriptedModel(() => ({
    calls: [
      ['lookup', { q: 'x' }],
      ['ok', {}],
    ],
  }));

describe('a run that uses up a tool’s retries budget (drop-in streamText)', () => {
  const run = (onError = vi.fn()) =>
    streamText({
      model: lookupForever(),
      tools: { lookup: failingTool(), ok: fine },
      prompt: 'hi',
      stopWhen: isStepCount(5),
      onError,
    });

  it('the UI stream ends with the call closed, an error chunk, then finish; onError once; no exception', async () => {
    const onError = vi.fn();
    const onEnd = vi.fn();
    const result = run(onError);
    const chunks = await all(result.toUIMessageStream({ onEnd }));
    expect(chunks.slice(-4)).toEqual([
      { type: 'tool-output-available', toolCallId: 'call-1-1', output: 'fine' },
      { type: 'finish-step' },
      { type: 'error', errorText: 'An error occurred.' },
      { type: 'finish', finishReason: 'error' },
    ]);
    expect(chunks).toContainEqual({
      type: 'tool-output-error',
      toolCallId: 'call-1-0',
      errorText: 'The tool call failed and the run stopped.',
    });
    expect(onError).toHaveBeenCalledOnce();
    expect(UnexpectedModelBehavior.isInstance(onError.mock.calls[0]?.[0].error)).toBe(true);
    await expect(result.text).rejects.toSatisfy(UnexpectedModelBehavior.isInstance);
    // What the app persists: every call closed, no placeholder.
    const { responseMessage } = onEnd.mock.calls[0]![0] as { responseMessage: UIMessage };
    expect(JSON.stringify(responseMessage)).not.toContain('gracefulAi');
    expect(responseMessage.parts.filter((p) => p.type === 'tool-lookup')).toEqual([
      expect.objectContaining({ state: 'output-error' }),
      expect.objectContaining({
        state: 'output-error',
        errorText: 'The tool call failed and the run stopped.',
      }),
    ]);
  });

  it('stream and fullStream end without throwing; onError still once for both', async () => {
    const onError = vi.fn();
    const result = run(onError);
    const parts = await all(result.stream as AsyncIterable<Part>);
    const full = await all(result.fullStream as AsyncIterable<Part>);
    for (const seen of [parts, full]) {
      expect(seen.slice(-2).map((p) => p.type)).toEqual(['error', 'finish']);
      const loud = seen.find((p) => p.type === 'tool-error' && p.toolCallId === 'call-1-0');
      expect(loud).toMatchObject({ toolName: 'lookup', input: { q: 'x' } });
      const error = (loud as { error: unknown }).error;
      expect(UnfinishedToolCallError.isInstance(error)).toBe(true);
      expect((error as UnfinishedToolCallError).endedRun).toBe(true);
      // The error the run failed with, for the server: the tool's own is its cause.
      expect(UnexpectedModelBehavior.isInstance((error as Error).cause)).toBe(true);
      expect(
        seen.some((p) => p.type === 'tool-result' && JSON.stringify(p.output).includes('gracefulAi')),
      ).toBe(false);
    }
    expect(onError).toHaveBeenCalledOnce();
  });

  it('onToolExecutionEnd and onChunk report the failure, not the internal placeholder', async () => {
    const onToolExecutionEnd = vi.fn();
    const onChunk = vi.fn();
    const result = streamText({
      model: lookupForever(),
      tools: { lookup: failingTool(), ok: fine },
      prompt: 'hi',
      stopWhen: isStepCount(5),
      onError: () => {},
      onToolExecutionEnd,
      onChunk,
    });
    await all(result.toUIMessageStream());
    const outputs = onToolExecutionEnd.mock.calls.map(([event]) => event.toolOutput);
    expect(outputs.filter((o) => o.toolName === 'lookup').map((o) => o.type)).toEqual([
      'tool-error',
      'tool-error',
    ]);
    expect(UnexpectedModelBehavior.isInstance(outputs.at(-2)?.error ?? outputs.at(-1)?.error)).toBe(true);
    expect(JSON.stringify(onChunk.mock.calls)).not.toContain('gracefulAi');
  });
});

describe('a graceful: false tool (drop-in streamText)', () => {
  /** A run whose model calls the loud tool with each of `inputs` in one step. */
  const loud = (onError: () => void, ...inputs: string[]) =>
    streamText({
      model: scriptedModel(() => ({ calls: inputs.map((q): [string, unknown] => ['lookup', { q }]) })),
      tools: { lookup: failingTool() },
      gracefulTools: { graceful: false },
      prompt: 'hi',
      stopWhen: isStepCount(3),
      onError,
    });

  it('its error is the run’s, never shown to the user: the UI shows a safe text', async () => {
    const onError = vi.fn();
    const result = loud(onError, 'x');
    const message = await lastMessage(result.toUIMessageStream());
    expect(JSON.stringify(message)).not.toContain(SECRET_PATH);
    expect(message.parts.at(-1)).toMatchObject({
      type: 'tool-lookup',
      state: 'output-error',
      errorText: 'The tool call failed and the run stopped.',
    });
    expect(onError).toHaveBeenCalledOnce();
    expect(String(onError.mock.calls[0]?.[0].error)).toContain(SECRET_PATH);
  });

  it('two in one step: both calls closed, the run fails with AggregateToolError', async () => {
    const onError = vi.fn();
    const result = loud(onError, 'a', 'b');
    const message = await lastMessage(result.toUIMessageStream());
    expect(
      message.parts.filter((p) => p.type === 'tool-lookup').map((p) => (p as { state: string }).state),
    ).toEqual(['output-error', 'output-error']);
    expect(AggregateToolError.isInstance(onError.mock.calls[0]?.[0].error)).toBe(true);
  });
});

describe('a provider failure while a tool call streams its input (streamGuard: false)', () => {
  it('the call still streaming its input is closed before the error chunk', async () => {
    const model = new MockLanguageModelV4({
      doStream: async () => ({
        stream: simulateReadableStream<LanguageModelV4StreamPart>({
          chunks: [
            { type: 'stream-start', warnings: [] },
            { type: 'tool-input-start', id: 'c1', toolName: 'lookup' },
            { type: 'tool-input-delta', id: 'c1', delta: '{"q":' },
            { type: 'error', error: new Error('overloaded') },
          ],
        }),
      }),
    });
    const onError = vi.fn();
    const result = streamText({
      model,
      tools: { lookup: failingTool() },
      prompt: 'hi',
      streamGuard: false,
      onError,
    });
    const chunks = await all(result.toUIMessageStream());
    expect(chunks.slice(-4)).toEqual([
      {
        type: 'tool-output-error',
        toolCallId: 'c1',
        errorText: 'The run failed before the tool call finished.',
      },
      { type: 'error', errorText: 'An error occurred.' },
      { type: 'finish-step' },
      { type: 'finish', finishReason: 'error' },
    ]);
    // The SDK reported the error part itself: once.
    expect(onError).toHaveBeenCalledOnce();
  });
});

describe('a revoked key before the first step (drop-in streamText)', () => {
  const revoked = () =>
    new MockLanguageModelV4({
      doStream: async () => {
        throw new APICallError({
          message: 'Incorrect API key provided',
          url: 'https://api.openai.com/v1/chat/completions',
          requestBodyValues: {},
          statusCode: 401,
          isRetryable: false,
        });
      },
    });

  it('fullStream ends with the error, as ai’s; the UI stream with the error chunk, then finish', async () => {
    const onError = vi.fn();
    const result = streamText({ model: revoked(), prompt: 'hi', onError });
    expect((await all(result.fullStream as AsyncIterable<Part>)).map((p) => p.type)).toEqual([
      'start',
      'error',
    ]);
    const onEnd = vi.fn();
    expect(await all(result.toUIMessageStream({ onEnd }))).toEqual([
      { type: 'start' },
      { type: 'error', errorText: 'An error occurred.' },
      { type: 'finish', finishReason: 'error' },
    ]);
    expect(onError).toHaveBeenCalledOnce();
    // onEnd saw the SDK's own chunks: its outcome is the SDK's.
    expect(onEnd.mock.calls[0]?.[0].outcome).toMatchObject({ status: 'failed' });
  });
});

describe('endFailedRunCleanly', () => {
  /** `parts`, then the end of the stream, or `error` (read after the last part, as a broken connection is). */
  const stream = (parts: Part[], error?: unknown) => {
    const left = [...parts];
    return new ReadableStream<Part>(
      {
        pull(controller) {
          const next = left.shift();
          if (next !== undefined) controller.enqueue(next);
          else if (error === undefined) controller.close();
          else controller.error(error);
        },
      },
      { highWaterMark: 0 },
    );
  };
  const call = (toolCallId: string, toolName = 'ask'): Part =>
    ({ type: 'tool-call', toolCallId, toolName, input: {} }) as Part;
  const finish: Part = {
    type: 'finish',
    finishReason: 'stop',
    rawFinishReason: 'stop',
    totalUsage: {} as never,
  };

  it('a run that does not fail passes unchanged: a call of a tool without execute stays open', async () => {
    const parts: Part[] = [{ type: 'start' }, call('c1'), finish];
    const report = runErrorReport(vi.fn());
    expect(await all(iterate(endFailedRunCleanly(stream(parts), report)))).toEqual(parts);
  });

  it('a stream that throws ends with the open calls closed, the error, then finish; reported once', async () => {
    const onError = vi.fn();
    const report = runErrorReport(onError);
    const boom = new Error('boom');
    const parts = await all(iterate(endFailedRunCleanly(stream([call('c1'), call('c2')], boom), report)));
    expect(parts.map((p) => [p.type, 'toolCallId' in p ? p.toolCallId : undefined])).toEqual([
      ['tool-call', 'c1'],
      ['tool-call', 'c2'],
      ['tool-error', 'c1'],
      ['tool-error', 'c2'],
      ['error', undefined],
      ['finish', undefined],
    ]);
    expect((parts[2] as { error: Error }).error.cause).toBe(boom);
    expect(parts.at(-1)).toMatchObject({ finishReason: 'error' });
    await report.report(new Error('later'));
    expect(onError).toHaveBeenCalledOnce();
    expect(onError).toHaveBeenCalledWith({ error: boom });
  });

  it('an error part stays where the SDK sent it: inputs still streaming are closed before it, calls before finish', async () => {
    const onError = vi.fn();
    const report = runErrorReport(onError);
    const error: Part = { type: 'error', error: new Error('cut') };
    const inputStart = { type: 'tool-input-start', id: 'c3', toolName: 'ask' } as Part;
    const result = { type: 'tool-result', toolCallId: 'c1', toolName: 'ask', input: {}, output: 1 } as Part;
    const parts = await all(
      iterate(
        endFailedRunCleanly(stream([call('c1'), call('c2'), inputStart, error, result, finish]), report),
      ),
    );
    expect(parts.map((p) => [p.type, 'toolCallId' in p ? p.toolCallId : undefined])).toEqual([
      ['tool-call', 'c1'],
      ['tool-call', 'c2'],
      ['tool-input-start', undefined],
      ['tool-error', 'c3'],
      ['error', undefined],
      ['tool-result', 'c1'],
      ['tool-error', 'c2'],
      ['finish', undefined],
    ]);
    // The SDK reported its error part itself.
    await report.report(new Error('no'));
    expect(onError).not.toHaveBeenCalled();
  });

  it('a failure before the first step: the parts end with the error part, as the SDK’s', async () => {
    const parts: Part[] = [{ type: 'start' }, { type: 'error', error: new Error('401') }];
    expect((await all(iterate(endFailedRunCleanly(stream(parts), undefined)))).map((p) => p.type)).toEqual([
      'start',
      'error',
    ]);
  });

  it('an approval request is no failure: the call is left awaiting the user', async () => {
    const approval = {
      type: 'tool-approval-request',
      approvalId: 'a1',
      toolCall: { type: 'tool-call', toolCallId: 'c1', toolName: 'ask', input: {} },
    } as Part;
    const parts = await all(
      iterate(endFailedRunCleanly(stream([call('c1'), approval], new Error('x')), undefined)),
    );
    expect(parts.map((p) => p.type)).toEqual(['tool-call', 'tool-approval-request', 'error', 'finish']);
  });

  it('without onError, a broken run is logged as the SDK logs errors', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const boom = new Error('boom');
    await all(iterate(endFailedRunCleanly(stream([], boom), runErrorReport(undefined))));
    expect(log).toHaveBeenCalledWith(boom);
    log.mockRestore();
  });
});

async function* iterate<T>(stream: ReadableStream<T>): AsyncGenerator<T> {
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) yield next.value;
}
