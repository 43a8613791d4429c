import { createOpenAI } from '@ai-sdk/openai';
import { generateText, isStepCount, streamText, tool } from 'ai';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { gracefulTool, gracefulTools } from '../../../adapters/ai-sdk/graceful-tool.js';
import { lastToolResults, mockHandlers, reply, type Script } from '../../../mocks/index.js';
import { ModelRetry } from '../../../src/errors/model-retry.js';
import { UnexpectedModelBehavior } from '../../../src/errors/unexpected-model-behavior.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const openai = createOpenAI({ apiKey: 'test-key' });
const models = { chat: () => openai.chat('gpt-4o'), responses: () => openai.responses('gpt-4o') };
const GUIDE = '\n\nFix the errors and try again.';
const pathInput = z.object({ path: z.string() });

type Call = 'generateText' | 'streamText';
const cases = (['chat', 'responses'] as const).flatMap((api) =>
  (['generateText', 'streamText'] as const).map((call) => ({ api, call })),
);

async function runWith(
  call: Call,
  api: 'chat' | 'responses',
  script: Script,
  tools: Parameters<typeof generateText>[0]['tools'],
) {
  const handlers = mockHandlers(script);
  server.use(...handlers);
  const settings = {
    model: models[api](),
    prompt: 'summarise the report',
    tools,
    stopWhen: isStepCount(6),
    maxRetries: 0,
  };
  let outcome: unknown;
  if (call === 'generateText') outcome = await generateText(settings).catch((e: unknown) => e);
  else {
    const result = streamText(settings);
    outcome = await Promise.resolve(result.text).catch((e: unknown) => e);
  }
  return { outcome, requests: handlers.requests };
}

/** The raw tool-result text each request carried for its last tool results (chat and responses). */
function errorsOnTheWire(requests: Parameters<typeof lastToolResults>[0][]) {
  return requests.flatMap((r) => lastToolResults(r).map((t) => ({ output: t.output, error: t.error })));
}

describe.each(cases)('gracefulTool through the OpenAI provider ($api, $call)', ({ api, call }) => {
  it('records the exact ModelRetry text on the wire', async () => {
    const readFile = gracefulTool(
      tool({
        inputSchema: pathInput,
        execute: async ({ path }): Promise<string> => {
          throw new ModelRetry(`No file "${path}". Files: q3.csv, q4.csv`);
        },
      }),
    );
    const { requests } = await runWith(
      call,
      api,
      [reply.toolCall('read_file', { path: 'q5.csv' }), reply.text('I will use q4.csv')],
      { read_file: readFile },
    );
    const text = `No file "q5.csv". Files: q3.csv, q4.csv${GUIDE}`;
    expect(errorsOnTheWire(requests)).toEqual([{ output: JSON.stringify({ error: text }), error: text }]);
  });

  it('records a 3-deep cause chain on the wire', async () => {
    const readFile = gracefulTool(
      tool({
        inputSchema: pathInput,
        execute: async (): Promise<string> => {
          const root = Object.assign(new Error("ENOENT: no such file or directory, open '/data/q5.csv'"), {
            name: 'SystemError',
          });
          throw new Error('report generation failed', {
            cause: new Error('could not load table "sales"', { cause: root }),
          });
        },
      }),
    );
    const { requests } = await runWith(
      call,
      api,
      [reply.toolCall('read_file', { path: 'q5.csv' }), reply.text('done')],
      { read_file: readFile },
    );
    const text = [
      'Error: report generation failed',
      'Caused by: Error: could not load table "sales"',
      "Caused by: SystemError: ENOENT: no such file or directory, open '/data/q5.csv'",
    ].join('\n');
    expect(errorsOnTheWire(requests)).toEqual([
      { output: JSON.stringify({ error: text + GUIDE }), error: text + GUIDE },
    ]);
  });

  it('fails the call with UnexpectedModelBehavior at retries+1 failures', async () => {
    const tools = gracefulTools(
      {
        read_file: tool({
          inputSchema: pathInput,
          execute: async (): Promise<string> => {
            throw new ModelRetry('still missing');
          },
        }),
      },
      { retries: 2 },
    );
    const step = reply.toolCall('read_file', { path: 'x' });
    const { outcome, requests } = await runWith(call, api, [step, step, step, reply.text('never')], tools);
    expect(UnexpectedModelBehavior.isInstance(outcome)).toBe(true);
    expect((outcome as Error).message).toBe("Tool 'read_file' exceeded max retries count of 2");
    expect(requests).toHaveLength(3);
  });

  it('rejects with the original error when one of several parallel calls fails loudly', async () => {
    const original = new Error('ledger is read-only');
    const tools = {
      write_ledger: gracefulTool(
        tool({
          inputSchema: pathInput,
          execute: async (): Promise<string> => {
            throw original;
          },
        }),
        { graceful: false },
      ),
      read_file: tool({ inputSchema: pathInput, execute: async ({ path }) => `contents of ${path}` }),
    };
    const { outcome, requests } = await runWith(
      call,
      api,
      [
        reply.toolCalls([
          { name: 'read_file', args: { path: 'a' } },
          { name: 'write_ledger', args: { path: 'b' } },
        ]),
        reply.text('never'),
      ],
      tools,
    );
    expect(outcome).toBe(original);
    expect(requests).toHaveLength(1);
  });
});
