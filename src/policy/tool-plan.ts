import pLimit from 'p-limit';
import { InvalidToolPlanError } from '../errors/invalid-tool-plan-error.js';
import { defaultTelemetry, type ToolTelemetry } from '../observe/tool-telemetry.js';
import { checkCount } from '../util/validate.js';

/** A plain async function, or an AI SDK-style tool object with `execute` (duck-typed). */
export type PlanTool =
  | ((input: never, context: { signal: AbortSignal | undefined; stepId: string }) => unknown)
  | {
      execute?: (
        input: never,
        options: { toolCallId: string; messages: unknown[]; abortSignal: AbortSignal | undefined },
      ) => unknown;
    };

/** One call of a plan. */
export interface PlanStep {
  /** Unique id; dependents name it in `dependsOn`, and its output is keyed by it. */
  id: string;
  tool: PlanTool;
  /** The tool's input, or a function of the outputs of `dependsOn` (keyed by step id). */
  input?: unknown | ((dependencies: Record<string, unknown>) => unknown);
  /** Steps whose outputs this one needs (default: none). */
  dependsOn?: readonly string[];
  /** When it fails, skip its dependents instead of escalating (default false). */
  optional?: boolean;
  /** When it fails, use this value instead (its dependents run with it). Presence of the key counts. */
  default?: unknown;
}

/** What happened to a step. */
export type StepOutcome = 'ok' | 'failed' | 'skipped' | 'defaulted' | 'escalated';

/** How one step of a plan ended. */
export interface PlanStepResult {
  /** The step's id. */
  id: string;
  outcome: StepOutcome;
  /** The decision taken, in words (e.g. `used default`, `skipped: dependency 'a' failed`). */
  decision: string;
  /** The output (the default when defaulted). */
  value?: unknown;
  /** The error the step (or the dependency it gave up on) failed with. */
  error?: unknown;
}

/** What {@link runToolPlan} resolves with (it never rejects for a failed step). */
export interface PlanResult {
  /** True when no required step failed (nothing escalated). */
  ok: boolean;
  /** Every step's result, in the order given. */
  steps: PlanStepResult[];
  /** Outputs of the steps that produced one (ok or defaulted), by id. */
  outputs: Record<string, unknown>;
  /** Ids of required steps that failed. */
  escalated: string[];
}

/** Options of {@link runToolPlan}. */
export interface ToolPlanOptions {
  /**
   * Tool calls running at once.
   * @default 4
   */
  concurrency?: number;
  /** Aborting stops steps not yet started (skipped) and is passed to running ones. */
  signal?: AbortSignal;
  /** Default: process-wide events (`plan_step`). */
  telemetry?: ToolTelemetry;
}

function validatePlan(steps: readonly PlanStep[]): Map<string, PlanStep> {
  const byId = new Map<string, PlanStep>();
  for (const step of steps) {
    if (byId.has(step.id))
      throw new InvalidToolPlanError({ problem: `step id '${step.id}' is used twice`, steps: [step.id] });
    byId.set(step.id, step);
  }
  for (const step of steps) {
    for (const dep of step.dependsOn ?? []) {
      if (!byId.has(dep)) {
        throw new InvalidToolPlanError({
          problem: `step '${step.id}' depends on unknown step '${dep}'`,
          steps: [step.id, dep],
        });
      }
    }
  }
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): void => {
    if (state.get(id) === 'done') return;
    if (state.get(id) === 'visiting') {
      const cycle = [...path.slice(path.indexOf(id)), id];
      throw new InvalidToolPlanError({ problem: `dependency cycle ${cycle.join(' → ')}`, steps: cycle });
    }
    state.set(id, 'visiting');
    path.push(id);
    for (const dep of byId.get(id)!.dependsOn ?? []) visit(dep);
    path.pop();
    state.set(id, 'done');
  };
  for (const step of steps) visit(step.id);
  return byId;
}

async function lastValue(result: unknown): Promise<unknown> {
  const value = await result;
  if (typeof value === 'object' && value !== null && Symbol.asyncIterator in value) {
    let last: unknown;
    for await (const item of value as AsyncIterable<unknown>) last = item;
    return last;
  }
  return value;
}

function invoke(step: PlanStep, input: unknown, signal: AbortSignal | undefined): Promise<unknown> {
  const { tool } = step;
  if (typeof tool === 'function') {
    return lastValue((tool as (i: unknown, c: object) => unknown)(input, { signal, stepId: step.id }));
  }
  if (typeof tool.execute !== 'function') {
    return Promise.reject(new TypeError(`Plan step '${step.id}': its tool has no execute function.`));
  }
  const execute = tool.execute as (i: unknown, o: object) => unknown;
  return lastValue(execute(input, { toolCallId: step.id, messages: [], abortSignal: signal }));
}

/**
 * Runs a dependency graph of tool calls with bounded concurrency. Invalid plans (cycles, unknown dependencies,
 * duplicate ids) throw `InvalidToolPlanError` before anything runs. When a step fails: with a `default` its
 * dependents run with the default (`defaulted`); when `optional`, its dependents are skipped (`failed`); otherwise
 * it escalates (`escalated`, the plan's `ok` is false) and its dependents are skipped. Independent steps always
 * continue; the promise resolves with every step's outcome and never rejects for a step's failure.
 */
export async function runToolPlan(
  steps: readonly PlanStep[],
  options: ToolPlanOptions = {},
): Promise<PlanResult> {
  checkCount('concurrency', options.concurrency, 1);
  const byId = validatePlan(steps);
  const limit = pLimit(options.concurrency ?? 4);
  const telemetry = options.telemetry ?? defaultTelemetry;
  const { signal } = options;
  const results = new Map<string, Promise<PlanStepResult>>();

  const settle = (step: PlanStep, result: PlanStepResult): PlanStepResult => {
    telemetry.planStep({
      step: step.id,
      toolName: typeof step.tool === 'function' ? step.tool.name || step.id : step.id,
      outcome: result.outcome,
      decision: result.decision,
      error: result.error,
    });
    return result;
  };

  const runStep = async (step: PlanStep): Promise<PlanStepResult> => {
    const deps = await Promise.all((step.dependsOn ?? []).map((dep) => resultOf(byId.get(dep)!)));
    const blocked = deps.find((dep) => dep.outcome !== 'ok' && dep.outcome !== 'defaulted');
    if (blocked) {
      return settle(step, {
        id: step.id,
        outcome: 'skipped',
        decision: `skipped: dependency '${blocked.id}' failed`,
      });
    }
    const inputs = Object.fromEntries(deps.map((dep) => [dep.id, dep.value]));
    try {
      const value = await limit(async () => {
        if (signal?.aborted) throw signal.reason;
        const input = typeof step.input === 'function' ? step.input(inputs) : step.input;
        return invoke(step, input, signal);
      });
      return settle(step, { id: step.id, outcome: 'ok', decision: 'ran', value });
    } catch (error) {
      if ('default' in step) {
        return settle(step, {
          id: step.id,
          outcome: 'defaulted',
          decision: 'used default',
          value: step.default,
          error,
        });
      }
      if (step.optional) {
        return settle(step, {
          id: step.id,
          outcome: 'failed',
          decision: 'optional: dependents skipped',
          error,
        });
      }
      return settle(step, {
        id: step.id,
        outcome: 'escalated',
        decision: 'required step failed: escalated',
        error,
      });
    }
  };

  const resultOf = (step: PlanStep): Promise<PlanStepResult> => {
    let result = results.get(step.id);
    if (!result) {
      result = runStep(step);
      results.set(step.id, result);
    }
    return result;
  };

  const settled = await Promise.all(steps.map(resultOf));
  const outputs: Record<string, unknown> = {};
  for (const r of settled) if (r.outcome === 'ok' || r.outcome === 'defaulted') outputs[r.id] = r.value;
  const escalated = settled.filter((r) => r.outcome === 'escalated').map((r) => r.id);
  return { ok: escalated.length === 0, steps: settled, outputs, escalated };
}
