/**
 * Section: an agent chat whose tool budget runs out. The model insists on a city the tool does not know; its second
 * failure in a row uses up the tool's budget (`retries: 1`) and fails the run. With `ai`'s own agent and UI helper
 * (tools wrapped with `gracefulTools`) the chat's UI stream breaks: no error chunk, no `onError`, the last call shown
 * as a success holding an internal placeholder. graceful-ai's `ToolLoopAgent` and `createAgentUIStream` end it the way
 * a chat UI can show: both calls failed, the error, then finish, `onError` once.
 */
import {
  isStepCount,
  ToolLoopAgent as SdkToolLoopAgent,
  createAgentUIStream as sdkCreateAgentUIStream,
  tool,
  type UIMessage,
  type UIMessageChunk,
} from 'ai';
import { z } from 'zod';
import {
  createAgentUIStream,
  gracefulTools,
  ModelRetry,
  ToolLoopAgent,
} from '../../adapters/ai-sdk/index.js';
import { reply } from '../../mocks/index.js';
import type { DemoContext, DemoSummary } from './context.js';

const tools = {
  weather: tool({
    description: 'The weather in a city today.',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }): Promise<string> => {
      if (city === 'Paris') return 'Sunny, 24 °C';
      throw new ModelRetry(`No weather station in "${city}". Cities: Paris.`);
    },
  }),
};

const question: UIMessage = {
  id: 'u1',
  role: 'user',
  parts: [{ type: 'text', text: 'What is the weather in Atlantis?' }],
};

/** Prints the chat as a UI shows it, chunk by chunk; returns the chunks' types, or what broke the stream. */
async function show(ctx: DemoContext, stream: AsyncIterable<UIMessageChunk>): Promise<string[]> {
  const { print } = ctx;
  const types: string[] = [];
  const names = new Map<string, string>();
  try {
    for await (const chunk of stream) {
      types.push(chunk.type);
      if (chunk.type === 'tool-input-available') {
        names.set(chunk.toolCallId, chunk.toolName);
        print.toolCall(chunk.toolName, chunk.input);
      }
      if (chunk.type === 'tool-output-available')
        print.toolResult(names.get(chunk.toolCallId) ?? 'tool', chunk.output);
      if (chunk.type === 'tool-output-error')
        print.toolError(names.get(chunk.toolCallId) ?? 'tool', chunk.errorText);
      if (chunk.type === 'text-delta') print.assistantDelta(chunk.delta);
      if (chunk.type === 'error') print.note(`the UI shows the error: "${chunk.errorText}"`);
    }
  } catch (error) {
    print.error('the UI stream broke', error);
    types.push('(broke)');
  }
  return types;
}

export async function run(ctx: DemoContext): Promise<DemoSummary> {
  const { print } = ctx;
  const problems: string[] = [];
  print.section(
    'Agents: a chat whose tool budget runs out',
    '(the model insists on a city the tool does not know)',
  );

  print.info(
    "ai's ToolLoopAgent and createAgentUIStream, tools wrapped with gracefulTools — what the chat UI gets:",
  );
  ctx.script(() => reply.toolCall('weather', { city: 'Atlantis' }));
  print.user('What is the weather in Atlantis?');
  let sdkErrors = 0;
  const sdkAgent = new SdkToolLoopAgent({
    model: ctx.model(),
    tools: gracefulTools(tools),
    stopWhen: isStepCount(5),
    maxRetries: 0,
    onError: () => void sdkErrors++,
  });
  const before = await show(ctx, await sdkCreateAgentUIStream({ agent: sdkAgent, uiMessages: [question] }));
  print.note(`onError called ${sdkErrors} time(s); the stream ended with: ${before.slice(-2).join(', ')}`);

  print.info("graceful-ai's ToolLoopAgent and createAgentUIStream (same script) — what the chat UI gets:");
  ctx.script(() => reply.toolCall('weather', { city: 'Atlantis' }));
  print.user('What is the weather in Atlantis?');
  let errors = 0;
  const agent = new ToolLoopAgent({
    model: ctx.model(),
    tools,
    stopWhen: isStepCount(5),
    onError: () => void errors++,
  });
  const after = await show(ctx, await createAgentUIStream({ agent, uiMessages: [question] }));
  print.note(`onError called ${errors} time(s); the stream ended with: ${after.slice(-2).join(', ')}`);
  if (ctx.live) return { section: 'agents', problems };
  if (after.at(-1) !== 'finish' || !after.includes('error') || errors !== 1)
    problems.push('graceful-ai: the failed run did not end with the error, then finish, and onError once');
  return { section: 'agents', problems };
}
