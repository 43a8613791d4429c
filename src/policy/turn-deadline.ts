import { TurnDeadlineError } from '../errors/turn-deadline-error.js';
import { defaultTelemetry, type ToolTelemetry } from '../observe/tool-telemetry.js';
import type { Sleep } from '../util/time.js';
import { checkFunction, checkOptionsObject, checkTimeoutMs } from '../util/validate.js';
import { createSleep } from './sleep.js';
import { withTimeout } from './timeout.js';

/** Options of `TurnDeadline`: one run's time limit, after which running tools are abandoned and new ones skipped. */
export interface TurnDeadlineOptions {
  /**
   * The whole turn's limit in ms (5 min).
   * @default 300000
   */
  timeoutMs?: number;
  /**
   * The deadline's timer. Default: a timer that is `unref`'d (an abandoned run never keeps the process alive) and
   * cleared by `close()`.
   */
  sleep?: Sleep;
  /** Default: process-wide events and metrics. */
  telemetry?: ToolTelemetry;
  /** Called once when the deadline passes (e.g. to end the run with one last tool-free step). */
  onExpire?: () => void;
}

/** The default limit of one turn: 5 minutes. */
export const defaultTurnTimeoutMs = 300_000;

// A dropped, never-closed run must not hold Node open until its deadline.
const deadlineSleep: Sleep = createSleep({ unref: true });

/** Which tool calls of the turn finished, were cut off, or never ran (`<tool>#<callId>` each). */
export interface TurnDeadlineReport {
  /** Whether the deadline passed. */
  expired: boolean;
  completed: string[];
  timedOut: string[];
  skipped: string[];
}

/**
 * The per-turn deadline: every tool call of one run goes through `run`. When the deadline passes, running calls
 * are abandoned (their signal fires, they reject with `TurnDeadlineError` 'timed_out' at once, even if they ignore
 * the signal) and later calls are not started ('skipped'); finished calls keep their results. Call `close()` when
 * the run ends, however it ends (success, error, abort): it stops the timer and returns the report. The default
 * timer is `unref`'d, so even a run that is never closed does not keep the process alive.
 */
export class TurnDeadline {
  readonly timeoutMs: number;
  readonly #controller = new AbortController();
  readonly #timer = new AbortController();
  readonly #completed: string[] = [];
  readonly #timedOut: string[] = [];
  readonly #skipped: string[] = [];
  readonly #telemetry: ToolTelemetry;
  #closed = false;

  constructor(options: TurnDeadlineOptions = {}) {
    checkTimeoutMs('timeoutMs', options.timeoutMs);
    checkFunction('sleep', options.sleep);
    checkFunction('onExpire', options.onExpire);
    checkOptionsObject('telemetry', options.telemetry);
    this.timeoutMs = options.timeoutMs ?? defaultTurnTimeoutMs;
    this.#telemetry = options.telemetry ?? defaultTelemetry;
    (options.sleep ?? deadlineSleep)(this.timeoutMs, this.#timer.signal).then(
      () => {
        this.#controller.abort(new TurnDeadlineError({ phase: 'timed_out', deadlineMs: this.timeoutMs }));
        options.onExpire?.();
      },
      () => {},
    );
  }

  /** Fires when the deadline passes. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get expired(): boolean {
    return this.#controller.signal.aborted;
  }

  /** Runs one tool call under the deadline; `id` names it in the report (e.g. `search#call_1`). */
  async run<T>(id: string, toolName: string, fn: (signal: AbortSignal) => Promise<T> | T): Promise<T> {
    if (this.expired) {
      this.#skipped.push(id);
      throw new TurnDeadlineError({ phase: 'skipped', toolName, deadlineMs: this.timeoutMs });
    }
    try {
      const value = await withTimeout(fn, { signal: this.#controller.signal });
      this.#completed.push(id);
      return value;
    } catch (error) {
      if (!this.expired) {
        this.#completed.push(id);
        throw error;
      }
      this.#timedOut.push(id);
      throw new TurnDeadlineError({ phase: 'timed_out', toolName, deadlineMs: this.timeoutMs });
    }
  }

  /** What happened so far. */
  report(): TurnDeadlineReport {
    return {
      expired: this.expired,
      completed: [...this.#completed],
      timedOut: [...this.#timedOut],
      skipped: [...this.#skipped],
    };
  }

  /** Stops the timer (no timer is left behind), reports `turn_deadline` once if it passed, returns the report. */
  close(): TurnDeadlineReport {
    const report = this.report();
    if (this.#closed) return report;
    this.#closed = true;
    this.#timer.abort();
    if (report.expired) {
      this.#telemetry.turnDeadline({
        timeoutMs: this.timeoutMs,
        completed: report.completed,
        timedOut: report.timedOut,
        skipped: report.skipped,
      });
    }
    return report;
  }
}
