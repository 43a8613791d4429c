import { errorMarker, GracefulError, hasMarker } from './graceful-error.js';

/** Options of `InvalidToolPlanError`. */
export interface InvalidToolPlanErrorOptions {
  /**
   * What is wrong with the plan, as a phrase that completes "The tool plan cannot run: …"
   * (e.g. `dependency cycle a → b → a`).
   */
  problem: string;
  /** The steps involved: the cycle in order, or the offending step (and the unknown dependency). */
  steps: readonly string[];
}

/** A tool plan that cannot run: a dependency cycle, an unknown dependency or a duplicate step id. */
export class InvalidToolPlanError extends GracefulError {
  /** The steps involved (the cycle in order, or the offending step). */
  readonly steps: readonly string[];

  constructor(options: InvalidToolPlanErrorOptions) {
    super(
      'InvalidToolPlanError',
      `The tool plan cannot run: ${options.problem}. Nothing was executed; fix the plan's steps and dependsOn lists.`,
    );
    this.steps = options.steps;
  }

  static override isInstance(error: unknown): error is InvalidToolPlanError {
    return hasMarker(error, errorMarker('InvalidToolPlanError'));
  }
}
