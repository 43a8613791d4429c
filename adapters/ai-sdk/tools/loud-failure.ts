import type { ToolResultPart } from 'ai';
import { AggregateToolError, type ToolFailure } from '../../../src/errors/aggregate-tool-error.js';
import { UnexpectedModelBehavior } from '../../../src/errors/unexpected-model-behavior.js';

const loudMarker = Symbol.for('graceful-ai.loudToolFailure');

/**
 * What a wrapped `execute` returns instead of throwing when a failure must fail the whole run: the SDK would
 * catch a throw and show it to the model, but it does call the tool's `toModelOutput` on a result, and an
 * error thrown there rejects `generateText` and errors `streamText` with that very error object.
 * Failures of one step share a group (keyed by the step's `messages` array) so two or more become one
 * `AggregateToolError`.
 */
export class LoudToolFailure {
  readonly [loudMarker] = true;

  constructor(
    readonly failure: ToolFailure,
    private readonly group: ToolFailure[],
  ) {}

  /**
   * The error the run fails with: the tool's own error; with several in the step, an aggregate of them, unless every
   * one is a used-up budget: then this one's `UnexpectedModelBehavior` (the SDK throws the first call's), as
   * pydantic-ai stops at the first tool over its retries. Each call's own error stays on its tool part.
   */
  get runError(): unknown {
    const { group } = this;
    const aggregate =
      group.length >= 2 && !group.every((failure) => UnexpectedModelBehavior.isInstance(failure.error));
    return aggregate ? new AggregateToolError({ errors: [...group] }) : this.failure.error;
  }

  /** How the placeholder serializes where the SDK shows results (stream parts, UI messages). */
  toJSON(): { gracefulAi: string; toolName: string } {
    return {
      gracefulAi: 'tool failed loudly; the run fails with its error',
      toolName: this.failure.toolName,
    };
  }
}

const stepGroups = new WeakMap<object, ToolFailure[]>();

/** Records a loud failure in its step's group and returns the placeholder result. */
export function failLoudly(failure: ToolFailure, stepKey: object | undefined): LoudToolFailure {
  const key = stepKey ?? {};
  let group = stepGroups.get(key);
  if (group === undefined) {
    group = [];
    stepGroups.set(key, group);
  }
  group.push(failure);
  return new LoudToolFailure(failure, group);
}

export function isLoudToolFailure(value: unknown): value is LoudToolFailure {
  return (
    typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[loudMarker] === true
  );
}

/** The AI SDK's own conversion of a result for the model (used when the tool has no `toModelOutput`). */
export function defaultModelOutput(output: unknown): ToolResultPart['output'] {
  if (typeof output === 'string') return { type: 'text', value: output };
  const json = output === undefined ? undefined : JSON.stringify(output);
  return { type: 'json', value: json === undefined ? null : JSON.parse(json) };
}
