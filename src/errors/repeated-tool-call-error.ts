import { errorMarker, GracefulError, hasMarker } from './graceful-error.js';

/** Options of `RepeatedToolCallError`. */
export interface RepeatedToolCallErrorOptions {
  toolName: string;
  /** How many calls of the tool with this same input the run already made. */
  calls: number;
  /** What the newest of them returned, as the model read it (`undefined`: no result was found). */
  lastResult?: string;
}

/**
 * The model called a tool again with the same input it had already used `maxIdenticalCalls` times in this run
 * (a doom loop: each call "succeeds", and the model asks again). The call was not run; the model reads this
 * error with the earlier result instead, and it counts against the tool's `retries` like any failure, so a model
 * that keeps repeating itself fails the run with `UnexpectedModelBehavior`.
 */
export class RepeatedToolCallError extends GracefulError {
  readonly toolName: string;
  readonly calls: number;
  readonly lastResult: string | undefined;

  constructor(options: RepeatedToolCallErrorOptions) {
    const times = options.calls === 1 ? 'once' : `${options.calls} times`;
    const result =
      options.lastResult === undefined ? '' : ` The last of those calls returned: ${options.lastResult}`;
    super(
      'RepeatedToolCallError',
      `You already called '${options.toolName}' ${times} with this same input in this task, so this call was not ` +
        `run again.${result}`,
    );
    this.toolName = options.toolName;
    this.calls = options.calls;
    this.lastResult = options.lastResult;
  }

  static override isInstance(error: unknown): error is RepeatedToolCallError {
    return hasMarker(error, errorMarker('RepeatedToolCallError'));
  }
}
