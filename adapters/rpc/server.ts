import type { Readable, Writable } from 'node:stream';
import { serializeError } from '../../src/session/events.js';
import { encodeFrame, previewLine, readFrames } from './framing.js';
import type { RpcCommandType, RpcId, RpcResponse, RpcSession, RpcState } from './protocol.js';

/** Options of {@link runRpcServer}. */
export interface RpcServerOptions {
  /** The session to serve. Give this or `createSession`. */
  session?: RpcSession;
  /** Creates the session to serve (called once, at start). */
  createSession?: () => RpcSession | Promise<RpcSession>;
  /** Where commands come from (default `process.stdin`). */
  input?: Readable;
  /** Where responses and events go (default `process.stdout`). */
  output?: Writable;
}

/** A running server, as {@link runRpcServer} resolves it. */
export interface RpcServer {
  /** The session being served. */
  readonly session: RpcSession;
  /**
   * Resolves when the input has ended (or {@link RpcServer.close} was called) and every command read has been
   * answered; also when the output broke (EPIPE: the client closed its end), after the running turn was aborted.
   */
  readonly closed: Promise<void>;
  /** Stops reading commands and forwarding events; in-flight commands still get their response. */
  close(): void;
}

const commandTypes: ReadonlySet<string> = new Set<RpcCommandType>([
  'prompt',
  'abort',
  'abort_retry',
  'set_auto_retry',
  'get_state',
]);

/**
 * Serves a session over JSON lines (see `protocol.ts` and docs/session.md): reads one command per line from
 * `input`, writes one response line per command and every session event to `output`. A malformed line, an
 * unknown command or a command with bad fields gets an error response; the server keeps running. Commands run
 * concurrently (an `abort` is answered while a `prompt` runs); a `prompt` is answered when its turn ends. Lines
 * are framed by `framing.ts` (`\n` only; U+2028/U+2029 escaped). If the output fails (EPIPE), the server stops
 * writing and reading and aborts the running turn: no uncaught error, and `closed` resolves.
 */
export async function runRpcServer(options: RpcServerOptions): Promise<RpcServer> {
  const session = options.session ?? (await options.createSession?.());
  if (session === undefined)
    throw new TypeError('runRpcServer needs a `session` or a `createSession` function.');
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  let outputBroken = false;
  const write = (line: object) => {
    if (!outputBroken) output.write(safeFrame(line));
  };
  const unsubscribe = session.subscribe((event) => write(event));
  const inFlight = new Set<Promise<void>>();
  let ended: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    ended = () => {
      void Promise.all(inFlight).then(() => {
        unsubscribe();
        resolve();
      });
    };
  });
  const stopReading = readFrames(
    input,
    (line) => {
      const task = handle(session, line).then(write);
      inFlight.add(task);
      void task.finally(() => inFlight.delete(task));
    },
    () => ended(),
  );
  // EPIPE: the client closed its end of our output. Nobody can read an answer any more, so stop writing, stop
  // reading, and end the running turn; `closed` then resolves as after the input's end. Without this listener the
  // error would be uncaught and kill the process.
  output.on('error', () => {
    if (outputBroken) return;
    outputBroken = true;
    unsubscribe();
    stopReading();
    try {
      session.abort();
    } catch {
      // Nothing to report it to: the output is gone.
    }
  });
  return {
    session,
    closed,
    close: () => {
      unsubscribe();
      stopReading();
    },
  };
}

async function handle(session: RpcSession, line: string): Promise<RpcResponse> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return failure(
      null,
      null,
      'RpcParseError',
      `Line is not valid JSON: ${previewLine(line)}. Send one JSON object per line.`,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return failure(
      null,
      null,
      'RpcParseError',
      `Expected a JSON object with a "type"; got ${previewLine(line)}.`,
    );
  }
  const command = parsed as { id?: unknown; type?: unknown; text?: unknown; enabled?: unknown };
  const id = typeof command.id === 'string' || typeof command.id === 'number' ? command.id : null;
  const type = typeof command.type === 'string' ? command.type : null;
  if (type === null || !commandTypes.has(type)) {
    return failure(
      id,
      type,
      'RpcUnknownCommand',
      `Unknown command ${JSON.stringify(command.type)}; expected one of ${[...commandTypes].join(', ')}.`,
    );
  }
  const ok = (data?: unknown): RpcResponse =>
    data === undefined
      ? { type: 'response', id, command: type, success: true }
      : { type: 'response', id, command: type, success: true, data };
  try {
    switch (type as RpcCommandType) {
      case 'prompt':
        if (typeof command.text !== 'string') {
          return failure(id, type, 'RpcInvalidCommand', 'The prompt command needs a string "text".');
        }
        return ok(await session.prompt(command.text));
      case 'abort':
        session.abort();
        return ok();
      case 'abort_retry':
        session.abortRetry();
        return ok();
      case 'set_auto_retry':
        if (typeof command.enabled !== 'boolean') {
          return failure(
            id,
            type,
            'RpcInvalidCommand',
            'The set_auto_retry command needs a boolean "enabled".',
          );
        }
        session.setAutoRetryEnabled(command.enabled);
        return ok();
      case 'get_state':
        return ok(stateOf(session));
    }
  } catch (error) {
    return { type: 'response', id, command: type, success: false, error: serializeError(error) };
  }
}

function stateOf(session: RpcSession): RpcState {
  return {
    autoRetryEnabled: session.autoRetryEnabled,
    isRetrying: session.isRetrying,
    isRunning: session.isRunning,
    retryAttempt: session.retryAttempt,
    messageCount: session.messages.length,
  };
}

function failure(id: RpcId | null, command: string | null, name: string, message: string): RpcResponse {
  return { type: 'response', id, command, success: false, error: { name, message } };
}

/**
 * One frame of a line; values JSON cannot hold (cycles, BigInt) become a note instead of killing the server. A
 * response becomes a failure of its command (`RpcUnserializable`), so the client's call rejects instead of waiting
 * forever for an answer that never came.
 */
function safeFrame(value: object): string {
  try {
    return encodeFrame(value);
  } catch (error) {
    const message = serializeError(error).message;
    const {
      type,
      id = null,
      command = null,
    } = value as { type?: unknown; id?: RpcId | null; command?: string | null };
    if (type !== 'response') return encodeFrame({ type, unserializable: true, error: message });
    return encodeFrame(
      failure(id, command, 'RpcUnserializable', `The answer could not be sent as JSON (${message}).`),
    );
  }
}
