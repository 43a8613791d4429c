import { errorMarker, GracefulError, hasMarker } from './graceful-error.js';

/** A tool plan that cannot run: a dependency cycle, an unknown dependency or a duplicate step id. */
export class InvalidToolPlanError extends GracefulError {
  /** The steps involved (the cycle in order, or the offending step). */
  readonly steps: readonly string[];

  constructor(problem: string, steps: readonly string[]) {
    super(
      'InvalidToolPlanError',
      `The tool plan cannot run: ${problem}. Nothing was executed; fix the plan's steps and dependsOn lists.`,
    );
    this.steps = steps;
  }

  static override isInstance(error: unknown): error is InvalidToolPlanError {
    return hasMarker(error, errorMarker('InvalidToolPlanError'));
  }
}
