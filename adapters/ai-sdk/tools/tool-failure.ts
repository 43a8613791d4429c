import type { ModelMessage } from 'ai';
import { classifyError } from '../../../src/classify/classify.js';
import type { Classification } from '../../../src/classify/types.js';
import { CircuitOpenError } from '../../../src/errors/circuit-open-error.js';
import { errorMarker, hasMarker } from '../../../src/errors/graceful-error.js';
import { ModelRetry } from '../../../src/errors/model-retry.js';
import { RepeatedToolCallError } from '../../../src/errors/repeated-tool-call-error.js';
import { TurnDeadlineError } from '../../../src/errors/turn-deadline-error.js';
import { UnexpectedModelBehavior } from '../../../src/errors/unexpected-model-behavior.js';
import { formatToolError, type ToolErrorGuidance } from '../../../src/model-text/format-for-model.js';
import { modelText } from '../../../src/model-text/model-text.js';
import type { FailureDecision } from '../../../src/observe/tool-events.js';
import type { RedactOption } from '../../../src/redact/redact.js';
import { countConsecutiveFailures } from './tool-failure-count.js';

/** How the resilience layer ended a call that failed: what the model-visible layer needs besides the error. */
export interface PolicyVerdict {
  decision: FailureDecision;
  classification: Classification;
  /** The server's delay when it was longer than the retries could wait. */
  retryAfterMs?: number;
}

/**
 * What the resilience layer throws when a call fails for good: the error with the policy's verdict, handed to
 * {@link judgeToolFailure} as a value. It never leaves `gracefulTool`.
 */
export class PolicyFailure {
  constructor(
    readonly error: unknown,
    readonly verdict: PolicyVerdict,
  ) {}
}

/** Everything the decision for one failed tool call is made from. */
export interface ToolFailureInput {
  /** What failed: the tool's error, a `PolicyFailure` from the resilience layer, or an invalid call's error. */
  failure: unknown;
  toolName: string;
  toolCallId?: string;
  /** Counted failures of this tool in a row in this run, before this one (see {@link failuresInARow}). */
  retry: number;
  /** The tool's model-visible budget (`retries`). */
  retries: number;
  /** `false`: the failure fails the run with the tool's own error (a `ModelRetry` still reaches the model). */
  graceful: boolean;
  maxErrorChars?: number;
  redact?: RedactOption;
  /** Actionable lines for the model (e.g. the available tools). */
  details?: string;
}

/** What happens to a failed tool call: the model reads `text`, or the whole run fails with `error`. */
export type ToolFailureVerdict =
  | { kind: 'model'; error: unknown; text: string; counts: boolean }
  | { kind: 'fail-run'; error: unknown; counts: boolean };

/** Calls whose failure is not the model's mistake (open circuit, deadline), by id; bounded. */
const uncounted = new Set<string>();
const REMEMBERED_CALL_IDS = 4096;

/**
 * The one decision for a failed tool call, used by `gracefulTool`, the unknown-tool repair hook and the turn
 * deadline, so each counts the budget and words the model text the same way:
 * - an open circuit, a shared cool-down and a deadline do not count against `retries`; everything else the tool threw does;
 * - `graceful: false` fails the run with the tool's own error (a `ModelRetry` still reaches the model);
 * - failure number `retries + 1` in a row fails the run with `UnexpectedModelBehavior`;
 * - otherwise the model reads `formatToolError` text whose guidance fits the cause: an outage (open circuit, a
 *   recognised transient error left after automatic retries) says to continue without the tool or call it later
 *   (after a line saying the call may have taken effect, when it was not retried because the tool is not
 *   idempotent), a deadline says to answer now, a repeated call to use the result it has, and only the tool's own
 *   errors ask to fix the call.
 */
export function judgeToolFailure(input: ToolFailureInput): ToolFailureVerdict {
  const { failure } = input;
  const error = failure instanceof PolicyFailure ? failure.error : failure;
  const verdict = failure instanceof PolicyFailure ? failure.verdict : undefined;
  const counts =
    !CircuitOpenError.isInstance(error) &&
    !hasMarker(error, errorMarker('CooldownError')) &&
    !TurnDeadlineError.isInstance(error);
  if (!counts && input.toolCallId !== undefined) rememberUncounted(input.toolCallId);
  if (!input.graceful && !ModelRetry.isInstance(error)) return { kind: 'fail-run', error, counts };
  if (counts && input.retry >= input.retries) {
    const { toolName, retries } = input;
    return {
      kind: 'fail-run',
      error: new UnexpectedModelBehavior({ toolName, retries, cause: error }),
      counts,
    };
  }
  const { guidance, detail } = explain(error, verdict);
  const details = [input.details, detail].filter(Boolean).join('\n') || undefined;
  const text = formatToolError(error, {
    guidance,
    details,
    maxErrorChars: input.maxErrorChars,
    redact: input.redact,
  });
  return { kind: 'model', error, text, counts };
}

function explain(
  error: unknown,
  verdict: PolicyVerdict | undefined,
): { guidance: ToolErrorGuidance; detail?: string } {
  if (ModelRetry.isInstance(error)) return { guidance: 'retry' };
  if (CircuitOpenError.isInstance(error)) return { guidance: 'unavailable' };
  if (TurnDeadlineError.isInstance(error)) return { guidance: 'deadline' };
  if (RepeatedToolCallError.isInstance(error)) return { guidance: 'repeated' };
  const classification = verdict?.classification ?? classifyError(error);
  // An unrecognised error is transient only by default: it may well be the model's mistake.
  const outage = classification.kind === 'transient' && classification.reason !== 'unknown';
  const hint = verdict?.decision === 'retry_after' ? verdict.retryAfterMs : undefined;
  // An outage of a tool that is not idempotent was not re-run: "call it again later" must not hide that.
  const detail =
    hint !== undefined
      ? modelText.retryAfter(hint)
      : outage && verdict?.decision === 'not_idempotent'
        ? modelText.mayHaveTakenEffect
        : undefined;
  return { guidance: outage ? 'unavailable' : 'retry', ...(detail === undefined ? {} : { detail }) };
}

function rememberUncounted(toolCallId: string): void {
  uncounted.add(toolCallId);
  if (uncounted.size > REMEMBERED_CALL_IDS) uncounted.delete(uncounted.values().next().value as string);
}

/**
 * How many times in a row `toolName` failed in this run before the current call, from the messages the SDK
 * hands over (see `countConsecutiveFailures`); failures that were not the model's mistake do not count.
 */
export function failuresInARow(messages: readonly ModelMessage[] | undefined, toolName: string): number {
  return countConsecutiveFailures(
    messages,
    (part) => part.toolName === toolName && !uncounted.has(part.toolCallId),
  );
}
