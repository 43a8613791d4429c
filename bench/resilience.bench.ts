import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { Emitter } from '../src/observe/emitter.js';
import { ToolMetrics } from '../src/observe/metrics.js';
import type { ToolEventMap } from '../src/observe/tool-events.js';
import { ToolTelemetry } from '../src/observe/tool-telemetry.js';
import { createToolPolicy } from '../src/policy/tool-policy.js';
import { type Bench, compareAlternating, median, round } from './harness.js';

/** Sinks of their own so the benches neither pollute nor read the process-wide metrics. */
const telemetry = () =>
  new ToolTelemetry({
    events: new Emitter<ToolEventMap>(),
    metrics: new ToolMetrics(),
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  });
const unavailable = () => Object.assign(new Error('service unavailable'), { status: 503 });

export const benches: Bench[] = [
  {
    name: 'resilience: success-path overhead on a 1 ms tool',
    async run() {
      const tool = () => delay(1);
      const calls = 20;
      const bare = async () => {
        for (let i = 0; i < calls; i++) await tool();
      };
      const through = (policy: ReturnType<typeof createToolPolicy>) => async () => {
        for (let i = 0; i < calls; i++) await policy.run(() => tool());
      };
      // The default stack of gracefulTool (fallback ▸ breaker ▸ retry; no timeout unless timeoutMs is set) …
      const defaults = await compareAlternating(
        bare,
        through(createToolPolicy('bench', { telemetry: telemetry() })),
        {
          rounds: 40,
          warmup: 5,
        },
      );
      // … and with the per-attempt hard timeout on as well.
      const withTimeout = await compareAlternating(
        bare,
        through(createToolPolicy('bench-timeout', { timeoutMs: 5_000, telemetry: telemetry() })),
        { rounds: 40, warmup: 5 },
      );
      return {
        name: this.name,
        metrics: {
          bareMsPerCall: round(defaults.medianA / calls),
          stackMsPerCall: round(defaults.medianB / calls),
          ratio: round(defaults.ratio),
          withTimeoutMsPerCall: round(withTimeout.medianB / calls),
          withTimeoutRatio: round(withTimeout.ratio),
        },
        target: 'ratio <= 1.05',
        met: defaults.ratio <= 1.05,
        notes:
          'a tool awaiting a 1 ms timer, 20 calls per sample; ratio = default stack (breaker + retry), ' +
          'withTimeoutRatio = the same plus timeoutMs (a timer and two abort signals per attempt)',
      };
    },
  },
  {
    name: 'resilience: fail fast with the breaker open vs retrying to the budget',
    async run() {
      const failing = () => Promise.reject(unavailable());
      const withoutBreaker = createToolPolicy('no-breaker', { breaker: false, telemetry: telemetry() });
      const withBreaker = createToolPolicy('breaker', { telemetry: telemetry() });
      await withBreaker.run(failing); // five failed attempts: the breaker is now open
      const retrying: number[] = [];
      for (let i = 0; i < 3; i++) {
        const start = performance.now();
        await withoutBreaker.run(failing);
        retrying.push(performance.now() - start);
      }
      const open: number[] = [];
      for (let i = 0; i < 2_000; i++) {
        const start = performance.now();
        await withBreaker.run(failing);
        open.push(performance.now() - start);
      }
      const ratio = median(retrying) / median(open);
      return {
        name: this.name,
        metrics: {
          retryingMs: round(median(retrying), 1),
          breakerOpenMs: round(median(open), 4),
          speedup: round(ratio, 0),
        },
        target: 'speedup >= 100',
        met: ratio >= 100,
        notes:
          'default autoRetry (4 retries, 100/200/400/800 ms) without a breaker vs a call rejected by an open breaker',
      };
    },
  },
  {
    name: 'resilience: 50 parallel calls with 20% transient failures',
    async run() {
      const toolMs = 5;
      // Call i fails its first attempt when i % 5 === 0 (20%); calls 0 and 25 fail their second attempt too.
      const failuresOf = (i: number) => (i % 25 === 0 ? 2 : i % 5 === 0 ? 1 : 0);
      const chain = (i: number) => {
        let attempt = 0;
        return async () => {
          await delay(toolMs);
          if (attempt++ < failuresOf(i)) throw unavailable();
          return i;
        };
      };
      const rounds = 5;
      const parallel: number[] = [];
      const slowest: number[] = [];
      for (let r = 0; r < rounds; r++) {
        const policy = createToolPolicy(`parallel-${r}`, { random: () => 0.5, telemetry: telemetry() });
        let start = performance.now();
        const outcomes = await Promise.all(Array.from({ length: 50 }, (_, i) => policy.run(chain(i))));
        parallel.push(performance.now() - start);
        if (!outcomes.every((o) => o.ok)) throw new Error('bench: a parallel call failed');
        const alone = createToolPolicy(`alone-${r}`, { random: () => 0.5, telemetry: telemetry() });
        start = performance.now();
        await alone.run(chain(0));
        slowest.push(performance.now() - start);
      }
      const ratio = median(parallel) / median(slowest);
      return {
        name: this.name,
        metrics: {
          parallelMs: round(median(parallel), 1),
          slowestChainMs: round(median(slowest), 1),
          ratio: round(ratio),
        },
        target: 'ratio <= 1.2',
        met: ratio <= 1.2,
        notes:
          '5 ms tool; 10 of 50 calls fail once, 2 of them twice (100 + 200 ms backoff); one shared breaker',
      };
    },
  },
];
