import type { Classification } from '../classify/types.js';
import { errorText } from '../util/error-text.js';
import { type Clock, systemClock } from '../util/time.js';
import { checkClock, checkSize } from '../util/validate.js';
import type { CircuitState } from './tool-events.js';

/** One decision of the resilience layer, JSON-serialisable. */
export interface TraceEntry {
  event_type: string;
  /** The tool the decision is about (for a turn deadline: `<tool>#<toolCallId>`). */
  toolName: string;
  /** The error's text (`name: message`), or null. */
  error: string | null;
  classification: Classification | null;
  circuit_breaker_state: CircuitState | null;
  /** Retries made before this decision (0 on a first attempt). */
  retry_count: number;
  /** What was decided, e.g. `retry`, `give_up:exhausted`, `open`, `fallback:<name>`, `<step>:<outcome>:<decision>`. */
  decision: string;
  /** Clock time in ms. */
  timestamp: number;
}

/** How many decisions a {@link TurnTrace} keeps by default. */
export const defaultTraceEntries = 500;

/** Options of {@link TurnTrace}. */
export interface TurnTraceOptions {
  /**
   * Entries kept; the oldest are dropped past it.
   * @default 500
   */
  maxEntries?: number;
  /** Default: the system clock. */
  clock?: Clock;
}

function traceError(error: unknown): string | null {
  if (error === undefined || error === null) return null;
  const text = errorText(error);
  return (error instanceof Error && text !== error.name ? `${error.name}: ${text}` : text).slice(0, 1000);
}

/**
 * The decisions taken during one turn (or any scope you choose), bounded in memory: past `maxEntries` the oldest
 * are dropped and counted in `dropped`. `JSON.stringify(trace)` gives `{ entries, dropped }`.
 */
export class TurnTrace {
  readonly #entries: TraceEntry[] = [];
  readonly #max: number;
  readonly #clock: Clock;
  #dropped = 0;

  constructor(options: TurnTraceOptions = {}) {
    checkSize('maxEntries', options.maxEntries);
    checkClock('clock', options.clock);
    this.#max = options.maxEntries ?? defaultTraceEntries;
    this.#clock = options.clock ?? systemClock;
  }

  /** Appends one decision (stamped with the clock), dropping the oldest past `maxEntries`. */
  record(entry: {
    event_type: string;
    toolName: string;
    decision: string;
    error?: unknown;
    classification?: Classification;
    circuit_breaker_state?: CircuitState;
    retry_count?: number;
  }): void {
    this.#entries.push({
      event_type: entry.event_type,
      toolName: entry.toolName,
      error: traceError(entry.error),
      classification: entry.classification ? { ...entry.classification } : null,
      circuit_breaker_state: entry.circuit_breaker_state ?? null,
      retry_count: entry.retry_count ?? 0,
      decision: entry.decision,
      timestamp: this.#clock.now(),
    });
    if (this.#entries.length > this.#max) {
      this.#entries.shift();
      this.#dropped++;
    }
  }

  /** The kept entries, oldest first. */
  get entries(): readonly TraceEntry[] {
    return this.#entries;
  }

  /** How many entries were dropped to stay within `maxEntries`. */
  get dropped(): number {
    return this.#dropped;
  }

  toJSON(): { entries: TraceEntry[]; dropped: number } {
    return { entries: [...this.#entries], dropped: this.#dropped };
  }
}
