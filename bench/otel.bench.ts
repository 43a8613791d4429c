/**
 * What OpenTelemetry costs a drop-in call, off and on. Six variants run in every round (order rotating), in one
 * process: `ai` and the drop-in `streamText`, each (1) with no OpenTelemetry registered at all, (2) with the SDK
 * registered (tracer provider, AsyncLocalStorage context manager, meter provider, `@ai-sdk/otel`'s integration),
 * both with the call's `telemetry: { isEnabled: false }`, and (3) with the SDK registered and the call's telemetry
 * on (spans to an in-memory exporter). Registering is global, so each run registers its state before it is timed and unregisters
 * after. A micro-measure times the off path alone: what graceful-ai runs per call when nothing records.
 */
import { OpenTelemetry } from '@ai-sdk/otel';
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { isStepCount, registerTelemetry, streamText as sdkStreamText, type ToolSet, tool } from 'ai';
import { z } from 'zod';
import { sdkRecordsTelemetry } from '../adapters/ai-sdk/drop-in/guard-call-options.js';
import { streamText } from '../adapters/ai-sdk/drop-in/stream-text.js';
import { callTelemetry } from '../adapters/ai-sdk/stream-guard/call-telemetry.js';
import { resolveOptions, telemetryKey } from '../adapters/ai-sdk/stream-guard/options.js';
import { guardSpanNames } from '../src/observe/otel/guard-telemetry.js';
import { ToolAttemptSpans, toolAttemptSpanName } from '../src/observe/otel/tool-attempt-spans.js';
import {
  finish,
  type Part,
  preamble,
  scriptedModel,
  streamOf,
  textParts,
} from '../test/adapters/ai-sdk/stream-guard-fixtures.js';
import { type Bench, type BenchResult, median, quantile, round } from './harness.js';

type Telemetry = 'none' | 'off' | 'on';
type Api = 'ai' | 'drop-in';

/** The OpenTelemetry SDK, built once, registered globally for a run and unregistered after it. */
function otelSdk() {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const contextManager = new AsyncLocalStorageContextManager();
  const meterProvider = new MeterProvider({
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
        exportIntervalMillis: 3_600_000,
      }),
    ],
  });
  // Built once the tracer provider is registered: its tracer comes from the API's proxy provider of that moment,
  // which `trace.disable()` replaces; one from an earlier proxy would never get the provider (a no-op tracer).
  let integration: OpenTelemetry | undefined;
  let registered = false;
  const integrations = globalThis as { AI_SDK_TELEMETRY_INTEGRATIONS?: unknown };
  return {
    exporter,
    register() {
      trace.setGlobalTracerProvider(tracerProvider);
      context.setGlobalContextManager(contextManager.enable());
      metrics.setGlobalMeterProvider(meterProvider);
      integration ??= new OpenTelemetry();
      registerTelemetry(integration);
      registered = true;
    },
    unregister() {
      if (!registered) return;
      registered = false;
      trace.disable();
      context.disable();
      metrics.disable();
      integrations.AI_SDK_TELEMETRY_INTEGRATIONS = undefined;
    },
    shutdown: () => Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]),
  };
}

/** A scripted run: the model's streams (one per step), the tools and the text the consumer must read. */
interface Scenario {
  streams(): ReadableStream<Part>[];
  tools?: ToolSet;
  steps: number;
  toolCalls: number;
  text: string;
}

const modelId = { provider: 'bench.chat', modelId: 'bench-model' };
const DELTAS = 1_000;
const answer = 'ab'.repeat(DELTAS);
const answerParts = [...preamble('r'), ...textParts(answer, { size: 2 }), finish()];

const toolCall = (toolName: string, toolCallId: string): Part[] => [
  ...preamble(toolCallId),
  { type: 'tool-call', toolCallId, toolName, input: '{"q":"x"}' },
  finish('tool-calls'),
];
const loopAnswer = 'cd'.repeat(100);
const loopParts = [
  toolCall('lookup', 'c1'),
  toolCall('convert', 'c2'),
  [...preamble('r'), ...textParts(loopAnswer, { size: 2 }), finish()],
];
const loopTools: ToolSet = {
  lookup: tool({ inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => `found ${q}` }),
  convert: tool({ inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => `converted ${q}` }),
};

const scenarios = {
  text: { streams: () => [streamOf(answerParts)], steps: 1, toolCalls: 0, text: answer },
  toolLoop: {
    streams: () => loopParts.map((parts) => streamOf(parts)),
    tools: loopTools,
    steps: 3,
    toolCalls: 2,
    text: loopAnswer,
  },
} satisfies Record<string, Scenario>;

/** One call through `api`, its text read to the end. */
async function call(api: Api, telemetry: Telemetry, scenario: Scenario): Promise<void> {
  const options = {
    model: scriptedModel(scenario.streams(), [], modelId),
    prompt: 'x',
    tools: scenario.tools,
    stopWhen: isStepCount(scenario.steps),
    // Off in `none` too, so that `none` and `off` differ only by what is registered.
    telemetry: { isEnabled: telemetry === 'on' },
  };
  const result = api === 'ai' ? sdkStreamText(options) : streamText(options);
  let text = '';
  for await (const delta of result.textStream) text += delta;
  if (text !== scenario.text) throw new Error(`bench: ${api} read ${text.length} characters`);
}

/** In a cycle where every compared pair is adjacent: drop-in off/none, none drop-in/ai, ai none/off, on ai/drop-in. */
const variants = (
  [
    ['drop-in', 'off'],
    ['drop-in', 'none'],
    ['ai', 'none'],
    ['ai', 'off'],
    ['ai', 'on'],
    ['drop-in', 'on'],
  ] as const
).map(([api, telemetry]) => ({ api, telemetry, key: `${api}/${telemetry}` }));
type Variant = (typeof variants)[number];

interface SpanCounts {
  /** Spans of any kind finished in runs with the call's telemetry off (must be 0). */
  off: number;
  /** graceful-ai.attempt / graceful-ai.tool.attempt spans per drop-in run with telemetry on. */
  attempts: number[];
  toolAttempts: number[];
  /** graceful-ai spans in `ai`'s own runs with telemetry on (must be 0: the guard is not there). */
  inSdkRuns: number;
}

/**
 * Times every variant once per round, the cycle rotated one place a round and run backwards every other round: each
 * variant runs first, middle and last alike, and each compared pair back to back, in both orders.
 */
async function rounds(scenario: Scenario, count: number, warmup: number) {
  const sdk = otelSdk();
  const times = new Map<string, number[]>(variants.map((v) => [v.key, []]));
  const spans: SpanCounts = { off: 0, attempts: [], toolAttempts: [], inSdkRuns: 0 };
  const named = (name: string) => sdk.exporter.getFinishedSpans().filter((s) => s.name === name).length;
  const runOnce = async (variant: Variant, timed: boolean) => {
    if (variant.telemetry !== 'none') sdk.register();
    const start = performance.now();
    try {
      await call(variant.api, variant.telemetry, scenario);
    } finally {
      const ms = performance.now() - start;
      sdk.unregister();
      if (timed) times.get(variant.key)!.push(ms);
    }
    if (variant.telemetry === 'off') spans.off += sdk.exporter.getFinishedSpans().length;
    if (variant.telemetry === 'on' && variant.api === 'drop-in') {
      spans.attempts.push(named(guardSpanNames.attempt));
      spans.toolAttempts.push(named(toolAttemptSpanName));
    }
    if (variant.telemetry === 'on' && variant.api === 'ai')
      spans.inSdkRuns += named(guardSpanNames.attempt) + named(toolAttemptSpanName);
    // A run with telemetry on that records no SDK span measured nothing: say so rather than report it.
    if (variant.telemetry === 'on' && named(`invoke_agent ${modelId.modelId}`) !== 1)
      throw new Error(`bench: ${variant.key} recorded no invoke_agent span`);
    sdk.exporter.reset();
  };
  try {
    for (let r = 0; r < warmup + count; r++) {
      const order = variants.map((_, i) => variants[(r + i) % variants.length]!);
      if (r % 2 === 1) order.reverse();
      for (const variant of order) await runOnce(variant, r >= warmup);
    }
  } finally {
    await sdk.shutdown();
  }
  return { times: (key: string) => times.get(key)!, spans };
}

/** `b / a` of each round: median and quartiles. */
function ratioOf(a: number[], b: number[]) {
  const ratios = b.map((t, i) => t / a[i]!);
  return { median: median(ratios), p25: quantile(ratios, 0.25), p75: quantile(ratios, 0.75) };
}

/** Nanoseconds per call of `fn`, the median of 7 loops of a million calls. */
function nsPerCall(fn: () => unknown, calls = 1_000_000): number {
  let kept = 0;
  const loops: number[] = [];
  for (let loop = 0; loop < 7; loop++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) if (fn() !== undefined) kept++;
    loops.push(Number(process.hrtime.bigint() - start) / calls);
  }
  if (kept < 0) throw new Error('unreachable: keeps the calls from being optimised away');
  return median(loops);
}

/**
 * What graceful-ai adds per drop-in call when nothing records: reading the SDK's `telemetry` option (once per
 * call), the guard's `callTelemetry` (once per model call) and `ToolAttemptSpans.forCall` (once per tool call),
 * timed with nothing registered and with the SDK registered but the call's telemetry off.
 */
function offPath(scenario: Scenario) {
  const sdk = otelSdk();
  const measure = (telemetry: 'none' | 'off') => {
    const given = telemetry === 'none' ? {} : { telemetry: { isEnabled: false } };
    if (telemetry === 'off') sdk.register();
    try {
      const resolved = resolveOptions({ [telemetryKey]: sdkRecordsTelemetry(given) });
      const options = nsPerCall(() => sdkRecordsTelemetry(given));
      const guard = nsPerCall(() => callTelemetry(resolved));
      const tools = nsPerCall(() => ToolAttemptSpans.forCall('lookup'));
      return {
        options,
        guard,
        tools,
        perCall: options + scenario.steps * guard + scenario.toolCalls * tools,
      };
    } finally {
      sdk.unregister();
    }
  };
  return { none: measure('none'), off: measure('off') };
}

const TARGET = 1.01;

function otelBench(name: string, scenario: Scenario, what: string, count: number): Bench {
  return {
    name,
    async run(): Promise<BenchResult> {
      const { times, spans } = await rounds(scenario, count, 10);
      const micro = offPath(scenario);
      const ms = (key: string) => round(median(times(key)));
      const offVsNone = ratioOf(times('drop-in/none'), times('drop-in/off'));
      const sdkOffVsNone = ratioOf(times('ai/none'), times('ai/off'));
      const onDropInVsAi = ratioOf(times('ai/on'), times('drop-in/on'));
      const noneDropInVsAi = ratioOf(times('ai/none'), times('drop-in/none'));
      const dropInNs = median(times('drop-in/none')) * 1e6;
      const ratioMetrics = (prefix: string, r: ReturnType<typeof ratioOf>) => ({
        [prefix]: round(r.median),
        [`${prefix}P25`]: round(r.p25),
        [`${prefix}P75`]: round(r.p75),
      });
      const attempts = median(spans.attempts);
      const toolAttempts = median(spans.toolAttempts);
      return {
        name,
        metrics: {
          aiNoneMs: ms('ai/none'),
          dropInNoneMs: ms('drop-in/none'),
          aiOffMs: ms('ai/off'),
          dropInOffMs: ms('drop-in/off'),
          aiOnMs: ms('ai/on'),
          dropInOnMs: ms('drop-in/on'),
          ...ratioMetrics('offVsNone', offVsNone),
          ...ratioMetrics('sdkOffVsNone', sdkOffVsNone),
          ...ratioMetrics('onDropInVsAi', onDropInVsAi),
          ...ratioMetrics('noneDropInVsAi', noneDropInVsAi),
          spansWithTelemetryOff: spans.off,
          gracefulSpansInAiRuns: spans.inSdkRuns,
          attemptSpansPerRun: attempts,
          toolAttemptSpansPerRun: toolAttempts,
          offPathNsNoOtel: round(micro.none.perCall, 1),
          offPathNsRegisteredOff: round(micro.off.perCall, 1),
          offPathPercentOfCall: round((micro.none.perCall / dropInNs) * 100, 5),
          offPathPercentOfCallRegisteredOff: round((micro.off.perCall / dropInNs) * 100, 5),
          readOptionNs: round(micro.none.options, 1),
          callTelemetryNs: round(micro.none.guard, 1),
          toolAttemptSpansForCallNs: round(micro.none.tools, 1),
          readOptionNsRegisteredOff: round(micro.off.options, 1),
          callTelemetryNsRegisteredOff: round(micro.off.guard, 1),
          toolAttemptSpansForCallNsRegisteredOff: round(micro.off.tools, 1),
          rounds: count,
        },
        target: `offVsNone <= ${TARGET} and no span with telemetry off`,
        met: offVsNone.median <= TARGET && spans.off === 0,
        notes:
          `${what}. Six variants per round after 10 warmup rounds, the order rotated each round and reversed ` +
          'every other round (compared pairs back to back, in both orders): ai / drop-in streamText with no ' +
          'OpenTelemetry registered (none) and with the SDK registered (tracer provider, AsyncLocalStorage ' +
          "context manager, meter provider, @ai-sdk/otel's OpenTelemetry) (off), both with the call's " +
          'telemetry: { isEnabled: false }, and with the SDK registered and telemetry on, spans to an in-memory ' +
          'exporter (on). Ratios: median of per-round ratios, p25/p75. ' +
          'offVsNone = drop-in off / drop-in none (the target); sdkOffVsNone = the same for ai alone (what the ' +
          'registered SDK costs without graceful-ai); onDropInVsAi = drop-in on / ai on, against noneDropInVsAi ' +
          '(what graceful-ai spans add over the drop-in overhead). offPath*: ns per call graceful-ai runs to decide ' +
          'that nothing records (the telemetry option read once, callTelemetry per step, ToolAttemptSpans.forCall ' +
          'per tool call), median of 7 loops of 1e6 calls, as a percentage of one drop-in call (none).',
      };
    },
  };
}

export const benches: Bench[] = [
  otelBench(
    'OpenTelemetry off and on: drop-in streamText (1,000 deltas)',
    scenarios.text,
    'One step streaming 1,000 text deltas (MockLanguageModelV4)',
    300,
  ),
  otelBench(
    'OpenTelemetry off and on: drop-in streamText (2-tool loop)',
    scenarios.toolLoop,
    'Three steps (MockLanguageModelV4): a call of tool lookup, a call of tool convert, a 100-delta answer',
    1_000,
  ),
];
