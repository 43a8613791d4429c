import { INTERRUPTED_TOOL_CALL } from '../stream/tool-history-repair.js';
import { wholeSeconds } from '../util/duration.js';

/**
 * What the model is told to do after the error text. Errors the tool threw ask it to fix its call; other kinds (an
 * outage, a deadline) must never tell the model to fix arguments.
 */
export type ToolErrorGuidance = 'retry' | 'unavailable' | 'deadline' | 'repeated' | 'none';

/**
 * Every sentence graceful-ai writes for the model, in one place, so wording is reviewed (and tested) together.
 * Error messages the model reads as the error itself (`CircuitOpenError`, `TurnDeadlineError`) live in their classes.
 */
export const modelText = {
  /** The closing line per guidance kind (`retry` is pydantic-ai's wording). */
  guidance: {
    retry: 'Fix the errors and try again.',
    // An outage (circuit open, automatic retries used up on a failing dependency): never ask to fix arguments.
    unavailable: 'Continue without this tool, or call it again later.',
    // The turn's deadline passed: the model gets one last step without tools.
    deadline: 'Answer now with the information you already have.',
    // The same call again after `maxIdenticalCalls` identical ones (a doom loop): the call was not run.
    repeated: 'Use the result you already have, or call the tool with a different input.',
    none: '',
  } satisfies Readonly<Record<ToolErrorGuidance, string>>,
  /**
   * A recognised outage of a tool that was not re-run automatically because it is not idempotent: before "call it
   * again later", the model must know the failed call may have done its work (sent the e-mail).
   */
  mayHaveTakenEffect:
    'It was not retried automatically: the failed call may already have taken effect, so check before calling it again.',
  /** A server's retry-after longer than the tool's retries could wait. */
  retryAfter: (ms: number) => `The service asked to wait ${wholeSeconds(ms)} before trying again.`,
  /** A tool name the model invented, when the SDK's error does not already list the tools. */
  unknownTool: (available: readonly string[]) =>
    `Call one of the available tools instead: ${available.join(', ') || '(none)'}.`,
  /** The arguments of a call that failed the tool's input schema, as the model sent them (pydantic-ai shows them). */
  inputSent: (input: string) => `The input was: ${input}`,
  /** Arguments that are not JSON. */
  invalidJson: 'The arguments must be one valid JSON object matching the tool’s input schema.',
  /** The synthetic result of a tool call the history holds without one (an aborted turn, a crash between call and result). */
  interruptedToolCall: INTERRUPTED_TOOL_CALL,
  /** Leads a text result that a fallback tool produced. */
  answeredBy: (tool: string) => `[answered by fallback tool '${tool}']`,
  /** When rendering itself failed (a hostile error object). */
  unrenderable: 'Unknown error (it could not be rendered)',
} as const;
