/**
 * Section: an MCP server whose tool fails. The official MCP SDK's server turns the tool's exception into a result with
 * `isError: true`, and `@ai-sdk/mcp` hands that result over as an ordinary output: the plain AI SDK shows the model
 * (and a UI) a success, and nothing retries the read-only tool. The drop-in `generateText` sees the failure, retries
 * the tool (its server annotates it `readOnlyHint: true`), and the model gets the stock level. Both runs use the same
 * in-process server (no network); the model is scripted on the mock, or real with `--live`.
 */
import { createMCPClient } from '@ai-sdk/mcp';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { isStepCount, type LanguageModel, generateText as sdkGenerateText, type ToolSet } from 'ai';
import { z } from 'zod';
import { generateText, onToolEvent } from '../../adapters/ai-sdk/index.js';
import { lastToolResults, reply } from '../../mocks/index.js';
import type { DemoContext, DemoSummary } from './context.js';

/** An inventory server whose database connection fails on the first query of each run. */
async function inventoryServer() {
  const server = new McpServer({ name: 'inventory', version: '1.0.0' });
  let queries = 0;
  server.registerTool(
    'check_stock',
    {
      description: 'How many units of a product are in stock.',
      inputSchema: { sku: z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ sku }) => {
      if (++queries === 1) throw new Error('inventory database connection lost');
      return { content: [{ type: 'text', text: `${sku}: 4 in stock` }] };
    },
  );
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = await createMCPClient({ transport: clientTransport });
  return { client, tools: await client.tools() };
}

/** One run of the scene: `ai`'s `generateText` or the drop-in's, on the same options. */
type Run = (options: {
  model: LanguageModel;
  prompt: string;
  tools: ToolSet;
  stopWhen: ReturnType<typeof isStepCount>;
  maxRetries: number;
}) => ReturnType<typeof sdkGenerateText<ToolSet>>;

async function attempt(ctx: DemoContext, label: string, call: Run): Promise<boolean> {
  const { print } = ctx;
  // The scripted model reads what the tool returned: a stock level, or whatever else came back.
  ctx.script({
    steps: [reply.toolCall('check_stock', { sku: 'A1' })],
    rest: (request) => {
      const seen = lastToolResults(request)[0];
      if (seen?.error) return reply.text('The inventory is unavailable right now; please ask again later.');
      if (seen?.output.includes('in stock')) return reply.text('A1: 4 units are in stock.');
      return reply.text(`The inventory said: ${seen?.output ?? 'nothing'}`);
    },
  });
  print.info(label);
  const prompt = 'How many A1 do we have?';
  print.user(prompt);
  const { client, tools } = await inventoryServer();
  const retries: string[] = [];
  const unsubscribe = onToolEvent((event) => {
    if (event.type === 'tool_retry') retries.push(String(event.error));
  });
  try {
    const result = await call({
      model: ctx.model(),
      prompt,
      tools: tools as ToolSet,
      stopWhen: isStepCount(3),
      maxRetries: 0,
    });
    for (const part of result.steps.flatMap((step) => step.content)) {
      if (part.type === 'tool-call') print.toolCall(part.toolName, part.input);
      if (part.type === 'tool-result') print.toolResult(part.toolName, part.output);
      if (part.type === 'tool-error') print.toolError(part.toolName, part.error);
    }
    for (const error of retries) print.note(`retried automatically (readOnlyHint: true) after: ${error}`);
    print.assistant(result.text);
    return retries.length > 0 && /\b4\b/.test(result.text);
  } finally {
    unsubscribe();
    await client.close();
  }
}

export async function run(ctx: DemoContext): Promise<DemoSummary> {
  ctx.print.section('MCP tools', '(an MCP server whose tool fails: the error hides in a successful result)');
  const problems: string[] = [];
  await attempt(ctx, 'before: the plain AI SDK takes the isError result for a success', (o) =>
    sdkGenerateText(o),
  );
  ctx.print.note(
    'the model was handed the failure as a result; no retry, no guidance, a UI would show success.',
  );
  const after = await attempt(
    ctx,
    'after: the drop-in generateText treats isError as the failure it is',
    generateText,
  );
  if (after) ctx.print.note('the read-only MCP tool was retried once; the model got the stock level.');
  else problems.push('the MCP tool failure was not retried');
  return { section: 'MCP tools', problems };
}
