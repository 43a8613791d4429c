/**
 * The JSON-lines protocol of `graceful-ai/rpc`: one JSON object per line, UTF-8, `\n`-terminated, with U+2028 and
 * U+2029 written as `\u2028`/`\u2029` and lines split on `\n` only (see `framing.ts`).
 * Client → server: commands. Server → client: one `response` line per command (with the command's `id`) and
 * every session event as its own line (`{ "type": "auto_retry_start", … }`). A line whose `type` is
 * `response` is a response; any other line is a session event.
 */
import type { SerializedError, SessionEvent } from '../../src/session/events.js';
import type { SessionMessage } from '../../src/session/message.js';

/** A command id: any string or number the client chooses; echoed in the response. */
export type RpcId = string | number;

/** One command line the client sends (JSON); see docs/session.md for the protocol. */
export type RpcCommand =
  /** Runs one user turn; the response comes when the turn (and any retry chain) has ended. */
  | { id?: RpcId; type: 'prompt'; text: string }
  /** Cancels a backoff sleep, then aborts the running request. */
  | { id?: RpcId; type: 'abort' }
  /** Cancels a backoff sleep only. */
  | { id?: RpcId; type: 'abort_retry' }
  /** Turns automatic retry on or off. */
  | { id?: RpcId; type: 'set_auto_retry'; enabled: boolean }
  /** Answers with the session's {@link RpcState}. */
  | { id?: RpcId; type: 'get_state' };

/** The command names: `prompt`, `abort`, `abort_retry`, `set_auto_retry`, `get_state`. */
export type RpcCommandType = RpcCommand['type'];

/** What `get_state` answers. */
export interface RpcState {
  autoRetryEnabled: boolean;
  isRetrying: boolean;
  /** Whether a turn is running. */
  isRunning: boolean;
  /** Retries in the running chain (0 = idle). */
  retryAttempt: number;
  /** Messages in the context sent to the model. */
  messageCount: number;
}

/**
 * The answer to one command. `id` is the command's (`null` when the line could not be read); `command` is its
 * type (`null` likewise). `data`: the turn result for `prompt`, the state for `get_state`, absent otherwise.
 */
export type RpcResponse =
  | { type: 'response'; id: RpcId | null; command: string | null; success: true; data?: unknown }
  | { type: 'response'; id: RpcId | null; command: string | null; success: false; error: SerializedError };

/** Every line the server writes. */
export type RpcServerLine<M extends SessionMessage = SessionMessage> = RpcResponse | SessionEvent<M>;

/** What the server needs of a session; `AgentSession` has it all. */
export interface RpcSession {
  prompt(text: string): Promise<unknown>;
  abort(): void;
  abortRetry(): void;
  setAutoRetryEnabled(enabled: boolean): void;
  readonly autoRetryEnabled: boolean;
  readonly isRetrying: boolean;
  readonly isRunning: boolean;
  readonly retryAttempt: number;
  readonly messages: readonly unknown[];
  subscribe(listener: (event: SessionEvent) => void): () => void;
}
