import { defaultLogger, type Logger } from '../util/logger.js';
import type { Emitter } from './emitter.js';
import { type ToolMetrics, toolMetrics } from './metrics.js';
import { activeSpanEvent } from './otel/otel-api.js';
import { count } from './otel/otel-metrics.js';
import { type ToolEventMap, toolEvents } from './tool-events.js';
import type { TurnTrace } from './trace.js';

/**
 * What a circuit breaker tells of its transitions: a {@link ToolTelemetry} (a tool's breaker), or any object with
 * this one method (the stream guard's model breakers report to the guard's `onEvent`).
 */
export interface CircuitListener {
  circuitChanged(event: ToolEventMap['circuit_state']): void;
}

/** Where a transition is reported: a `ToolTelemetry`'s sinks. */
interface CircuitSinks {
  readonly events: Emitter<ToolEventMap>;
  readonly metrics: ToolMetrics;
  readonly trace?: TurnTrace | undefined;
  readonly logger: Logger;
}

/** Counts an opening in `circuit_breaker_opens`, logs the transition, traces it and emits `circuit_state`. */
export function reportCircuitChange(sinks: CircuitSinks, event: ToolEventMap['circuit_state']): void {
  if (event.to === 'open') {
    sinks.metrics.circuitOpened(event.toolName);
    count('breakerOpens', { 'graceful_ai.scope': 'tool', 'gen_ai.tool.name': event.toolName });
  }
  activeSpanEvent('graceful_ai.tool_breaker', {
    'gen_ai.tool.name': event.toolName,
    'graceful_ai.breaker.from': event.from,
    'graceful_ai.breaker.to': event.to,
  });
  sinks.logger.info(`Circuit of tool '${event.toolName}': ${event.from} → ${event.to}`);
  sinks.trace?.record({
    event_type: 'circuit_state',
    toolName: event.toolName,
    circuit_breaker_state: event.to,
    decision: event.to,
  });
  sinks.events.emit('circuit_state', event);
}

const processSinks: CircuitSinks = {
  events: toolEvents,
  metrics: toolMetrics,
  logger: defaultLogger,
};

/**
 * A breaker's listener when it is given none: the process-wide sinks, as the default `ToolTelemetry` reports to them.
 * Its own object so that a breaker does not bundle the rest of the tool telemetry (the stream guard's model breakers).
 */
export const processCircuitListener: CircuitListener = {
  circuitChanged: (event) => reportCircuitChange(processSinks, event),
};
