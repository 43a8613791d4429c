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
  /** The server's retry-after hint is longer than `maxRetryAfterMs` or than what remains of the budget. */
  | 'retry_after'
  /** The circuit breaker is open (or this failure opened it). */
  | 'circuit_open'
  /**
   * A retry was due (a transient error, retries and budget left) but running the call again is not known to be
   * safe: it is not declared idempotent and the error does not prove it never took effect (`provesNotExecuted`).
   * The error goes to the caller at once (for a tool: to the model, which may call the tool again itself).
   */
  | 'not_idempotent'
  /** The caller aborted. */
  | 'abort';

/** The tool a resilience event is about. */
export interface ToolNamed {
  toolName: string;
}

/** Every event the resilience layer emits, by type. */
export type ToolEventMap = {
  /** Attempt `attempt` failed with a transient error; retry number `attempt` follows after `delayMs`. */
  tool_retry: ToolNamed & {
    attempt: number;
    /** The tool's `autoRetry.maxRetries`. */
    maxRetries: number;
    delayMs: number;
    error: unknown;
    classification: Classification;
  };
  /** A call gave up after `attempts` attempts; `error` is what its caller receives. */
  tool_failed: ToolNamed & {
    attempts: number;
    error: unknown;
    classification: Classification;
    decision: FailureDecision;
  };
  /** A call succeeded after `attempts` attempts. */
  tool_succeeded: ToolNamed & { attempts: number };
  /** Attempt `attempt` ran past its per-tool timeout and was abandoned. */
  tool_timeout: ToolNamed & { attempt: number; timeoutMs: number };
  /** A breaker changed state. */
  circuit_state: ToolNamed & { from: CircuitState; to: CircuitState };
  /** A turn's deadline passed; lists the tool calls by outcome (`<tool>#<callId>`). */
  turn_deadline: { timeoutMs: number; completed: string[]; timedOut: string[]; skipped: string[] };
  /** A failed tool was answered by its fallback tool `fallback`. */
  fallback_used: ToolNamed & { fallback: string; error: unknown };
  /** A step of a tool plan settled (`toolName` is the step's tool). */
  plan_step: ToolNamed & { step: string; outcome: string; decision: string; error?: unknown };
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
