/**
 * Section: scale-out. Two processes share one circuit breaker through Redis (`graceful-ai/redis`): process A's agent
 * calls a dead tool until its breaker opens; process B, started afterwards with nothing in memory, is told the tool
 * is unavailable without running it once. The order is one of events, not of time: B starts only once A has exited
 * (its breaker writes are awaited before it answers) and the breaker's record in Redis reads OPEN; the processes'
 * settings (`shared-breaker-process.ts`) keep a loaded machine's waits from changing what B finds. Redis is
 * `REDIS_URL`, else a throwaway `redis-server`; without either the section is skipped with a one-line notice.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createClient } from 'redis';
import { lastToolResults, reply } from '../../mocks/index.js';
import { redisServerInstalled, startRedis } from '../../scripts/redis-server.js';
import { tiedToParent } from '../../scripts/tied-child.js';
import type { DemoContext, DemoSummary } from './context.js';
import { providers } from './provider.js';
import type { ProcessJob, ProcessReport } from './shared-breaker-process.js';

const section = 'scale-out';
const root = resolve(import.meta.dirname, '..', '..');
const processPath = join(import.meta.dirname, 'shared-breaker-process.ts');

/** Where the scene's Redis comes from. */
export type RedisSource = { url: string } | { start: true } | { skip: string };

export function redisSource(env: Record<string, string | undefined>, installed: boolean): RedisSource {
  if (env.REDIS_URL) return { url: env.REDIS_URL };
  if (installed) return { start: true };
  return { skip: 'skipped: no Redis (set REDIS_URL, or install redis-server to run this scene)' };
}

export async function run(ctx: DemoContext): Promise<DemoSummary> {
  ctx.print.section('scale-out', '(two processes, one circuit breaker in Redis)');
  const source = redisSource(process.env, redisServerInstalled());
  if ('skip' in source) {
    ctx.print.note(source.skip);
    return { section, problems: [] };
  }
  if ('url' in source) return scene(ctx, source.url);
  const server = await startRedis();
  try {
    return await scene(ctx, server.url);
  } finally {
    await server.close();
  }
}

/** The scene against the Redis at `url`. */
export async function scene(ctx: DemoContext, url: string): Promise<DemoSummary> {
  const { print } = ctx;
  const problems: string[] = [];
  // Keys of their own, so a shared Redis keeps no state from an earlier run.
  const prefix = `graceful-ai-demo:${process.pid}:${Date.now()}:`;
  ctx.script((request) =>
    lastToolResults(request).length === 0
      ? reply.toolCall('traffic', { city: 'Oslo' })
      : reply.text('I cannot check traffic right now: the traffic service is unavailable.'),
  );
  const job = (question: string): ProcessJob => ({
    redis: url,
    prefix,
    provider: ctx.provider,
    question,
    ...(ctx.mock ? { baseURL: providers[ctx.provider].mockURL(ctx.mock) } : {}),
  });

  print.info('process A: its agent calls the traffic tool, which answers 503 every time');
  print.user('Traffic in Oslo?');
  const a = await runProcess(job('Traffic in Oslo?'));
  report(ctx, 'A', a, problems);
  const state = await breakerState(url, prefix);
  print.note(`Redis now holds ${prefix}breaker:traffic with state ${state}`);
  if (state !== 'open') {
    print.note('process B not started: it would find no open circuit in Redis');
    if (!ctx.live) problems.push(`the shared breaker is ${state}, not open`);
    return { section, problems };
  }

  print.info('process B: a new process, nothing in memory, the same Redis');
  print.user('Traffic in Oslo now?');
  const b = await runProcess(job('Traffic in Oslo now?'));
  report(ctx, 'B', b, problems);
  if (b.runs === 0) print.note('process B failed fast: the breaker process A opened, read from Redis');
  else problems.push(`process B ran the dead tool ${b.runs} times`);
  return { section, problems };
}

/** The state of the scene's breaker record in Redis (`none` without one). */
async function breakerState(url: string, prefix: string): Promise<string> {
  const redis = await createClient({ url }).connect();
  try {
    const stored = (await redis.get(`${prefix}breaker:traffic`)) ?? 'null';
    return (JSON.parse(stored) as { state?: string } | null)?.state ?? 'none';
  } finally {
    await redis.close();
  }
}

function report(ctx: DemoContext, name: string, result: ProcessReport, problems: string[]): void {
  for (const event of result.events) ctx.print.note(`process ${name} (pid ${result.pid}): traffic ${event}`);
  for (const failure of result.redisFailures)
    ctx.print.note(`process ${name} (pid ${result.pid}): ${failure}`);
  if (result.redisFailures.length > 0) problems.push(`process ${name} could not use Redis and went on alone`);
  ctx.print.info(`process ${name}: the tool ran ${result.runs} times`);
  ctx.print.assistant(result.answer);
}

/**
 * Runs one process of the scene (Node with tsx, as `npm run demo` does; killed with this process however it ends)
 * and returns its report.
 */
async function runProcess(job: ProcessJob): Promise<ProcessReport> {
  const line = tiedToParent(process.execPath, ['--import', 'tsx', processPath, JSON.stringify(job)]);
  const child = spawn(line.command, line.args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  const report = out.split('\n').find((l) => l.startsWith('{'));
  if (code !== 0 || report === undefined)
    throw new Error(`the scene's process exited (${code}): ${err.trim()}`);
  return JSON.parse(report) as ProcessReport;
}
