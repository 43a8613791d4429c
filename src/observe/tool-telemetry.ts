import type { Classification } from '../classify/types.js';
import { errorText } from '../util/error-text.js';
import type { Emitter } from './emitter.js';
import { defaultLogger, type Logger } from './logger.js';
import { type ToolMetrics, toolMetrics } from './metrics.js';
import { type CircuitState, type FailureDecision, type ToolEventMap, toolEvents } from './tool-events.js';
import type { TurnTrace } from './trace.js';

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
export class ToolTelemetry {
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
    return new ToolTelemetry({ events: this.events, metrics: this.metrics, trace, logger: this.logger });
  }

  /** A transient failure will be retried: counts it, logs the warn line, traces `retry`, emits `tool_retry`. */
  retrying(event: ToolEventMap['tool_retry'] & { circuitState?: CircuitState }): void {
    const { circuitState, ...input } = event;
    const payload = input;
    this.metrics.attemptFailed(payload.toolName, payload.classification);
    this.metrics.retried(payload.toolName);
    this.logger.warn(
      `Tool '${payload.toolName}' failed (attempt ${payload.attempt}/${payload.maxRetries + 1}), retrying in ` +
        `${(payload.delayMs / 1000).toFixed(1)}s: ${errorText(payload.error)}`,
      { classification: payload.classification },
    );
    this.trace?.record({
      event_type: 'tool_retry',
      toolName: payload.toolName,
      error: payload.error,
      classification: payload.classification,
      circuit_breaker_state: circuitState,
      retry_count: payload.attempt - 1,
      decision: 'retry',
    });
    this.events.emit('tool_retry', payload);
  }

  /** A call gave up. `ranTool` is false when it was rejected before running (breaker open, deadline). */
  failed(event: ToolEventMap['tool_failed'] & { ranTool: boolean; circuitState?: CircuitState }): void {
    const { ranTool, circuitState, ...input } = event;
    const payload = input;
    if (ranTool) this.metrics.attemptFailed(payload.toolName, payload.classification);
    this.metrics.callSettled(payload.toolName, payload.attempts > 1, false);
    this.trace?.record({
      event_type: 'tool_failed',
      toolName: payload.toolName,
      error: payload.error,
      classification: payload.classification,
      circuit_breaker_state: circuitState,
      retry_count: Math.max(0, payload.attempts - 1),
      decision: `give_up:${payload.decision satisfies FailureDecision}`,
    });
    this.events.emit('tool_failed', payload);
  }

  /** A call succeeded (after `attempts` attempts). */
  succeeded(event: ToolEventMap['tool_succeeded'] & { circuitState?: CircuitState }): void {
    const { circuitState, ...input } = event;
    const payload = input;
    this.metrics.callSettled(payload.toolName, payload.attempts > 1, true);
    this.trace?.record({
      event_type: 'tool_succeeded',
      toolName: payload.toolName,
      circuit_breaker_state: circuitState,
      retry_count: payload.attempts - 1,
      decision: 'ok',
    });
    this.events.emit('tool_succeeded', payload);
  }

  /** An attempt ran past its per-tool timeout and was abandoned. */
  timedOut(input: ToolEventMap['tool_timeout']): void {
    const event = input;
    this.metrics.timedOut(event.toolName);
    this.trace?.record({
      event_type: 'tool_timeout',
      toolName: event.toolName,
      retry_count: event.attempt - 1,
      decision: 'abandon',
    });
    this.events.emit('tool_timeout', event);
  }

  /** A breaker changed state (an opening counts in `circuit_breaker_opens`). */
  circuitChanged(input: ToolEventMap['circuit_state']): void {
    const event = input;
    if (event.to === 'open') this.metrics.circuitOpened(event.toolName);
    this.logger.info(`Circuit of tool '${event.toolName}': ${event.from} → ${event.to}`);
    this.trace?.record({
      event_type: 'circuit_state',
      toolName: event.toolName,
      circuit_breaker_state: event.to,
      decision: event.to,
    });
    this.events.emit('circuit_state', event);
  }

  /** A failed tool was answered by its fallback. */
  fallbackUsed(event: ToolEventMap['fallback_used'] & { classification?: Classification }): void {
    const { classification, ...input } = event;
    const payload = input;
    this.trace?.record({
      event_type: 'fallback_used',
      toolName: payload.toolName,
      error: payload.error,
      classification,
      decision: `fallback:${payload.fallback}`,
    });
    this.events.emit('fallback_used', payload);
  }

  /** A step of a tool plan settled. */
  planStep(input: ToolEventMap['plan_step']): void {
    const event = input;
    this.trace?.record({
      event_type: 'plan_step',
      toolName: event.toolName,
      error: event.error,
      decision: `${event.step}:${event.outcome}:${event.decision}`,
    });
    this.events.emit('plan_step', event);
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
}

/** The telemetry every policy uses unless given its own: process-wide events and metrics, no trace. */
export const defaultTelemetry = new ToolTelemetry();
