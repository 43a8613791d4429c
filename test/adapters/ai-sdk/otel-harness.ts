/**
 * The OpenTelemetry SDK as an application registers it (tracer provider, AsyncLocalStorage context manager, meter
 * provider, `@ai-sdk/otel`'s integration), with in-memory exporters, for tests that read graceful-ai's spans in the
 * AI SDK's trace.
 */
import { LegacyOpenTelemetry, OpenTelemetry } from '@ai-sdk/otel';
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
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { registerTelemetry } from 'ai';
import { spanTree } from './span-tree.js';

export interface OtelHarness {
  spans(): ReadableSpan[];
  /** The finished spans as an indented tree of names (children in start order). */
  tree(): string;
  /** The span named `name` (the first one, or the one whose attributes match). */
  span(name: string, attributes?: Record<string, unknown>): ReadableSpan;
  /** The name of a span's parent, or `(root)`. */
  parentName(span: ReadableSpan): string;
  /** The data points of a metric: their attributes and value. */
  metric(name: string): Promise<{ attributes: Record<string, unknown>; value: unknown }[]>;
  reset(): void;
  uninstall(): void;
}

/** Installs the SDK globally; `integration: 'none'` registers no AI SDK integration (its telemetry is then off). */
export function installOtel({
  integration = 'otel',
  contextManager = true,
}: {
  integration?: 'otel' | 'legacy' | 'none';
  contextManager?: boolean;
} = {}): OtelHarness {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  const manager = contextManager ? new AsyncLocalStorageContextManager().enable() : undefined;
  if (manager) context.setGlobalContextManager(manager);
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({
    exporter: metricExporter,
    exportIntervalMillis: 3_600_000,
  });
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  if (integration === 'otel') registerTelemetry(new OpenTelemetry());
  if (integration === 'legacy') registerTelemetry(new LegacyOpenTelemetry());

  const spans = () => exporter.getFinishedSpans();
  const byId = () => new Map(spans().map((s) => [s.spanContext().spanId, s]));
  const parentName = (span: ReadableSpan) =>
    byId().get(span.parentSpanContext?.spanId ?? '')?.name ?? '(root)';
  return {
    spans,
    parentName,
    tree() {
      const all = [...spans()].sort((a, b) => compareTime(a.startTime, b.startTime));
      return spanTree(
        all.map((s) => ({
          name: s.name,
          spanId: s.spanContext().spanId,
          parentSpanId: s.parentSpanContext?.spanId,
        })),
      );
    },
    span(name, attributes = {}) {
      const found = spans().find(
        (s) => s.name === name && Object.entries(attributes).every(([k, v]) => s.attributes[k] === v),
      );
      if (found === undefined)
        throw new Error(`no span ${name} ${JSON.stringify(attributes)} in:\n${this.tree()}`);
      return found;
    },
    async metric(name) {
      await reader.forceFlush();
      const points: { attributes: Record<string, unknown>; value: unknown }[] = [];
      for (const batch of metricExporter.getMetrics())
        for (const scope of batch.scopeMetrics)
          for (const m of scope.metrics)
            if (m.descriptor.name === name)
              for (const p of m.dataPoints) points.push({ attributes: { ...p.attributes }, value: p.value });
      metricExporter.reset();
      return points;
    },
    reset() {
      exporter.reset();
    },
    uninstall() {
      trace.disable();
      context.disable();
      metrics.disable();
      (globalThis as { AI_SDK_TELEMETRY_INTEGRATIONS?: unknown }).AI_SDK_TELEMETRY_INTEGRATIONS = undefined;
    },
  };
}

const app = trace.getTracer('app');

/** Runs `fn` in an active `app.request` span, as an application handling a request would. */
export const inApp = <T>(fn: () => PromiseLike<T>): Promise<T> =>
  app.startActiveSpan('app.request', async (span) => {
    try {
      return await fn();
    } finally {
      span.end();
    }
  });

const compareTime = (a: [number, number], b: [number, number]) => a[0] - b[0] || a[1] - b[1];

/**
 * The tree (as `OtelHarness.tree()` prints it) of one recovered call under `@ai-sdk/otel`'s `OpenTelemetry`:
 * the SDK's agent, step and model-call spans, the failed attempt and the recovery with its attempt; `depth` indents it
 * under a parent of the test's own.
 */
export function recoveredCallTree(modelId: string, depth = 0): string[] {
  return [
    `invoke_agent ${modelId}`,
    '  step 1',
    `    chat ${modelId}`,
    '      graceful-ai.attempt',
    '      graceful-ai.recovery',
    '        graceful-ai.attempt',
  ].map((line) => `${'  '.repeat(depth)}${line}`);
}
