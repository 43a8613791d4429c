/**
 * The drop-ins of `ai`'s agent UI helpers and of its standalone `toUIMessageStream`: resets as `reset-step`, failed
 * runs ended cleanly, also for an agent or a run that is not graceful-ai's (the middleware route).
 */
import { createOpenAI } from '@ai-sdk/openai';
import {
  isStepCount,
  readUIMessageStream,
  ToolLoopAgent as SdkToolLoopAgent,
  createAgentUIStream as sdkCreateAgentUIStream,
  createAgentUIStreamResponse as sdkCreateAgentUIStreamResponse,
  streamText as sdkStreamText,
  toUIMessageStream as sdkToUIMessageStream,
  tool,
  type UIMessage,
  type UIMessageChunk,
  wrapLanguageModel,
} from 'ai';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ToolLoopAgent } from '../../../../adapters/ai-sdk/agent/tool-loop-agent.js';
import { streamGuard } from '../../../../adapters/ai-sdk/stream-guard/stream-guard.js';
import { gracefulTools } from '../../../../adapters/ai-sdk/tools/graceful-tool.js';
import {
  createAgentUIStream,
  createAgentUIStreamResponse,
  pipeAgentUIStreamToResponse,
} from '../../../../adapters/ai-sdk/ui-stream/agent-ui-stream.js';
import { toUIMessageStream } from '../../../../adapters/ai-sdk/ui-stream/ui-message-stream.js';
import { fault, reply, type Script, streamFault } from '../../../../mocks/index.js';
import { mockHandlers } from '../../../../mocks/msw.js';
import { isResetPart } from '../../../../src/stream/reset-part.js';
import { FakeServerResponse } from '../../../sdk-conformance/observe.js';
import { scriptedModel } from '../scripted-model.js';

const msw = setupServer();
beforeAll(() => msw.listen({ onUnhandledFrame: 'error' }));
afterEach(() => msw.resetHandlers());
afterAll(() => msw.close());

const openai = createOpenAI({ apiKey: 'sk-test' });
const model = openai.chat('gpt-4o');
const noSleep = { sleep: async () => {} };
const mock = (script: Script) => msw.use(...mockHandlers(script));

const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'capital?' }] };
const SHOWN = 'The capital of ';
const ANSWER = 'Paris is the capital of France.';
/** A stream cut after 15 characters, recovered with other words: a reset. */
const cutThenOtherWords: Script = [
  reply.text('The capital of France is Paris.', { fault: streamFault.cut({ afterChars: SHOWN.length }) }),
  reply.text(ANSWER),
];

async function chunksOf(stream: AsyncIterable<UIMessageChunk> | ReadableStream<UIMessageChunk>) {
  const chunks: UIMessageChunk[] = [];
  for await (const chunk of stream as AsyncIterable<UIMessageChunk>) chunks.push(chunk);
  return chunks;
}

async function lastMessage(chunks: UIMessageChunk[]): Promise<UIMessage> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let last: UIMessage = { id: '', role: 'assistant', parts: [] };
  for await (const message of readUIMessageStream({ stream })) last = message;
  return last;
}

/** The UI chunks an SSE body carries. */
const sseChunks = (body: string): UIMessageChunk[] =>
  body
    .split('\n\n')
    .filter((event) => event.startsWith('data: ') && event !== 'data: [DONE]')
    .map((event) => JSON.parse(event.slice('data: '.length)) as UIMessageChunk);

describe('createAgentUIStream, createAgentUIStreamResponse, pipeAgentUIStreamToResponse', () => {
  it('a reset is sent as reset-step: the client and onFinish hold the recovered answer only', async () => {
    mock(cutThenOtherWords);
    const onFinish = vi.fn();
    const agent = new ToolLoopAgent({ model, streamGuard: noSleep });
    const chunks = await chunksOf(await createAgentUIStream({ agent, uiMessages: [user], onFinish }));
    expect(chunks.map((c) => c.type)).toContain('reset-step');
    expect(chunks.filter((c) => c.type === 'custom')).toEqual([]);
    const shown = await lastMessage(chunks);
    expect(shown.parts.map((p) => (p.type === 'text' ? p.text : p.type))).toEqual(['step-start', ANSWER]);
    expect(onFinish.mock.calls[0]?.[0].responseMessage).toEqual(shown);
  });

  it('createAgentUIStreamResponse: same stream, same response options', async () => {
    mock(cutThenOtherWords);
    const agent = new ToolLoopAgent({ model, streamGuard: noSleep });
    const response = await createAgentUIStreamResponse({
      agent,
      uiMessages: [user],
      status: 201,
      headers: { 'x-app': '1' },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-app')).toBe('1');
    const chunks = sseChunks(await response.text());
    expect(chunks.map((c) => c.type)).toContain('reset-step');
    expect((await lastMessage(chunks)).parts.filter((p) => p.type === 'text')).toEqual([
      expect.objectContaining({ text: ANSWER }),
    ]);
  });

  it('pipeAgentUIStreamToResponse: same stream, same response options', async () => {
    mock(cutThenOtherWords);
    const agent = new ToolLoopAgent({ model, streamGuard: noSleep });
    const response = new FakeServerResponse();
    await pipeAgentUIStreamToResponse({
      response: response as never,
      agent,
      uiMessages: [user],
      status: 202,
    });
    await response.finished;
    expect(response.statusCode).toBe(202);
    expect(sseChunks(response.body).map((c) => c.type)).toContain('reset-step');
  });

  it('a revoked key ends the stream with an error chunk and finish; onError once', async () => {
    mock(() => fault.unauthorized());
    const onError = vi.fn();
    const agent = new ToolLoopAgent({ model, onError, streamGuard: noSleep });
    const response = await createAgentUIStreamResponse({ agent, uiMessages: [user] });
    const chunks = sseChunks(await response.text());
    expect(chunks.slice(-2)).toEqual([
      { type: 'error', errorText: 'An error occurred.' },
      { type: 'finish', finishReason: 'error' },
    ]);
    expect(onError).toHaveBeenCalledOnce();
  });

  it('with ai’s own helper a failed run still ends cleanly; a reset stays a custom chunk', async () => {
    mock(cutThenOtherWords);
    const agent = new ToolLoopAgent({ model, streamGuard: noSleep });
    const chunks = sseChunks(
      await (await sdkCreateAgentUIStreamResponse({ agent, uiMessages: [user] })).text(),
    );
    expect(chunks.some((c) => isResetPart(c))).toBe(true);

    mock(() => reply.toolCall('lookup', {}));
    const failing = tool({
      inputSchema: z.object({}),
      execute: async (): Promise<string> => {
        throw new Error('down');
      },
    });
    const over = new ToolLoopAgent({
      model,
      tools: { lookup: failing },
      stopWhen: isStepCount(5),
      onError: () => {},
    });
    const failed = sseChunks(
      await (await sdkCreateAgentUIStreamResponse({ agent: over, uiMessages: [user] })).text(),
    );
    expect(failed.slice(-2).map((c) => c.type)).toEqual(['error', 'finish']);
  });

  it('ai’s agent on a guarded model (the middleware route): the stream ends cleanly instead of breaking', async () => {
    mock(() => fault.unauthorized());
    const onError = vi.fn();
    const agent = new SdkToolLoopAgent({
      model: wrapLanguageModel({ model, middleware: streamGuard(noSleep) }),
      maxRetries: 0,
      onError,
    });
    // ai's own helper: the guard, as bare middleware, errors its stream, and the UI stream throws.
    await expect(chunksOf(await sdkCreateAgentUIStream({ agent, uiMessages: [user] }))).rejects.toThrow();
    const chunks = await chunksOf(await createAgentUIStream({ agent, uiMessages: [user] }));
    expect(chunks.slice(-2)).toEqual([
      { type: 'error', errorText: 'An error occurred.' },
      { type: 'finish', finishReason: 'error' },
    ]);
    // The guard as bare middleware errored the model's stream: ai reports it to onStepError only.
    expect(onError).not.toHaveBeenCalled();
  });
});

describe('every way a run fails ends the agent’s UI stream cleanly (graceful-ai’s helper and ai’s own)', () => {
  const failingTool = () =>
    tool({
      inputSchema: z.object({}),
      execute: async (): Promise<string> => {
        throw new Error('ENOENT /srv/app/secret.json');
      },
    });
  const safeTexts = [
    'The tool call failed and the run stopped.',
    'The run failed before the tool call finished.',
  ];
  /** `beforeFirstStep`: the run failed before its first step, where `ai`'s own helper ends with the error chunk. */
  const scenarios: [string, Script, { graceful?: boolean; beforeFirstStep?: boolean }?][] = [
    ['a revoked key before the answer', () => fault.unauthorized(), { beforeFirstStep: true }],
    [
      'a revoked key after the answer started',
      [
        reply.text(ANSWER, {
          fault: streamFault.error({ afterChars: 8, code: 'invalid_api_key', message: 'bad key' }),
        }),
      ],
    ],
    ['a context overflow', () => fault.contextLengthExceeded(), { beforeFirstStep: true }],
    [
      'a cut the recovery cannot mend',
      [reply.text(ANSWER, { fault: streamFault.cut({ afterChars: 8 }) }), fault.unauthorized()],
    ],
    ['a tool budget used up', () => reply.toolCall('lookup', {})],
    ['a graceful: false tool', () => reply.toolCall('lookup', {}), { graceful: false }],
  ];

  it.each(scenarios)('%s', async (_name, script, { graceful = true, beforeFirstStep = false } = {}) => {
    for (const helper of ['graceful-ai', 'ai'] as const) {
      msw.resetHandlers();
      mock(script);
      const onError = vi.fn();
      const agent = new ToolLoopAgent({
        model,
        tools: { lookup: failingTool() },
        gracefulTools: { graceful, autoRetry: false },
        stopWhen: isStepCount(5),
        onError,
        streamGuard: noSleep,
      });
      const create = helper === 'ai' ? sdkCreateAgentUIStreamResponse : createAgentUIStreamResponse;
      const body = await (await create({ agent, uiMessages: [user] })).text();
      const chunks = sseChunks(body);
      // The error, then finish (the failed step and a text block the provider still closed end between them, as in
      // the SDK).
      const closers = new Set(['finish-step', 'text-end', 'reasoning-end']);
      const ending = [
        { type: 'error', errorText: 'An error occurred.' },
        { type: 'finish', finishReason: 'error' },
      ];
      expect(chunks.filter((c) => !closers.has(c.type)).slice(-2), `${helper}: ${body}`).toEqual(
        helper === 'ai' && beforeFirstStep ? [{ type: 'start' }, ending[0]] : ending,
      );
      expect(onError, helper).toHaveBeenCalledOnce();
      // Every tool call is closed; what closes a call the failure left without a result is safe to show.
      const message = await lastMessage(chunks);
      const calls = message.parts.filter((p) => p.type === 'tool-lookup') as {
        state: string;
        errorText?: string;
      }[];
      for (const call of calls) expect(call.state, helper).toBe('output-error');
      if (calls.length > 0) expect(safeTexts, helper).toContain(calls.at(-1)?.errorText);
      expect(body, helper).not.toContain('gracefulAi');
      // A loud tool's error never reached the model, and reaches no client either. (A tool error the model read
      // stays in the UI as the model read it, as the SDK keeps it: the UI message is the next turn's history.)
      if (!graceful) expect(body, helper).not.toContain('/srv/app');
    }
  });
});

describe('toUIMessageStream (standalone)', () => {
  it('on ai’s own streamText with graceful tools: a used-up budget ends cleanly, where ai’s throws', async () => {
    const tools = gracefulTools({
      lookup: tool({
        inputSchema: z.object({}),
        execute: async (): Promise<string> => {
          throw new Error('down');
        },
      }),
    });
    const run = () =>
      sdkStreamText({
        model: scriptedModel(() => ({ calls: [['lookup', {}]] })),
        tools,
        prompt: 'hi',
        stopWhen: isStepCount(5),
      });
    await expect(chunksOf(sdkToUIMessageStream({ stream: run().stream, tools }))).rejects.toThrow();
    const chunks = await chunksOf(toUIMessageStream({ stream: run().stream, tools }));
    expect(chunks.slice(-3)).toEqual([
      { type: 'finish-step' },
      { type: 'error', errorText: 'An error occurred.' },
      { type: 'finish', finishReason: 'error' },
    ]);
    expect(JSON.stringify(chunks)).not.toContain('gracefulAi');
  });
});
