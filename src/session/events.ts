import type { ErrorKind } from '../classify/types.js';
import { boundedErrorText } from '../redact/bounded-error-text.js';
import type { ToolHistoryRepair } from '../stream/tool-history-repair.js';
import { errorText } from '../util/error-text.js';
import type { SessionMessage } from './message.js';

/**
 * An error as events and session files carry it: JSON-safe, secrets redacted, `message` at most 2000 characters
 * (the cut marked), `name` at most 200.
 */
export interface SerializedError {
  name: string;
  message: string;
}

/**
 * Every event a session emits, by type. Payloads are JSON-safe (the RPC server forwards them as they are),
 * except the user-defined values inside messages and tool inputs/outputs.
 */
export type SessionEventMap<M extends SessionMessage = SessionMessage> = {
  /** `prompt(text)` started a turn. */
  turn_start: { text: string };
  /** A message joined the conversation: the user's prompt, or a completed step's assistant/tool messages. */
  message: { message: M };
  /** A chunk of assistant text as it streams (it may belong to an attempt that later fails). */
  text_delta: { delta: string };
  /**
   * The stream guard replaced a failed stream's answer: discard the `discardedChars` characters of this step's
   * text shown so far; the complete answer follows as new `text_delta`s.
   */
  text_reset: { discardedChars: number };
  /** The model called a tool (from a completed step). */
  tool_call: { toolCallId: string; toolName: string; input: unknown };
  /** A tool finished (from a completed step); `error` is set when it failed. */
  tool_result: { toolCallId: string; toolName: string; output?: unknown; error?: string };
  /**
   * The conversation holds tool calls without a result (or results without their call): the attempt's requests are
   * sent repaired (a synthetic "interrupted" result each; orphan results dropped), the history stays as it happened.
   */
  tool_history_repaired: ToolHistoryRepair;
  /** An attempt of the turn failed; `kind` is what the classifier made of it. */
  attempt_error: { error: SerializedError; kind: ErrorKind; reason: string };
  /** Retry number `attempt` of at most `maxRetries` is scheduled: emitted before the backoff sleep of `delayMs`. */
  auto_retry_start: {
    attempt: number;
    /** The session's `retry.maxRetries`. */
    maxRetries: number;
    delayMs: number;
    errorMessage: string;
  };
  /** A retry chain ended: on the first success, on a final failure, on exhaustion or when cancelled. */
  auto_retry_end: { success: boolean; attempt: number; finalError?: string };
  /** The context overflowed; compaction starts. */
  compaction_start: { messageCount: number; errorMessage: string };
  /** Compaction ended; the turn continues with `messageCount` messages. */
  compaction_end: { messageCount: number; removedCount: number };
  /** The turn ended (after any retry chain): `error` is set on failure or cancel. */
  turn_end: { success: boolean; text?: string; error?: SerializedError };
};

/** The `type` of a session event (`auto_retry_start`, `turn_end`, …). */
export type SessionEventType = keyof SessionEventMap;

/** One event as a listener receives it: the payload with its `type`. */
export type SessionEvent<M extends SessionMessage = SessionMessage> = {
  [K in SessionEventType]: { type: K } & SessionEventMap<M>[K];
}[SessionEventType];

/** A `subscribe()` listener: receives every session event; a throwing listener is logged and ignored. */
export type SessionListener<M extends SessionMessage = SessionMessage> = (event: SessionEvent<M>) => void;

/** The error as events and session entries carry it (see {@link SerializedError}); never throws. */
export function serializeError(error: unknown): SerializedError {
  let name = 'Error';
  try {
    if (error instanceof Error) name = errorText(error.name) || 'Error';
  } catch {
    // A throwing `name` getter: keep 'Error'.
  }
  return { name: boundedErrorText(name, 200), message: boundedErrorText(error) };
}
