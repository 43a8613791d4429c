import type { Classification } from '../classify/types.js';
import { errorText } from '../util/error-text.js';
import { defaultLogger, type Logger } from '../util/logger.js';
import { type CircuitListener, reportCircuitChange } from './circuit-changes.js';
import type { Emitter } from './emitter.js';
import { type ToolMetrics, toolMetrics } from './metrics.js';
import { count } from './otel/otel-metrics.js';
import { type CircuitState, type FailureDecision, type ToolEventMap, toolEvents } from './tool-events.js';
import type { TurnTrace } from './trace.js';

type TraceRecord = Parameters<TurnTrace['record']>[0];

/** Where the resilience layer reports: events, metrics, an optional turn trace and the logger. */
export interface ToolTelemetryOptions {
  /** Default: the process-wide `toolEvents`. */
  events?: Emitter<ToolEventMap>;
  /** Default: the process-wide metrics behind `getToolMetrics()`. */
  metrics?: ToolMetrics;
  /** A turn trace to record decisions into (default: none). */
  trace?: TurnTrace;
  /** Default: `util.debuglog('graceful-ai')`. */
  logger?: Logger;
}

/**
 * One entry point per decision: each call updates the metrics, appends to the trace, emits the typed event and
 * logs, so the policies never keep these four in step themselves.
 */
export class ToolTelemetry implements CircuitListener {
  readonly events: Emitter<ToolEventMap>;
  readonly metrics: ToolMetrics;
  readonly trace: TurnTrace | undefined;
  readonly logger: Logger;

  constructor(options: ToolTelemetryOptions = {}) {
    this.events = options.events ?? toolEvents;
    this.metrics = options.metrics ?? toolMetrics;
    this.trace = options.trace;
    this.logger = options.logger ?? defaultLogger;
  }

  /** The same sinks with another trace (one per turn). */
  withTrace(trace: TurnTrace | undefined): ToolTelemetry {
    return new ToolTelemetry({ ...this, trace });
  }

  /** A transient failure will be retried: counts it, logs the warn line, traces `retry`, emits `tool_retry`. */
  retrying({ circuitState, ...event }: ToolEventMap['tool_retry'] & { circuitState?: CircuitState }): void {
    this.metrics.attemptFailed(event.toolName, event.classification);
    this.metrics.retried(event.toolName);
    count('retries', { 'graceful_ai.scope': 'tool', 'gen_ai.tool.name': event.toolName });
    this.logger.warn(
      `Tool '${event.toolName}' failed (attempt ${event.attempt}/${event.maxRetries + 1}), retrying in ` +
        `${(event.delayMs / 1000).toFixed(1)}s: ${errorText(event.error)}`,
      { classification: event.classification },
    );
    this.#report('tool_retry', event, {
      error: event.error,
      classification: event.classification,
      circuit_breaker_state: circuitState,
      retry_count: event.attempt - 1,
      decision: 'retry',
    });
  }

  /** A call gave up. `ranTool` is false when it was rejected before running (breaker open, deadline). */
  failed({
    ranTool,
    circuitState,
    ...event
  }: ToolEventMap['tool_failed'] & { ranTool: boolean; circuitState?: CircuitState }): void {
    if (ranTool) this.metrics.attemptFailed(event.toolName, event.classification);
    this.metrics.callSettled(event.toolName, event.attempts > 1, false);
    this.#report('tool_failed', event, {
      error: event.error,
      classification: event.classification,
      circuit_breaker_state: circuitState,
      retry_count: Math.max(0, event.attempts - 1),
      decision: `give_up:${event.decision satisfies FailureDecision}`,
    });
  }

  /** A call succeeded (after `attempts` attempts). */
  succeeded({
    circuitState,
    ...event
  }: ToolEventMap['tool_succeeded'] & { circuitState?: CircuitState }): void {
    this.metrics.callSettled(event.toolName, event.attempts > 1, true);
    this.#report('tool_succeeded', event, {
      circuit_breaker_state: circuitState,
      retry_count: event.attempts - 1,
      decision: 'ok',
    });
  }

  /** An attempt ran past its per-tool timeout and was abandoned. */
  timedOut(event: ToolEventMap['tool_timeout']): void {
    this.metrics.timedOut(event.toolName);
    this.#report('tool_timeout', event, { retry_count: event.attempt - 1, decision: 'abandon' });
  }

  /** A breaker changed state (an opening counts in `circuit_breaker_opens`). */
  circuitChanged(event: ToolEventMap['circuit_state']): void {
    reportCircuitChange(this, event);
  }

  /** A failed tool was answered by its fallback. */
  fallbackUsed({
    classification,
    ...event
  }: ToolEventMap['fallback_used'] & { classification?: Classification }): void {
    this.#report('fallback_used', event, {
      error: event.error,
      classification,
      decision: `fallback:${event.fallback}`,
    });
  }

  /** A step of a tool plan settled. */
  planStep(event: ToolEventMap['plan_step']): void {
    this.#report('plan_step', event, {
      error: event.error,
      decision: `${event.step}:${event.outcome}:${event.decision}`,
    });
  }

  /** A turn's deadline passed: logs, traces each abandoned or skipped call, emits `turn_deadline`. */
  turnDeadline(event: ToolEventMap['turn_deadline']): void {
    this.logger.warn(
      `Turn deadline of ${event.timeoutMs} ms passed: ${event.timedOut.length} tool call(s) abandoned, ` +
        `${event.skipped.length} skipped`,
    );
    for (const id of event.timedOut)
      this.trace?.record({ event_type: 'turn_deadline', toolName: id, decision: 'abandon' });
    for (const id of event.skipped)
      this.trace?.record({ event_type: 'turn_deadline', toolName: id, decision: 'skip' });
    this.events.emit('turn_deadline', event);
  }

  /** The last two steps of a decision about one tool: its trace entry (when tracing), then its event. */
  #report<K extends Exclude<keyof ToolEventMap, 'turn_deadline'>>(
    type: K,
    event: ToolEventMap[K],
    entry: Omit<TraceRecord, 'event_type' | 'toolName'>,
  ): void {
    this.trace?.record({ event_type: type, toolName: event.toolName, ...entry });
    this.events.emit(type, event);
  }
}

/** The telemetry every policy uses unless given its own: process-wide events and metrics, no trace. */
export const defaultTelemetry = new ToolTelemetry();
