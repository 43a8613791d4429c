import { isStepCount, type StopCondition, type Tool, type ToolExecutionOptions, type ToolSet } from 'ai';
import { TurnDeadlineError } from '../../../src/errors/turn-deadline-error.js';
import { attachModelText } from '../../../src/model-text/format-for-model.js';
import type { ToolTelemetry } from '../../../src/observe/tool-telemetry.js';
import { TurnDeadline, type TurnDeadlineReport } from '../../../src/policy/turn-deadline.js';
import { defaultLogger } from '../../../src/util/logger.js';
import { isAsyncIterable } from '../../../src/util/shape.js';
import type { Sleep } from '../../../src/util/time.js';
import { checkFunction, checkOptionsObject, checkTimeoutMs } from '../../../src/util/validate.js';
import { boundExecute, copyWith } from './tool-copy.js';
import { judgeToolFailure } from './tool-failure.js';

/** Run-level deadline settings (`turnTimeoutMs` on the drop-ins and on `withTurnDeadline`). */
export interface TurnDeadlineSettings {
  /**
   * The whole run's limit in ms (5 min).
   * @default 300000
   */
  turnTimeoutMs?: number;
  /** Default: process-wide events and metrics. */
  telemetry?: ToolTelemetry;
  /** Default: an `unref`'d timer (tests use fake timers or inject a sleep). */
  sleep?: Sleep;
  /**
   * Called once with the final report when the run ends, however it ends (answer, failed step, abort, or your own
   * `close()`): which tool calls completed, timed out and were skipped. A throwing callback is logged and ignored.
   */
  onTurnDeadline?: (report: TurnDeadlineReport) => void;
}

type AnyStop = StopCondition<ToolSet>;
type PrepareStepArgs = { stepNumber: number };

/** The options `withTurnDeadline` reads and rewrites; everything else passes through unchanged. */
export interface TurnDeadlineCallOptions {
  tools?: ToolSet;
  // biome-ignore lint/suspicious/noExplicitAny: the SDK's PrepareStepFunction is generic over the caller's tools.
  prepareStep?: (options: any) => unknown;
  // biome-ignore lint/suspicious/noExplicitAny: the SDK's StopCondition is generic over the caller's tools.
  stopWhen?: StopCondition<any> | StopCondition<any>[];
  // biome-ignore lint/suspicious/noExplicitAny: the SDK's end callback is generic over the caller's tools.
  onEnd?: (event: any) => unknown;
  /** The SDK's deprecated alias of `onEnd` (used when `onEnd` is not given, as the SDK does). */
  // biome-ignore lint/suspicious/noExplicitAny: the SDK's end callback is generic over the caller's tools.
  onFinish?: (event: any) => unknown;
  // biome-ignore lint/suspicious/noExplicitAny: the SDK's step error callback is generic over the caller's tools.
  onStepError?: (event: any) => unknown;
  // biome-ignore lint/suspicious/noExplicitAny: the SDK's abort callback is generic over the caller's tools.
  onAbort?: (event: any) => unknown;
}

/** A run under a deadline: the rewritten options, and its report. */
export interface TurnDeadlineRun<O> {
  /** Pass these to `generateText`/`streamText`/an agent call instead of the originals. */
  options: O;
  deadline: TurnDeadline;
  /** Which tool calls completed, timed out or were skipped so far (`<tool>#<toolCallId>`). */
  report(): TurnDeadlineReport;
  /**
   * Stops the deadline timer and returns the final report (idempotent). Called automatically when the run ends,
   * fails in a step or is aborted (`onEnd`, `onStepError`, `onAbort`); call it yourself when you drop a run
   * without reading it, or after a rejection that happens outside a step. The default timer is `unref`'d, so a
   * run that is never closed still does not keep the process alive.
   */
  close(): TurnDeadlineReport;
}

/** The error as the model reads it: what happened, then "answer now" (never "fix the arguments"). */
function forModel(error: TurnDeadlineError, toolName: string, toolCallId: string): TurnDeadlineError {
  const verdict = judgeToolFailure({
    failure: error,
    toolName,
    toolCallId,
    retry: 0,
    retries: 0,
    graceful: true,
  });
  if (verdict.kind === 'model') attachModelText(error, verdict.text);
  return error;
}

function withDeadline(name: string, tool: Tool, deadline: TurnDeadline): Tool {
  const execute = boundExecute(tool);
  if (execute === undefined) return tool;
  return copyWith(tool, {
    execute: (input: unknown, options: ToolExecutionOptions<unknown>) => {
      const forTheModel = (error: unknown) => {
        throw TurnDeadlineError.isInstance(error) ? forModel(error, name, options.toolCallId) : error;
      };
      let iterable: AsyncIterable<unknown> | undefined;
      let settle: { resolve: () => void; reject: (error: unknown) => void } | undefined;
      const run = deadline.run(`${name}#${options.toolCallId}`, name, (signal) => {
        const result = execute(input, {
          ...options,
          abortSignal: options.abortSignal ? AbortSignal.any([options.abortSignal, signal]) : signal,
        });
        if (!isAsyncIterable(result)) return result;
        // A streaming tool runs until its iteration ends: the deadline covers every value, not just the start.
        iterable = result;
        return new Promise<void>((resolve, reject) => {
          settle = { resolve, reject };
        });
      });
      // `run` calls `execute` synchronously, so a streaming tool is known here and answered with an iterable.
      if (iterable === undefined || settle === undefined) return run.catch(forTheModel);
      return underDeadline(iterable, run.catch(forTheModel), settle);
    },
  });
}

/**
 * Relays a streaming tool's values until it ends or the deadline passes (`stopped` rejects then). Reports the end
 * of the iteration to the deadline through `settle`.
 */
async function* underDeadline(
  iterable: AsyncIterable<unknown>,
  stopped: Promise<unknown>,
  settle: { resolve: () => void; reject: (error: unknown) => void },
): AsyncGenerator<unknown> {
  const iterator = iterable[Symbol.asyncIterator]();
  // Only a rejection matters while values flow: the deadline passed, or the tool failed (rethrown below).
  const deadlinePassed = stopped.then(() => new Promise<never>(() => {}));
  deadlinePassed.catch(() => {});
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), deadlinePassed]);
      if (next.done) break;
      yield next.value;
    }
    settle.resolve();
  } catch (error) {
    settle.reject(error);
    await stopped.catch((rendered: unknown) => {
      throw rendered;
    });
    throw error;
  } finally {
    // Not awaited: a tool stuck in an `await` would hold the run past its deadline.
    Promise.resolve()
      .then(() => iterator.return?.())
      .catch(() => {});
  }
}

/**
 * Puts one `generateText`/`streamText`/agent run under a per-turn deadline with graceful degradation (the SDK's
 * own `timeout` aborts the whole call and discards everything; this does not). When `turnTimeoutMs` passes:
 * tool calls still running are abandoned (their `abortSignal` fires), calls not started are skipped, each gets a
 * model-visible result saying the turn ran out of time, and the model gets ONE final step with no tools
 * (`activeTools: []`, `toolChoice: 'none'`) to answer from what it has. Finished tool results are kept.
 *
 * The drop-ins call this for their `turnTimeoutMs` option. A streaming tool is covered until it returns its
 * iterable.
 */
export function withTurnDeadline<O extends TurnDeadlineCallOptions>(
  options: O,
  settings: TurnDeadlineSettings = {},
): TurnDeadlineRun<O> {
  // Checked under this function's names before `TurnDeadline` (whose own option is `timeoutMs`) sees them.
  checkOptionsObject('withTurnDeadline settings', settings);
  checkTimeoutMs('turnTimeoutMs', settings.turnTimeoutMs);
  checkFunction('onTurnDeadline', settings.onTurnDeadline);
  const deadline = new TurnDeadline({
    timeoutMs: settings.turnTimeoutMs,
    telemetry: settings.telemetry,
    sleep: settings.sleep,
  });
  const userStops: AnyStop[] = [options.stopWhen ?? isStepCount(1)].flat();
  let finalStep: number | undefined;

  const tools =
    options.tools &&
    Object.fromEntries(
      Object.entries(options.tools).map(([name, tool]) => [name, withDeadline(name, tool, deadline)]),
    );

  const prepareStep = async (step: PrepareStepArgs) => {
    const own = options.prepareStep ? await options.prepareStep(step) : undefined;
    if (!deadline.expired) return own;
    finalStep ??= step.stepNumber;
    return { ...(own as object | undefined), activeTools: [], toolChoice: 'none' };
  };

  const stopWhen: AnyStop = async (state) => {
    // After the deadline the run continues for exactly one tool-free step, whatever the caller's conditions say.
    if (finalStep !== undefined) return state.steps.length > finalStep;
    if (deadline.expired) return false;
    for (const stop of userStops) if (await stop(state)) return true;
    return false;
  };

  let reported = false;
  const close = (): TurnDeadlineReport => {
    const report = deadline.close();
    if (reported) return report;
    reported = true;
    try {
      settings.onTurnDeadline?.(report);
    } catch (error) {
      defaultLogger.warn('onTurnDeadline threw; the error is ignored.', { error });
    }
    return report;
  };
  // Every way a run ends stops the timer: success, a failed step (the run rejects), an abort.
  const userOnEnd = options.onEnd ?? options.onFinish;
  const onEnd = async (event: unknown) => {
    close();
    await userOnEnd?.(event);
  };
  const onStepError = async (event: unknown) => {
    close();
    await options.onStepError?.(event);
  };
  const onAbort = async (event: unknown) => {
    close();
    await options.onAbort?.(event);
  };

  return {
    options: {
      ...options,
      ...(tools ? { tools } : {}),
      prepareStep,
      stopWhen,
      onEnd,
      onFinish: undefined,
      onStepError,
      onAbort,
    } as O,
    deadline,
    report: () => deadline.report(),
    close,
  };
}
