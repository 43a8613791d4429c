/**
 * `graceful-ai/observe`: what the resilience layer reports — typed events, metrics, the bounded decision trace and
 * the logger interface. The main entry re-exports what an agent author uses day to day. See docs/resilience.md.
 */

export { defaultLogger, type Logger } from '../util/logger.js';
export type { CircuitListener } from './circuit-changes.js';
export { Emitter, type EventMap, type EventOf, type EventSink, type Listener } from './emitter.js';
export { getToolMetrics, resetToolMetrics, ToolMetrics, type ToolMetricsSnapshot } from './metrics.js';
export {
  type CircuitState,
  type FailureDecision,
  onToolEvent,
  type ToolEvent,
  type ToolEventMap,
  type ToolNamed,
  toolEvents,
} from './tool-events.js';
export { ToolTelemetry, type ToolTelemetryOptions } from './tool-telemetry.js';
export { type TraceEntry, TurnTrace, type TurnTraceOptions } from './trace.js';
