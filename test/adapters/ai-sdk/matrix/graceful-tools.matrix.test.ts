/**
 * The scenario matrix, `gracefulTool(s)` on the plain AI SDK: what the model reads for a failing tool, read from the
 * next recorded request on every wire. The text is the same everywhere; only the envelope is the wire's own
 * (OpenAI: the JSON string `{"error":"<text>"}`; Anthropic: a `tool_result` with `is_error: true`; Gemini:
 * `functionResponse.response.error`).
 */
import { generateText, isStepCount, streamText, type ToolSet, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { gracefulTool, gracefulTools } from '../../../../adapters/ai-sdk/tools/graceful-tool.js';
import { lastToolResults, type RecordedRequest, reply, type Script } from '../../../../mocks/index.js';
import { ModelRetry } from '../../../../src/errors/model-retry.js';
import { UnexpectedModelBehavior } from '../../../../src/errors/unexpected-model-behavior.js';
import { type Wire, wires } from '../../../wires.js';
import { mockEveryWire } from './mocked.js';

const mock = mockEveryWire();

const GUIDE = '\n\nFix the errors and try again.';
const pathInput = z.object({ path: z.string() });

const cases = wires.flatMap((wire) =>
  (['generateText', 'streamText'] as const).map((call) => ({ wire, name: wire.name, call })),
);

async function run(wire: Wire, call: 'generateText' | 'streamText', script: Script, tools: ToolSet) {
  const requests = mock(script);
  const settings = {
    model: wire.model(),
    prompt: 'summarise the report',
    tools,
    stopWhen: isStepCount(6),
    maxRetries: 0,
  };
  let outcome: unknown;
  if (call === 'generateText') outcome = await generateText(settings).catch((e: unknown) => e);
  else outcome = await Promise.resolve(streamText(settings).text).catch((e: unknown) => e);
  return { outcome, requests };
}

/** Each request's last tool results as the model read them: the raw text sent, and the error text in it. */
function errorsOnTheWire(requests: RecordedRequest[]) {
  return requests.flatMap((r) => lastToolResults(r).map((t) => ({ output: t.output, error: t.error })));
}

/** The tool result a wire sends for a tool error whose model-visible text is `text`. */
const sentAs = (wire: Wire, text: string) => ({
  output: wire.provider === 'openai' ? JSON.stringify({ error: text }) : text,
  error: text,
});

describe.each(cases)('gracefulTool on $name ($call)', ({ wire, call }) => {
  it('a ModelRetry: the model reads its exact text and the guidance', async () => {
    const readFile = gracefulTool(
      tool({
        inputSchema: pathInput,
        execute: async ({ path }): Promise<string> => {
          throw new ModelRetry(`No file "${path}". Files: q3.csv, q4.csv`);
        },
      }),
    );
    const { requests } = await run(
      wire,
      call,
      [reply.toolCall('read_file', { path: 'q5.csv' }), reply.text('I will use q4.csv')],
      { read_file: readFile },
    );
    expect(errorsOnTheWire(requests)).toEqual([
      sentAs(wire, `No file "q5.csv". Files: q3.csv, q4.csv${GUIDE}`),
    ]);
    expect(lastToolResults(requests[1]!)[0]?.toolName).toBe('read_file');
  });

  it('a thrown error with a 3-deep cause chain: the model reads the whole chain and the guidance', async () => {
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
    const { requests } = await run(
      wire,
      call,
      [reply.toolCall('read_file', { path: 'q5.csv' }), reply.text('done')],
      { read_file: readFile },
    );
    const text = [
      'Error: report generation failed',
      'Caused by: Error: could not load table "sales"',
      "Caused by: SystemError: ENOENT: no such file or directory, open '/data/q5.csv'",
    ].join('\n');
    expect(errorsOnTheWire(requests)).toEqual([sentAs(wire, text + GUIDE)]);
  });

  it('the call fails with UnexpectedModelBehavior at retries+1 failures', async () => {
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
    const { outcome, requests } = await run(wire, call, [step, step, step, reply.text('never')], tools);
    expect(UnexpectedModelBehavior.isInstance(outcome)).toBe(true);
    expect((outcome as Error).message).toBe("Tool 'read_file' exceeded max retries count of 2");
    expect(requests).toHaveLength(3);
    expect(errorsOnTheWire(requests)).toEqual([
      sentAs(wire, `still missing${GUIDE}`),
      sentAs(wire, `still missing${GUIDE}`),
    ]);
  });

  it('one of several parallel calls failing loudly rejects the call with the original error', async () => {
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
    const { outcome, requests } = await run(
      wire,
      call,
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
