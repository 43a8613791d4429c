/**
 * One process of the scale-out scene (`shared-breaker.ts` starts two): an agent whose `traffic` tool is dead, with
 * its breaker in Redis. It asks one question, then prints one JSON line (`ProcessReport`) and exits.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, isStepCount, tool } from 'ai';
import { createClient } from 'redis';
import { z } from 'zod';
import { gracefulTools, onToolEvent } from '../../adapters/ai-sdk/index.js';
import { redisCoordination } from '../../adapters/redis/index.js';

/** What the parent passes in argv[2], as JSON. */
export interface ProcessJob {
  redis: string;
  /** The scene's own key prefix. */
  prefix: string;
  /** The fault mock's OpenAI URL; absent with `--live`. */
  baseURL?: string;
  question: string;
}

/** What the process prints. */
export interface ProcessReport {
  pid: number;
  /** How many times the tool itself ran in this process. */
  runs: number;
  /** What the tool layer reported, one line each. */
  events: string[];
  answer: string;
}

const job = JSON.parse(process.argv[2] ?? '{}') as ProcessJob;
const redis = await createClient({ url: job.redis }).connect();
let runs = 0;
const events: string[] = [];
const stop = onToolEvent((event) => {
  if (event.type === 'tool_retry')
    events.push(`attempt ${event.attempt} failed (${event.classification.reason})`);
  if (event.type === 'circuit_state') events.push(`circuit ${event.from} → ${event.to} (in Redis)`);
  if (event.type === 'tool_failed') events.push(`failed: ${event.decision}`);
});
// Wrapped with the coordination: the breaker's state lives in Redis, shared by every process with this prefix.
const tools = gracefulTools(
  {
    traffic: tool({
      description: 'Current road traffic of a city.',
      inputSchema: z.object({ city: z.string() }),
      execute: async (): Promise<string> => {
        runs++;
        throw Object.assign(new Error('traffic API: 503 Service Unavailable'), { status: 503 });
      },
    }),
  },
  {
    coordination: redisCoordination(redis, { prefix: job.prefix }),
    autoRetry: { maxRetries: 2 },
    breaker: { failureThreshold: 3 },
  },
);
const openai = createOpenAI(job.baseURL === undefined ? {} : { baseURL: job.baseURL, apiKey: 'sk-demo' });
try {
  const result = await generateText({
    model: openai.chat('gpt-4o-mini'),
    prompt: job.question,
    tools,
    stopWhen: isStepCount(3),
    maxRetries: 0,
  });
  const report: ProcessReport = { pid: process.pid, runs, events, answer: result.text };
  process.stdout.write(`${JSON.stringify(report)}\n`);
} finally {
  stop();
  await redis.close();
}
