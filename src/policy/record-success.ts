import type { CircuitState } from '../observe/tool-events.js';
import type { ToolTelemetry } from '../observe/tool-telemetry.js';
import type { BreakerPermit, CircuitBreaker } from './circuit-breaker.js';

/** Runs `fn` once the current callbacks are done (after the caller's continuation), where the runtime allows. */
const afterCaller: (fn: () => void) => void = globalThis.setImmediate ?? ((fn) => setTimeout(fn, 0));

/**
 * Records a successful attempt; returns the breaker state to report with it. With an asynchronous store (a shared
 * one: a round trip each time, and on loopback the socket write alone takes ~0.1 ms after an idle spell) the success
 * of a call admitted while CLOSED is recorded just the same, but once the caller has its result: the call succeeded
 * whatever the record finds, and a write the record needs is a compare-and-set, never overwriting a newer state.
 * The state reported is then the one that admitted the call. A trial's success, which closes the circuit, is
 * always awaited.
 */
export function recordSuccess(
  breaker: CircuitBreaker,
  permit: BreakerPermit,
  asyncStore: boolean,
  telemetry: ToolTelemetry,
): CircuitState | Promise<CircuitState> {
  if (permit.trial || !asyncStore) return breaker.record(permit, 'success', telemetry);
  afterCaller(() => {
    breaker
      .record(permit, 'success', telemetry)
      .catch((error: unknown) =>
        telemetry.logger.warn(
          `graceful-ai: could not record a success of tool '${breaker.name}' in its circuit breaker; its failure count was not reset`,
          { error },
        ),
      );
  });
  return 'closed';
}
