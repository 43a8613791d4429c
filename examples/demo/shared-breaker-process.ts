/**
 * One process of the scale-out scene (`shared-breaker.ts` starts two): an agent whose `traffic` tool is dead, with
 * its breaker in Redis. It asks one question, then prints one JSON line (`ProcessReport`) and exits.
 */
import { generateText, isStepCount, tool } from 'ai';
import { createClient } from 'redis';
import { z } from 'zod';
import { CircuitOpenError, gracefulTools, onToolEvent } from '../../adapters/ai-sdk/index.js';
import { redisCoordination } from '../../adapters/redis/index.js';
import { defaultLogger } from '../../src/observe/index.js';
import { formatDuration } from '../../src/util/duration.js';
import { type ProviderName, providers } from './provider.js';

/** What the parent passes in argv[2], as JSON. */
export interface ProcessJob {
  redis: string;
  /** The scene's own key prefix. */
  prefix: string;
  /** The demo's provider (`--provider`). */
  provider: ProviderName;
  /** The fault mock's URL for that provider; absent with `--live`. */
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
  /** Each time Redis did not answer (the process then used its own breaker): empty when all state was Redis's. */
  redisFailures: string[];
  answer: string;
}

/**
 * The scene's settings, chosen so that no wait on a loaded machine changes its outcome. The circuit stays open for
 * 10 minutes (the default is 30 s): however late process B starts, the circuit A opened is still open when B asks.
 * A Redis command may take a minute (the default, 500 ms, counts a slower answer as Redis down, and the process then
 * goes on with its own breaker): on a busy machine a local Redis's answer can wait that long for the event loop. The
 * silent retries may take a minute too (default 2 s), so all three attempts run and open the breaker.
 */
const sceneSettings = {
  openMs: 10 * 60_000,
  commandTimeoutMs: 60_000,
  maxTotalTimeMs: 60_000,
} as const;

const job = JSON.parse(process.argv[2] ?? '{}') as ProcessJob;
const redis = await createClient({ url: job.redis }).connect();
let runs = 0;
const events: string[] = [];
const redisFailures: string[] = [];
const stop = onToolEvent((event) => {
  if (event.type === 'tool_retry')
    events.push(`attempt ${event.attempt} failed (${event.classification.reason})`);
  if (event.type === 'circuit_state') {
    const where = redisFailures.length === 0 ? 'in Redis' : 'in this process only: Redis failed';
    events.push(`circuit ${event.from} → ${event.to} (${where})`);
  }
  if (event.type === 'tool_failed') {
    const { error } = event;
    // Rejected without a run: say how long the circuit stays open (it was read from Redis).
    const reopens =
      CircuitOpenError.isInstance(error) && event.attempts === 0
        ? ` (open for another ${formatDuration(error.retryAfterMs)})`
        : '';
    events.push(`failed: ${event.decision}${reopens}`);
  }
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
    coordination: redisCoordination(redis, {
      prefix: job.prefix,
      commandTimeoutMs: sceneSettings.commandTimeoutMs,
      logger: {
        ...defaultLogger,
        warn: (message, data) => {
          redisFailures.push(message);
          defaultLogger.warn(message, data);
        },
      },
    }),
    autoRetry: { maxRetries: 2, maxTotalTimeMs: sceneSettings.maxTotalTimeMs },
    breaker: { failureThreshold: 3, openMs: sceneSettings.openMs },
  },
);
const provider = providers[job.provider];
try {
  const result = await generateText({
    model: provider.models(job.baseURL)(provider.defaultModel),
    prompt: job.question,
    tools,
    stopWhen: isStepCount(3),
    maxRetries: 0,
  });
  const report: ProcessReport = { pid: process.pid, runs, events, redisFailures, answer: result.text };
  process.stdout.write(`${JSON.stringify(report)}\n`);
} finally {
  stop();
  await redis.close();
}
