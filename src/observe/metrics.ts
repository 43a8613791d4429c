import type { Classification } from '../classify/types.js';

/** Counters for one tool, as `getToolMetrics()` reports them. */
export interface ToolMetricsSnapshot {
  /** Failed attempts that ran the tool (transient + permanent + others). */
  error_count: number;
  transient_error_count: number;
  permanent_error_count: number;
  /** Automatic retries scheduled. */
  retry_count: number;
  /** Of the calls that were retried at least once, the fraction that finally succeeded (0 when none). */
  retry_success_rate: number;
  /** Times the breaker went to OPEN. */
  circuit_breaker_opens: number;
  /** Attempts cut off by the per-tool timeout. */
  timeout_count: number;
}

interface Counters {
  errors: number;
  transient: number;
  permanent: number;
  retries: number;
  retriedCalls: number;
  retriedSuccesses: number;
  opens: number;
  timeouts: number;
}

const zero = (): Counters => ({
  errors: 0,
  transient: 0,
  permanent: 0,
  retries: 0,
  retriedCalls: 0,
  retriedSuccesses: 0,
  opens: 0,
  timeouts: 0,
});

/** Per-tool counters. One process-wide instance backs `getToolMetrics()`; pass your own to isolate. */
export class ToolMetrics {
  readonly #byTool = new Map<string, Counters>();

  #counters(tool: string): Counters {
    let counters = this.#byTool.get(tool);
    if (!counters) {
      counters = zero();
      this.#byTool.set(tool, counters);
    }
    return counters;
  }

  /** An attempt that ran the tool failed. */
  attemptFailed(tool: string, classification: Classification): void {
    const c = this.#counters(tool);
    c.errors++;
    if (classification.kind === 'transient') c.transient++;
    else if (classification.kind === 'permanent') c.permanent++;
  }

  /** An automatic retry was scheduled. */
  retried(tool: string): void {
    this.#counters(tool).retries++;
  }

  /** A call finished; `retried` says whether it had at least one automatic retry. */
  callSettled(tool: string, retried: boolean, ok: boolean): void {
    if (!retried) return;
    const c = this.#counters(tool);
    c.retriedCalls++;
    if (ok) c.retriedSuccesses++;
  }

  /** A breaker went to OPEN. */
  circuitOpened(tool: string): void {
    this.#counters(tool).opens++;
  }

  /** An attempt hit its per-tool timeout. */
  timedOut(tool: string): void {
    this.#counters(tool).timeouts++;
  }

  /** A snapshot per tool name. */
  snapshot(): Record<string, ToolMetricsSnapshot> {
    const out: Record<string, ToolMetricsSnapshot> = {};
    for (const [tool, c] of this.#byTool) {
      out[tool] = {
        error_count: c.errors,
        transient_error_count: c.transient,
        permanent_error_count: c.permanent,
        retry_count: c.retries,
        retry_success_rate: c.retriedCalls === 0 ? 0 : c.retriedSuccesses / c.retriedCalls,
        circuit_breaker_opens: c.opens,
        timeout_count: c.timeouts,
      };
    }
    return out;
  }

  /** Forgets every counter. */
  reset(): void {
    this.#byTool.clear();
  }
}

/** The process-wide metrics every policy records into unless given its own. */
export const toolMetrics = new ToolMetrics();

/** Counters per tool name since the process started (or the last `resetToolMetrics()`). */
export function getToolMetrics(): Record<string, ToolMetricsSnapshot> {
  return toolMetrics.snapshot();
}

/** Clears the process-wide counters (tests, or a periodic export). */
export function resetToolMetrics(): void {
  toolMetrics.reset();
}
