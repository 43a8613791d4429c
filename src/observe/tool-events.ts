import type { Classification } from '../classify/types.js';
import { Emitter, type Listener } from './emitter.js';

/** The state of a tool's circuit breaker. */
export type CircuitState = 'closed' | 'open' | 'half_open';

/** Why a call stopped without a result. */
export type FailureDecision =
  /** The error is not transient (permanent, overflow): retrying cannot help. */
  | 'permanent'
  /** The last allowed attempt failed. */
  | 'exhausted'
  /** The next attempt would start after `maxTotalTimeMs`. */
  | 'budget'
  /** The server's retry-after hint is longer than what remains of the budget. */
  | 'retry_after'
  /** The circuit breaker is open (or this failure opened it). */
  | 'circuit_open'
  /** The caller aborted. */
  | 'abort';

/** Every event the resilience layer emits, by type. */
export type ToolEventMap = {
  /** A transient failure will be retried after `delayMs`. */
  tool_retry: {
    tool: string;
    attempt: number;
    maxAttempts: number;
    delayMs: number;
    error: unknown;
    classification: Classification;
  };
  /** A call gave up; `error` is what its caller receives. */
  tool_failed: {
    tool: string;
    attempts: number;
    error: unknown;
    classification: Classification;
    decision: FailureDecision;
  };
  /** A call succeeded after `attempts` attempts. */
  tool_succeeded: { tool: string; attempts: number };
  /** An attempt ran past its per-tool timeout and was abandoned. */
  tool_timeout: { tool: string; attempt: number; timeoutMs: number };
  /** A breaker changed state. */
  circuit_state: { tool: string; from: CircuitState; to: CircuitState };
  /** A turn's deadline passed; lists the tool calls by outcome (`<tool>#<callId>`). */
  turn_deadline: { timeoutMs: number; completed: string[]; timedOut: string[]; skipped: string[] };
  /** A failed tool was answered by its fallback. */
  fallback_used: { tool: string; fallback: string; error: unknown };
  /** A step of a tool plan settled. */
  plan_step: { step: string; tool: string; outcome: string; decision: string; error?: unknown };
};

/** One event as listeners receive it. */
export type ToolEvent = Parameters<Listener<ToolEventMap>>[0];

/** The process-wide stream of resilience events (the default sink of every policy). */
export const toolEvents = new Emitter<ToolEventMap>();

/**
 * Subscribes to every resilience event of the process (`tool_retry`, `tool_failed`, `circuit_state`, …).
 * Returns the function that unsubscribes. A listener that throws is logged and ignored.
 */
export function onToolEvent(listener: (event: ToolEvent) => void): () => void {
  return toolEvents.subscribe(listener);
}
