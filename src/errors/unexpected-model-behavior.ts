import { errorMarker, GracefulError, hasMarker } from './graceful-error.js';

const marker = errorMarker('UnexpectedModelBehavior');

/**
 * The whole run failed because a tool failed `retries + 1` times in a row (pydantic-ai's
 * `UnexpectedModelBehavior`). `cause` is the tool's last error. Fix the tool or its inputs' description,
 * or raise the tool's `retries` if the model needs more attempts.
 */
export class UnexpectedModelBehavior extends GracefulError {
  /** The name of the tool that exhausted its budget. */
  readonly toolName: string;
  /** The tool's retry budget (`retries`): the run failed on failure number `retries + 1`. */
  readonly retries: number;

  constructor({ toolName, retries, cause }: { toolName: string; retries: number; cause: unknown }) {
    super('UnexpectedModelBehavior', `Tool '${toolName}' exceeded max retries count of ${retries}`, {
      cause,
    });
    this.toolName = toolName;
    this.retries = retries;
  }

  static override isInstance(error: unknown): error is UnexpectedModelBehavior {
    return hasMarker(error, marker);
  }
}
