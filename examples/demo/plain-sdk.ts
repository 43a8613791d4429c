/**
 * Section 1: a two-tool agent on the PLAIN AI SDK meets a 429, a failing tool and a stream cut mid-answer.
 * Shows what the SDK does on its own: retries the 429 silently, hands the tool error to the model, and
 * loses the turn when the stream is cut.
 */
import { isStepCount, streamText, tool } from 'ai';
import { z } from 'zod';
import { fault, lastToolResults, reply, streamFault } from '../../mocks/index.js';
import type { DemoContext, DemoSummary } from './context.js';

const files: Record<string, string> = { 'notes/todo.txt': '- renew passport\n- call the plumber' };

const tools = {
  read_file: tool({
    description: 'Read a text file from the workspace.',
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => {
      const text = files[path];
      if (text === undefined) throw new Error(`ENOENT: no such file or directory, open '${path}'`);
      return text;
    },
  }),
  get_weather: tool({
    description: 'Current weather for a city.',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => ({ city, celsius: 18, sky: 'light rain' }),
  }),
};

const answer =
  'You need to renew your passport and call the plumber. In Paris it is 18 °C with light rain, so take an umbrella.';

export async function run(ctx: DemoContext): Promise<DemoSummary> {
  const { print } = ctx;
  print.section('1. The plain AI SDK', '(two tools, a 429, a tool error and a stream cut; no graceful-ai)');
  ctx.script({
    steps: [
      fault.rateLimit({ retryAfterSeconds: 1, retryAfterMs: 300 }),
      reply.toolCalls([
        { name: 'read_file', args: { path: 'todo.txt' } },
        { name: 'get_weather', args: { city: 'Paris' } },
      ]),
    ],
    // The model corrects its path after a tool error; otherwise it answers, and the stream is cut mid-answer.
    rest: (request) =>
      lastToolResults(request).some((r) => r.toolName === 'read_file' && r.error !== undefined)
        ? reply.toolCall('read_file', { path: 'notes/todo.txt' })
        : reply.text(answer, { chunkChars: 6, frameDelayMs: 15, fault: streamFault.cut({ afterChars: 48 }) }),
  });

  const problems: string[] = [];
  const prompt = "What's on my todo list, and what's the weather in Paris?";
  print.user(prompt);
  const result = streamText({
    model: ctx.model(),
    prompt,
    tools,
    stopWhen: isStepCount(4),
    onError: () => {},
  });
  let step = 0;
  let stepStart = performance.now(); // a retried 429 happens before `start-step`
  try {
    for await (const part of result.fullStream) {
      if (part.type === 'start-step') print.step(++step);
      else if (part.type === 'text-delta') print.assistantDelta(part.text);
      else if (part.type === 'tool-call') print.toolCall(part.toolName, part.input);
      else if (part.type === 'tool-result') print.toolResult(part.toolName, part.output);
      else if (part.type === 'tool-error') {
        print.toolError(part.toolName, part.error);
        problems.push(`tool ${part.toolName} failed (the model saw the error text)`);
      } else if (part.type === 'error') print.error('error part', part.error);
      else if (part.type === 'finish-step' && step === 1 && ctx.mock && ctx.mock.requests.length > 1) {
        const ms = Math.round(performance.now() - stepStart);
        print.note(`step 1 took ${ms} ms: the SDK got a 429, waited and retried, with no event.`);
        problems.push('429 retried silently');
      }
      if (part.type === 'finish-step') stepStart = performance.now();
    }
  } catch (error) {
    print.error('stream threw', error);
    print.note(
      'the connection was cut mid-answer: the partial text is all the user got, and the turn failed.',
    );
    problems.push('stream cut mid-answer (turn lost)');
  }
  const text = await Promise.resolve(result.text).catch(() => undefined);
  if (text !== undefined) print.info(`result.text: ${JSON.stringify(text)}`);
  else print.note('result.text rejected: the two completed steps and their tool results are gone with it.');
  if (ctx.mock) print.info(`the mock served ${ctx.mock.requests.length} model calls for ${step} steps.`);
  return { section: 'plain AI SDK', problems };
}
