/**
 * `program.ts`'s scenarios with OpenTelemetry set up as an application in that runtime sets it up: the OpenTelemetry
 * SDK's tracer provider registered globally (in-memory exporter), `@ai-sdk/otel`'s `OpenTelemetry` integration
 * registered with `registerTelemetry`, and a context manager only when the caller gives one (none is the default on
 * an edge runtime and in a Worker). Bundled whole by `bundle.ts`, like `program.ts`. Each scenario returns the spans
 * it started, as plain JSON.
 */
import { OpenTelemetry } from '@ai-sdk/otel';
import { type ContextManager, context, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type Span,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { registerTelemetry } from 'ai';
import { runtimeFacts, withConsoleRecorded } from './console-record.js';
import { CUTS, type ProgramResult, type ScenarioResult, scenario } from './program.js';

/** A span as the program reports it (start order). */
export interface SpanRecord {
  name: string;
  spanId: string;
  parentSpanId: string | undefined;
  traceId: string;
  ended: boolean;
  /** 0 unset, 1 ok, 2 error. */
  status: number;
  /** graceful-ai's own attributes (`graceful_ai.*`, `error.type`), on graceful-ai's spans. */
  attributes: Record<string, unknown>;
}

export interface OtelProgramResult extends ProgramResult {
  /** Whether a context manager was registered. */
  contextManager: boolean;
  /** Per scenario, every span started while it ran. */
  spans: SpanRecord[][];
}

/** Records every span as it starts (the exporter sees them as they end, and a runtime's clock may not move). */
class StartedSpans implements SpanProcessor {
  started: Span[] = [];
  onStart(span: Span): void {
    this.started.push(span);
  }
  onEnd(): void {}
  async forceFlush(): Promise<void> {}
  async shutdown(): Promise<void> {}
}

const ownAttribute = (key: string) => key.startsWith('graceful_ai.') || key === 'error.type';

function recordOf(span: Span): SpanRecord {
  const own = span.name.startsWith('graceful-ai.');
  return {
    name: span.name,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    traceId: span.spanContext().traceId,
    ended: span.ended,
    status: span.status.code,
    attributes: own
      ? Object.fromEntries(Object.entries(span.attributes).filter(([key]) => ownAttribute(key)))
      : {},
  };
}

/** Registers OpenTelemetry (and `contextManager`, when given), then runs `program.ts`'s scenarios. */
export async function runWithOtel(contextManager?: ContextManager): Promise<OtelProgramResult> {
  const started = new StartedSpans();
  const provider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(new InMemorySpanExporter()), started],
  });
  trace.setGlobalTracerProvider(provider);
  if (contextManager) context.setGlobalContextManager(contextManager.enable());
  registerTelemetry(new OpenTelemetry());

  const spans: SpanRecord[][] = [];
  const { value: scenarios, console: calls } = await withConsoleRecorded(async () => {
    const results: ScenarioResult[] = [];
    for (const cut of CUTS) {
      started.started = [];
      results.push(await scenario(cut));
      spans.push(started.started.map(recordOf));
    }
    return results;
  });
  return {
    runtime: runtimeFacts(),
    scenarios,
    console: calls,
    contextManager: contextManager !== undefined,
    spans,
  };
}

/** No context manager: the default on an edge runtime and in a Worker. */
export function run(): Promise<OtelProgramResult> {
  return runWithOtel();
}
