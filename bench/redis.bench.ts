import { performance } from 'node:perf_hooks';
import { redisCoordination } from '../adapters/redis/coordination.js';
import { fault, reply, startMockServer } from '../mocks/index.js';
import { startRedis } from '../scripts/redis-server.js';
import { CircuitBreaker } from '../src/policy/circuit-breaker.js';
import { createToolPolicy, type ToolPolicy } from '../src/policy/tool-policy.js';
import { clientKinds, command, connect } from '../test/redis/clients.js';
import { runWorker, workerBundle } from '../test/redis/processes.js';
import { redisPlan } from '../test/redis/redis-plan.js';
import { giveStartSignal } from '../test/redis/start-signal.js';
import { type Bench, type BenchResult, compareAlternating, median, quantile, round } from './harness.js';

const skipped = (name: string, message: string): BenchResult => ({
  name,
  metrics: {},
  notes: `skipped: ${message}`,
});

/** Median and p99 of `n` sequential calls of `fn`, in ms: their duration, or the ms a call returns itself. */
async function perCall(fn: () => unknown, n = 2_000): Promise<{ median: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    const measured = await fn();
    times.push(typeof measured === 'number' ? measured : performance.now() - start);
  }
  return { median: round(median(times), 4), p99: round(quantile(times, 0.99), 4) };
}

const tool5ms = () => new Promise((resolve) => setTimeout(resolve, 5));

/**
 * Median ms from `run` to the tool starting, and from the tool's end to `run` resolving; calls 5 ms apart, as in the
 * comparison (where the other stack's call runs in between).
 */
async function phases(policy: ToolPolicy, n = 400): Promise<{ before: number; after: number }> {
  const before: number[] = [];
  const after: number[] = [];
  for (let i = 0; i < n; i++) {
    await tool5ms();
    let started = 0;
    let ended = 0;
    const start = performance.now();
    await policy.run(async () => {
      started = performance.now();
      await tool5ms();
      ended = performance.now();
    });
    before.push(started - start);
    after.push(performance.now() - ended);
  }
  return { before: round(median(before), 4), after: round(median(after), 4) };
}

export const benches: Bench[] = [
  {
    name: 'Redis: breaker and cool-down checks per call (local redis-server)',
    async run() {
      const name = 'Redis: breaker and cool-down checks per call (local redis-server)';
      const plan = redisPlan();
      if (!plan.run) return skipped(name, plan.message);
      const server = await startRedis();
      const redis = await connect('node-redis', server.url);
      const { client, quit } = redis;
      try {
        const coordination = redisCoordination(client, { prefix: 'bench:' });
        const breaker = new CircuitBreaker('search', { store: coordination.breakerStore });
        const breakerCheck = await perCall(() => breaker.admit());
        const cooldownCheck = await perCall(() =>
          coordination.beforeCall('tool:search', { maxWaitMs: 0, sleep: async () => {} }),
        );
        // Where the time of a call goes: a round trip right after another vs after the tool's 5 ms of quiet.
        const get = () => command(redis, ['GET', 'bench:breaker:search']);
        const hotRoundTrip = await perCall(get, 400);
        const idleRoundTrip = await perCall(async () => {
          await tool5ms();
          const start = performance.now();
          await get();
          return performance.now() - start;
        }, 400);
        // The same stack both ways: a breaker in this process's memory vs in Redis, plus the shared cool-down check.
        const plain = createToolPolicy('search', { autoRetry: false });
        const shared = createToolPolicy('search', { autoRetry: false, coordination });
        const plainPhases = await phases(plain);
        const sharedPhases = await phases(shared);
        const { medianA, medianB, ratio } = await compareAlternating(
          () => plain.run(tool5ms),
          () => shared.run(tool5ms),
          { rounds: 200, warmup: 20 },
        );
        return {
          name,
          metrics: {
            breakerMedianMs: breakerCheck.median,
            breakerP99Ms: breakerCheck.p99,
            cooldownMedianMs: cooldownCheck.median,
            cooldownP99Ms: cooldownCheck.p99,
            hotRoundTripMs: hotRoundTrip.median,
            idleRoundTripMs: idleRoundTrip.median,
            plainBeforeToolMs: plainPhases.before,
            plainAfterToolMs: plainPhases.after,
            sharedBeforeToolMs: sharedPhases.before,
            sharedAfterToolMs: sharedPhases.after,
            tool5msPlainMs: round(medianA),
            tool5msSharedMs: round(medianB),
            ratio: round(ratio),
          },
          target: 'ratio <= 1.1 (a 5 ms tool: Redis breaker + cool-down check vs an in-memory breaker)',
          met: ratio <= 1.1,
        };
      } finally {
        await quit();
        await server.close();
      }
    },
  },
  {
    name: 'Redis: per command through each client (@upstash/redis over HTTP, local REST endpoint)',
    async run() {
      const name = 'Redis: per command through each client (@upstash/redis over HTTP, local REST endpoint)';
      const plan = redisPlan();
      if (!plan.run) return skipped(name, plan.message);
      const server = await startRedis();
      const metrics: Record<string, number> = {};
      try {
        for (const kind of clientKinds) {
          const redis = await connect(kind, server.url);
          try {
            const coordination = redisCoordination(redis.client, { prefix: `bench:${kind}:` });
            const breaker = new CircuitBreaker('search', { store: coordination.breakerStore });
            const roundTrip = await perCall(() => command(redis, ['GET', 'bench:none']), 500);
            const breakerCheck = await perCall(() => breaker.admit(), 500);
            const cooldownCheck = await perCall(
              () => coordination.beforeCall('tool:search', { maxWaitMs: 0, sleep: async () => {} }),
              500,
            );
            metrics[`${kind}RoundTripMs`] = roundTrip.median;
            metrics[`${kind}BreakerMs`] = breakerCheck.median;
            metrics[`${kind}CooldownMs`] = cooldownCheck.median;
          } finally {
            await redis.quit();
          }
        }
        return { name, metrics };
      } finally {
        await server.close();
      }
    },
  },
  {
    name: 'Redis: a 429 herd of 20 processes, with and without shared cool-downs',
    async run() {
      const name = 'Redis: a 429 herd of 20 processes, with and without shared cool-downs';
      const plan = redisPlan();
      if (!plan.run) return skipped(name, plan.message);
      const server = await startRedis();
      const bundle = await workerBundle();
      const parent = await connect('node-redis', server.url);
      try {
        const herd = async (coordinate: boolean) => {
          let limitedUntil: number | undefined;
          // Rate-limited for 2 s from the first request: every request in that window gets 429 retry-after: 2.
          const mock = await startMockServer({
            script: () => {
              limitedUntil ??= Date.now() + 2_000;
              return Date.now() < limitedUntil ? fault.rateLimit({ retryAfterSeconds: 2 }) : reply.text('ok');
            },
          });
          const prefix = `herd:${coordinate}:`;
          // Every process waits for one start signal, so a loaded machine that starts some late changes nothing;
          // then requests arrive over 1.2 s, as an app's traffic does: inside the 2 s window with time to spare for a
          // busy machine (at 90 ms apart, a load spike once pushed the last 6 past it).
          const workers = Promise.all(
            Array.from({ length: 20 }, (_, i) =>
              runWorker(bundle, {
                mode: 'generate',
                redis: server.url,
                client: 'node-redis',
                prefix,
                mock: mock.urls.openai,
                startSignal: { key: `${prefix}start`, delayMs: i * 60 },
                coordinate,
              }),
            ),
          );
          const [results] = await Promise.all([workers, giveStartSignal(parent, `${prefix}start`, 20)]);
          await mock.close();
          return { requests: mock.requests.length, answered: results.filter((r) => r.ok === true).length };
        };
        const without = await herd(false);
        const withShared = await herd(true);
        const extraWith = withShared.requests - 20;
        const extraWithout = without.requests - 20;
        return {
          name,
          metrics: {
            requestsWithout: without.requests,
            extraWithout,
            answeredWithout: without.answered,
            requestsWith: withShared.requests,
            extraWith,
            answeredWith: withShared.answered,
          },
          target: 'extra requests <= 2 with shared cool-downs, >= 20 without',
          met: extraWith <= 2 && extraWithout >= 20,
        };
      } finally {
        await parent.quit();
        await server.close();
      }
    },
  },
];
