/**
 * The spans of one tool call's attempts (`graceful-ai.tool.attempt`): what each attempt decided, why and how long
 * the retry after it waited. They nest under the span active when the call started — the AI SDK's tool span
 * (`execute_tool {tool}`, or `ai.toolCall` with `LegacyOpenTelemetry`) when the SDK records telemetry — and are only
 * recorded there: with no span recording, a tool call records none (the SDK's telemetry off, or no tracer).
 */
import {
  activeContext,
  contextWith,
  type OtelContext,
  otelTracer,
  type RecordedSpan,
  runIn,
  spanIn,
  startSpan,
  statusError,
  type Tracer,
} from './otel-api.js';

export const toolAttemptSpanName = 'graceful-ai.tool.attempt';

/** How an attempt ended: `ok`, `retry`, or the reason the call gave up (`give_up:<decision>`). */
export interface ToolAttemptEnd {
  decision: string;
  error?: unknown;
  classification?: { kind: string; reason: string };
  /** The wait before the next attempt, for `retry`. */
  delayMs?: number;
}

export class ToolAttemptSpans {
  readonly #tracer: Tracer;
  readonly #parent: OtelContext;
  readonly #tool: string;
  #open: RecordedSpan | undefined;

  /** The spans of a tool call starting now, or `undefined` when no span records here. */
  static forCall(tool: string): ToolAttemptSpans | undefined {
    const parent = activeContext();
    if (parent === undefined || spanIn(parent)?.isRecording() !== true) return undefined;
    const tracer = otelTracer();
    return tracer && new ToolAttemptSpans(tracer, parent, tool);
  }

  private constructor(tracer: Tracer, parent: OtelContext, tool: string) {
    this.#tracer = tracer;
    this.#parent = parent;
    this.#tool = tool;
  }

  /** Runs attempt `n` in its own span (so what the tool traces nests under it). */
  run<T>(n: number, fn: () => T): T {
    const attributes = { 'gen_ai.tool.name': this.#tool, 'graceful_ai.attempt.number': n };
    const span = startSpan(this.#tracer, toolAttemptSpanName, attributes, this.#parent);
    if (span === undefined) return fn();
    this.#open = span;
    return runIn(contextWith(this.#parent, span), fn);
  }

  /** Ends the open attempt's span (none open: the call ended before its attempt ran, e.g. an open breaker). */
  end({ decision, error, classification, delayMs }: ToolAttemptEnd): void {
    const span = this.#open;
    if (span === undefined) return;
    this.#open = undefined;
    span.setAttributes({
      'graceful_ai.tool.decision': decision,
      'graceful_ai.error.kind': classification?.kind,
      'graceful_ai.error.reason': classification?.reason,
      'graceful_ai.retry.delay_ms': delayMs,
    });
    if (error !== undefined) {
      span.setAttributes({ 'error.type': error instanceof Error ? error.name : '_OTHER' });
      span.setStatus({ code: statusError, message: classification?.reason });
    }
    span.end();
  }
}
