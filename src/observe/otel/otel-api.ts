/**
 * The OpenTelemetry API as the application registered it, read from its global registry instead of imported:
 * `@opentelemetry/api` stays an optional peer (no import, so no bundler or edge runtime ever resolves it), and
 * every copy of the API a project holds (its own, `@ai-sdk/otel`'s) shares that registry. The types are the few
 * members graceful-ai calls, written out so that no public type depends on the package.
 */
import { defaultLogger } from '../../util/logger.js';

/** An attribute value as OpenTelemetry accepts it. */
export type AttributeValue = string | number | boolean | string[];
export type Attributes = Record<string, AttributeValue | undefined>;

/** An OpenTelemetry `Context` (immutable; the active span is one of its values). */
export interface OtelContext {
  getValue(key: symbol): unknown;
  setValue(key: symbol, value: unknown): OtelContext;
  deleteValue(key: symbol): OtelContext;
}

export interface OtelSpan {
  setAttributes(attributes: Attributes): OtelSpan;
  addEvent(name: string, attributes?: Attributes): OtelSpan;
  /** 2 = ERROR. */
  setStatus(status: { code: number; message?: string }): OtelSpan;
  end(): void;
  isRecording(): boolean;
}

export interface Tracer {
  startSpan(
    name: string,
    options?: { attributes?: Attributes; kind?: number },
    context?: OtelContext,
  ): OtelSpan;
}

export interface OtelCounter {
  add(value: number, attributes?: Attributes): void;
}

export interface OtelHistogram {
  record(value: number, attributes?: Attributes): void;
}

export interface OtelMeter {
  createCounter(name: string, options?: { description?: string; unit?: string }): OtelCounter;
  createHistogram(
    name: string,
    options?: { description?: string; unit?: string; advice?: { explicitBucketBoundaries?: number[] } },
  ): OtelHistogram;
}

/** The registry `@opentelemetry/api` 1.x keeps on `globalThis`; a member is there once registered. */
interface Registry {
  trace?: { getTracer(name: string, version?: string): Tracer };
  context?: { active(): OtelContext; with<T>(context: OtelContext, fn: () => T): T };
  metrics?: { getMeter(name: string, version?: string): OtelMeter };
}

const registryKey = Symbol.for('opentelemetry.js.api.1');
/** The context key under which the API keeps the active span (`trace.setSpan`, `trace.getSpan`). */
const spanKey = Symbol.for('OpenTelemetry Context Key SPAN');

/** The instrumentation scope of every span and metric graceful-ai records. */
export const scopeName = 'graceful-ai';

const registry = (): Registry | undefined =>
  (globalThis as Record<symbol, Registry | undefined>)[registryKey];

/** The tracer, when a tracer provider is registered. */
export function otelTracer(): Tracer | undefined {
  const trace = registry()?.trace;
  return trace && quietly(() => trace.getTracer(scopeName));
}

/** The meter, when a meter provider is registered; resolved per use, so one registered later is found. */
export function otelMeter(): OtelMeter | undefined {
  const metrics = registry()?.metrics;
  return metrics && quietly(() => metrics.getMeter(scopeName));
}

/** The active context (`undefined` without a context manager, e.g. on an edge runtime without one registered). */
export function activeContext(): OtelContext | undefined {
  return registry()?.context?.active();
}

/** The span a context holds. */
export function spanIn(context: OtelContext | undefined): OtelSpan | undefined {
  return context?.getValue(spanKey) as OtelSpan | undefined;
}

/** `context` with `span` as its span; without a context, a minimal one holding only the span. */
export function contextWith(context: OtelContext | undefined, span: RecordedSpan): OtelContext {
  return (context ?? emptyContext).setValue(spanKey, span.raw);
}

/** Runs `fn` with `context` active (at once, without a context manager). */
export function runIn<T>(context: OtelContext, fn: () => T): T {
  const manager = registry()?.context;
  return manager ? manager.with(context, fn) : fn();
}

/** Adds an event to a span, when it records. */
export function spanEvent(span: OtelSpan | undefined, name: string, attributes: Attributes): void {
  quietly(() => {
    if (span?.isRecording()) span.addEvent(name, attributes);
  });
}

/** Adds an event to the active span, when one records. */
export function activeSpanEvent(name: string, attributes: Attributes): void {
  spanEvent(spanIn(activeContext()), name, attributes);
}

/**
 * Runs one call into the application's OpenTelemetry SDK. A throw there (a span processor's or a metric reader's bug:
 * the SDK passes them on) is logged and goes no further: telemetry never fails the call it describes.
 */
export function quietly<T>(record: () => T): T | undefined {
  try {
    return record();
  } catch (error) {
    defaultLogger.warn('graceful-ai: the OpenTelemetry SDK threw; the call goes on without this record', {
      error,
    });
    return undefined;
  }
}

/** A span graceful-ai records: each method {@link quietly}; `raw` goes into contexts, where other tracers read it. */
export interface RecordedSpan {
  readonly raw: OtelSpan;
  setAttributes(attributes: Attributes): void;
  addEvent(name: string, attributes?: Attributes): void;
  setStatus(status: { code: number; message?: string }): void;
  end(): void;
}

/** Starts a span under `parent` (none: a root); `undefined` when the SDK threw. */
export function startSpan(
  tracer: Tracer,
  name: string,
  attributes: Attributes,
  parent: OtelContext | undefined,
): RecordedSpan | undefined {
  const raw = quietly(() => tracer.startSpan(name, { attributes }, parent));
  return (
    raw && {
      raw,
      setAttributes: (values) => quietly(() => raw.setAttributes(values)),
      addEvent: (event, values) => quietly(() => raw.addEvent(event, values)),
      setStatus: (status) => quietly(() => raw.setStatus(status)),
      end: () => quietly(() => raw.end()),
    }
  );
}

/** A context of its own values, for runtimes where no context manager gives one. */
class MapContext implements OtelContext {
  constructor(private readonly values: ReadonlyMap<symbol, unknown>) {}
  getValue(key: symbol): unknown {
    return this.values.get(key);
  }
  setValue(key: symbol, value: unknown): OtelContext {
    return new MapContext(new Map(this.values).set(key, value));
  }
  deleteValue(key: symbol): OtelContext {
    const values = new Map(this.values);
    values.delete(key);
    return new MapContext(values);
  }
}

const emptyContext: OtelContext = new MapContext(new Map());

/** ERROR, in `setStatus`. */
export const statusError = 2;
