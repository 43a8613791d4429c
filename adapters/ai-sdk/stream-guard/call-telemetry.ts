/**
 * A guarded call's OpenTelemetry spans and metrics (`GuardTelemetry`), fed by the guard's own events: the AI SDK's
 * `telemetry` option, as the drop-ins read it, decides whether the call is traced.
 */
import { GuardTelemetry } from '../../../src/observe/otel/guard-telemetry.js';
import type { Resolved, StreamGuardEvent, StreamGuardEventMap } from './options.js';

/** The telemetry of a call starting now (in the context it starts in), or `undefined` when nothing is recorded. */
export function callTelemetry(options: Resolved): GuardTelemetry | undefined {
  return GuardTelemetry.forCall(options.telemetry, () => options.clock.now());
}

/** What a guard event means for the call's spans and metrics. */
export function observeGuardEvent<K extends keyof StreamGuardEventMap>(
  telemetry: GuardTelemetry,
  type: K,
  payload: StreamGuardEventMap[K],
): void {
  const event = { type, ...payload } as StreamGuardEvent;
  switch (event.type) {
    case 'stream_retry':
      telemetry.retrying(event.delayMs, event.attempt.model);
      break;
    case 'stream_degraded':
      telemetry.recovering(event.attempt.model);
      break;
    case 'stream_failover':
      telemetry.failedOver(event.from, event.to);
      break;
    case 'stream_failed':
      telemetry.failed();
      break;
    case 'tool_history_repaired':
      telemetry.historyRepaired(event.repair.interrupted.length, event.repair.dropped.length);
      break;
  }
}
