/**
 * The program run inside each non-Node runtime (Vercel's edge runtime, Cloudflare workerd). Bundled by esbuild with
 * `ai` and `@ai-sdk/provider-utils` inlined, so the bundle imports nothing; see `bundle.ts`.
 *
 * A plain-object LanguageModelV4 (not `ai/test`) calls the `capitalOf` tool (wrapped by `gracefulTools`, executed in
 * the runtime) until it gets an answer: the tool throws on its first call, so graceful-ai turns the error into a
 * model-visible tool result (a path that writes a debug line when `NODE_DEBUG` asks for one), and the model calls it
 * again. The answer step then streams 'Paris is the capital' and is cut with a retryable 503 — an in-band `error`
 * part or a rejected stream, per scenario — and the guard recovers with one `doGenerate` that returns the whole
 * answer. The consumer must see each character once.
 */
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { APICallError, jsonSchema, stepCountIs, tool } from 'ai';
import { gracefulTools, streamText } from '../../adapters/ai-sdk/index.js';
import { type RuntimeFacts, runtimeFacts, withConsoleRecorded } from './console-record.js';

export const ANSWER = 'Paris is the capital of France.';
const STREAMED_BEFORE_CUT = ['Paris ', 'is the ', 'capital'];

export const CUTS = ['in-band error part', 'stream rejects with APICallError'] as const;
export type Cut = (typeof CUTS)[number];

export interface ScenarioResult {
  cut: Cut;
  /** The `textStream` deltas, in order. */
  deltas: string[];
  /** The deltas joined. */
  text: string;
  /** `await result.text`. */
  final: string;
  doStreamCalls: number;
  doGenerateCalls: number;
  /** The tool results the model saw, in order (the converted error, then the answer). */
  toolOutputsSeenByModel: unknown[];
  /** How many times the tool's own `execute` ran. */
  toolExecutions: number;
}

export interface ProgramResult {
  runtime: RuntimeFacts;
  scenarios: ScenarioResult[];
  /** Every console call made while the scenarios ran (graceful-ai must make none). */
  console: string[];
}

const usage: LanguageModelV4Usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

function streamOf(
  parts: LanguageModelV4StreamPart[],
  failWith?: unknown,
): ReadableStream<LanguageModelV4StreamPart> {
  let i = 0;
  return new ReadableStream<LanguageModelV4StreamPart>(
    {
      pull(controller) {
        const part = parts[i++];
        if (part !== undefined) controller.enqueue(part);
        else if (failWith !== undefined) controller.error(failWith);
        else controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}

const retryable503 = () =>
  new APICallError({
    message: 'HTTP 503',
    url: 'https://api.example/v1',
    requestBodyValues: {},
    statusCode: 503,
    responseHeaders: {},
    responseBody: '',
    isRetryable: true,
  });

/** The output of the latest tool result in the prompt, if the prompt ends with one. */
function latestToolOutput(call: LanguageModelV4CallOptions): { type: string } | undefined {
  const last = call.prompt.at(-1);
  if (last?.role !== 'tool') return undefined;
  const part = last.content.find((p) => p.type === 'tool-result');
  return part?.type === 'tool-result' ? part.output : undefined;
}

/** The tool outputs of the whole prompt, in order. */
function toolOutputs(call: LanguageModelV4CallOptions): unknown[] {
  return call.prompt.flatMap((m) =>
    m.role === 'tool' ? m.content.flatMap((p) => (p.type === 'tool-result' ? [p.output] : [])) : [],
  );
}

/** One scenario: the tool fails once, then the answer stream is cut by `cut` and recovered. */
export async function scenario(cut: Cut): Promise<ScenarioResult> {
  let doStreamCalls = 0;
  let doGenerateCalls = 0;
  let toolExecutions = 0;
  let toolOutputsSeenByModel: unknown[] = [];

  const model: LanguageModelV4 = {
    specificationVersion: 'v4',
    provider: 'runtime-test',
    modelId: 'plain-object',
    supportedUrls: {},
    async doGenerate(call) {
      doGenerateCalls++;
      toolOutputsSeenByModel = toolOutputs(call);
      return {
        content: [{ type: 'text', text: ANSWER }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      };
    },
    async doStream(call) {
      doStreamCalls++;
      const preamble: LanguageModelV4StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'response-metadata', id: `r${doStreamCalls}`, modelId: 'plain-object' },
      ];
      const latest = latestToolOutput(call);
      if (latest === undefined || latest.type.startsWith('error')) {
        // No answer from the tool yet: call it.
        return {
          stream: streamOf([
            ...preamble,
            {
              type: 'tool-call',
              toolCallId: `call-${doStreamCalls}`,
              toolName: 'capitalOf',
              input: '{"country":"France"}',
            },
            { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
          ]),
        };
      }
      // The answer, cut mid-way by a retryable 503.
      toolOutputsSeenByModel = toolOutputs(call);
      const text: LanguageModelV4StreamPart[] = [
        { type: 'text-start', id: 't1' },
        ...STREAMED_BEFORE_CUT.map(
          (delta): LanguageModelV4StreamPart => ({ type: 'text-delta', id: 't1', delta }),
        ),
      ];
      if (cut === 'in-band error part') {
        const error = {
          message: 'upstream overloaded',
          statusCode: 503,
          [Symbol.for('vercel.ai.providerStreamError')]: true,
        };
        return { stream: streamOf([...preamble, ...text, { type: 'error', error }]) };
      }
      return { stream: streamOf([...preamble, ...text], retryable503()) };
    },
  };

  const tools = gracefulTools({
    capitalOf: tool({
      description: 'The capital of a country.',
      inputSchema: jsonSchema<{ country: string }>({
        type: 'object',
        properties: { country: { type: 'string' } },
        required: ['country'],
      }),
      execute: async ({ country }) => {
        toolExecutions++;
        if (toolExecutions === 1) throw new Error('geo service unavailable');
        return { country, capital: 'Paris' };
      },
    }),
  });

  const result = streamText({
    model,
    prompt: 'What is the capital of France?',
    tools,
    stopWhen: stepCountIs(5),
    streamGuard: { sleep: async () => {} },
  });
  const deltas: string[] = [];
  for await (const delta of result.textStream) deltas.push(delta);
  const final = await result.text;
  return {
    cut,
    deltas,
    text: deltas.join(''),
    final,
    doStreamCalls,
    doGenerateCalls,
    toolOutputsSeenByModel,
    toolExecutions,
  };
}

/** Runs both scenarios with every console method recorded (and still forwarded). */
export async function run(): Promise<ProgramResult> {
  const { value: scenarios, console: calls } = await withConsoleRecorded(async () => {
    const results: ScenarioResult[] = [];
    for (const cut of CUTS) {
      results.push(await scenario(cut));
    }
    return results;
  });
  return { runtime: runtimeFacts(), scenarios, console: calls };
}
