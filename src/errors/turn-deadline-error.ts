import { errorMarker, GracefulError, hasMarker } from './graceful-error.js';

/** Whether the call was cut off while running, or never started because the deadline had already passed. */
export type TurnDeadlinePhase = 'timed_out' | 'skipped';

/**
 * The turn's deadline (`turnTimeoutMs`) passed: a running tool call was abandoned (`timed_out`) or a new one was
 * not started (`skipped`). The model answers from what it has; nothing here is the model's mistake.
 */
export class TurnDeadlineError extends GracefulError {
  readonly phase: TurnDeadlinePhase;
  readonly toolName: string | undefined;
  readonly deadlineMs: number;

  constructor(options: { phase: TurnDeadlinePhase; toolName?: string; deadlineMs: number }) {
    const subject = options.toolName ? `Tool '${options.toolName}'` : 'The tool call';
    const what = options.phase === 'timed_out' ? 'was stopped before it finished' : 'was not run';
    super(
      'TurnDeadlineError',
      `${subject} ${what}: this turn ran out of time (turnTimeoutMs: ${options.deadlineMs} ms).`,
    );
    this.phase = options.phase;
    this.toolName = options.toolName;
    this.deadlineMs = options.deadlineMs;
  }

  static override isInstance(error: unknown): error is TurnDeadlineError {
    return hasMarker(error, errorMarker('TurnDeadlineError'));
  }
}
