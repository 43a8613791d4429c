/**
 * Section: tool resilience. A flaky tool (two connection resets, then an answer), declared idempotent, is retried
 * silently: the model sees one clean result. A tool that is not idempotent (an e-mail that fails after it was sent)
 * is run once and its error goes to the model at once: no second e-mail. A dead tool opens its circuit breaker: the
 * model is told it is temporarily unavailable, answers without it (an outage: never "fix your arguments"), and the
 * next question is answered at once without running the tool. Options are checked where they are given: a
 * misspelled one fails at start-up, with what to write.
 */
import { generateText, isStepCount, type ToolSet, tool } from 'ai';
import { z } from 'zod';
import { gracefulTool, gracefulTools, onToolEvent } from '../../adapters/ai-sdk/index.js';
import { lastToolResults, reply } from '../../mocks/index.js';
import type { DemoContext, DemoSummary } from './context.js';

const city = z.object({ city: z.string() });
let flakyCalls = 0;
let deadCalls = 0;
let emailsSent = 0;

// Wrapped once, at module level: every run shares each tool's circuit breaker.
const tools = gracefulTools(
  {
    // A read: safe to run again after a reset, so declared idempotent (else a reset goes to the model unretried).
    weather: gracefulTool(
      tool({
        description: 'Current weather of a city.',
        inputSchema: city,
        execute: async ({ city }) => {
          if (++flakyCalls <= 2) throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
          return { city, sky: 'sunny', celsius: 21 };
        },
      }),
      { idempotent: true },
    ),
    // Not idempotent (the default): its plain Error is not retried, or Ann would get one e-mail per attempt.
    send_email: tool({
      description: 'Send an e-mail.',
      inputSchema: z.object({ to: z.string() }),
      execute: async (): Promise<string> => {
        emailsSent++;
        throw new Error('mail server closed the connection after accepting the message');
      },
    }),
    traffic: tool({
      description: 'Current road traffic of a city.',
      inputSchema: city,
      execute: async (): Promise<string> => {
        deadCalls++;
        throw Object.assign(new Error('traffic API: 503 Service Unavailable'), { status: 503 });
      },
    }),
  },
  // Silent retries of transient errors (maxRetries: retries after the first attempt), then the breaker. All three
  // attempts may take a minute (default 2 s): a busy machine's pauses must not cut the scene's retries short.
  { autoRetry: { maxRetries: 2, maxTotalTimeMs: 60_000 }, breaker: { failureThreshold: 3 } },
);

async function ask(
  ctx: DemoContext,
  question: string,
  toolName: string,
  answer: string,
  tools: ToolSet,
  input: Record<string, string> = { city: 'Oslo' },
) {
  const { print } = ctx;
  ctx.script({
    steps: [reply.toolCall(toolName, input)],
    rest: (request) =>
      reply.text(
        lastToolResults(request).some((r) => r.error) ? `${toolName} is unavailable; ${answer}` : answer,
      ),
  });
  print.user(question);
  const result = await generateText({
    model: ctx.model(),
    prompt: question,
    tools,
    stopWhen: isStepCount(3),
    maxRetries: 0,
  });
  for (const part of result.steps.flatMap((s) => s.content)) {
    if (part.type === 'tool-call') print.toolCall(part.toolName, part.input);
    if (part.type === 'tool-result') print.toolResult(part.toolName, part.output);
    if (part.type === 'tool-error') print.toolError(part.toolName, part.error);
  }
  print.assistant(result.text);
  return result;
}

export async function run(ctx: DemoContext): Promise<DemoSummary> {
  const { print } = ctx;
  print.section('tool resilience', '(automatic retry with backoff, circuit breaker)');
  const problems: string[] = [];
  const stop = onToolEvent((event) => {
    if (event.type === 'tool_retry') {
      print.note(
        `${event.toolName}: attempt ${event.attempt} failed (${event.classification.reason}), retry ${event.attempt} of ${event.maxRetries} in ${Math.round(event.delayMs)} ms`,
      );
    }
    if (event.type === 'circuit_state') print.note(`${event.toolName}: circuit ${event.from} → ${event.to}`);
    if (event.type === 'tool_failed' && event.decision === 'not_idempotent') {
      print.note(`${event.toolName}: not idempotent, so not retried: the model is told at once`);
    }
  });
  try {
    print.info('a flaky tool: two connection resets, then an answer');
    const flaky = await ask(ctx, 'Weather in Oslo?', 'weather', 'Sunny, 21 °C in Oslo.', tools);
    const errors = flaky.steps.flatMap((s) => s.content).filter((p) => p.type === 'tool-error');
    if (errors.length === 0) print.note('retried silently: the model saw one clean result');
    else problems.push('the flaky tool reached the model as an error');

    print.info('a tool that is not idempotent: send_email fails after the message went out');
    await ask(
      ctx,
      'E-mail Ann that it is sunny.',
      'send_email',
      'The mail server failed after accepting the message; check with Ann before I send it again.',
      tools,
      { to: 'ann@example.com' },
    );
    if (emailsSent === 1) print.note('executed once: one e-mail went out, not five');
    else problems.push(`the non-idempotent tool ran ${emailsSent} times`);

    print.info('a dead tool: every call fails with 503');
    await ask(ctx, 'Traffic in Oslo?', 'traffic', 'I cannot check traffic right now.', tools);
    const before = deadCalls;
    print.info('asking again while the circuit is open');
    await ask(ctx, 'Traffic in Oslo now?', 'traffic', 'I still cannot check traffic.', tools);
    if (deadCalls === before) print.note('failed fast: the open circuit answered without running the tool');
    else problems.push('the open circuit still ran the dead tool');

    print.info('an option out of range: gracefulTool(tool, { autoRetry: { maxRetries: -1 } })');
    try {
      gracefulTool(tools.weather, { autoRetry: { maxRetries: -1 } });
      problems.push('an out-of-range option was accepted');
    } catch (error) {
      print.note(`rejected at start-up: ${(error as Error).message}`);
    }
  } finally {
    stop();
  }
  return { section: 'tool resilience', problems };
}
