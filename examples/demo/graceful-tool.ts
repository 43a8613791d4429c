/**
 * Section: gracefulTool. The same failing tool, before (plain AI SDK) and after (gracefulTool): the error's
 * cause names the valid values, which the plain SDK never sends, so only the wrapped run can recover.
 */
import { generateText, isStepCount, type ToolSet, tool } from 'ai';
import { z } from 'zod';
import { gracefulTools } from '../../adapters/ai-sdk/index.js';
import { lastToolResults, reply } from '../../mocks/index.js';
import type { DemoContext, DemoSummary } from './context.js';

const REGIONS = ['emea', 'amer', 'apac'];

const tools = {
  query_sales: tool({
    description: 'Total sales of a region for a quarter.',
    inputSchema: z.object({ region: z.string(), quarter: z.string() }),
    execute: async ({ region, quarter }) => {
      if (!REGIONS.includes(region)) {
        // What a database driver typically does: a generic message, the useful detail in `cause`.
        throw new Error('sales query failed', {
          cause: new Error(`unknown region "${region}"; valid regions: ${REGIONS.join(', ')}`),
        });
      }
      return { region, quarter, totalEur: 1_240_000 };
    },
  }),
};

async function attempt(ctx: DemoContext, label: string, toolSet: ToolSet): Promise<boolean> {
  const { print } = ctx;
  // The scripted model behaves like a real one: it can only fix its call if the error text tells it how.
  ctx.script({
    steps: [reply.toolCall('query_sales', { region: 'Europe', quarter: 'Q3' })],
    rest: (request) => {
      const error = lastToolResults(request).find((r) => r.error !== undefined)?.error ?? '';
      if (error.includes('valid regions: emea'))
        return reply.toolCall('query_sales', { region: 'emea', quarter: 'Q3' });
      if (error) return reply.text('Sorry, the sales query failed and I cannot tell why.');
      return reply.text('EMEA sold €1.24M in Q3.');
    },
  });
  print.info(label);
  const prompt = 'How much did Europe sell in Q3?';
  print.user(prompt);
  const result = await generateText({
    model: ctx.model(),
    prompt,
    tools: toolSet,
    stopWhen: isStepCount(4),
    maxRetries: 0,
  });
  for (const step of result.steps) {
    for (const part of step.content) {
      if (part.type === 'tool-call') print.toolCall(part.toolName, part.input);
      if (part.type === 'tool-result') print.toolResult(part.toolName, part.output);
      if (part.type === 'tool-error') print.toolError(part.toolName, part.error);
    }
  }
  const seen = ctx.mock?.requests.flatMap((r) =>
    lastToolResults(r).flatMap((t) => (t.error ? [t.error] : [])),
  );
  if (seen?.length) print.note(`the model saw: ${JSON.stringify(seen[0])}`);
  print.assistant(result.text);
  return result.text.includes('1.24M');
}

export async function run(ctx: DemoContext): Promise<DemoSummary> {
  ctx.print.section('gracefulTool', '(a tool error whose cause holds the fix: before and after)');
  const problems: string[] = [];
  const before = await attempt(ctx, 'before: the plain AI SDK sends only err.toString()', tools);
  if (!before)
    ctx.print.note('the model could not recover: "Error: sales query failed" says nothing about regions.');
  // This tool's plain errors are input errors: `unknown: 'permanent'` sends them to the model at once instead of
  // retrying them as transient (the default for unrecognised errors, see docs/resilience.md).
  const after = await attempt(
    ctx,
    "after: gracefulTools(tools, { unknown: 'permanent' }) sends the cause chain and guidance",
    gracefulTools(tools, { unknown: 'permanent' }),
  );
  if (after)
    ctx.print.note('the cause chain named the valid regions; the model fixed its call and answered.');
  else problems.push('the wrapped tool did not let the model recover');
  return { section: 'gracefulTool', problems };
}
