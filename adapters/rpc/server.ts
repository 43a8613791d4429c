import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { serializeError } from '../../src/session/events.js';
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
  /** Resolves when the input has ended and every command read has been answered. */
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
 * concurrently (an `abort` is answered while a `prompt` runs); a `prompt` is answered when its turn ends.
 */
export async function runRpcServer(options: RpcServerOptions): Promise<RpcServer> {
  const session = options.session ?? (await options.createSession?.());
  if (session === undefined)
    throw new TypeError('runRpcServer needs a `session` or a `createSession` function.');
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const write = (line: object) => {
    output.write(`${safeStringify(line)}\n`);
  };
  const unsubscribe = session.subscribe((event) => write(event));
  const inFlight = new Set<Promise<void>>();
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });

  lines.on('line', (line) => {
    if (line.trim() === '') return;
    const task = handle(session, line).then(write);
    inFlight.add(task);
    void task.finally(() => inFlight.delete(task));
  });
  const closed = new Promise<void>((resolve) => {
    lines.once('close', () => {
      void Promise.all(inFlight).then(() => {
        unsubscribe();
        resolve();
      });
    });
  });
  return {
    session,
    closed,
    close: () => {
      unsubscribe();
      lines.close();
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
      `Line is not valid JSON: ${preview(line)}. Send one JSON object per line.`,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return failure(
      null,
      null,
      'RpcParseError',
      `Expected a JSON object with a "type"; got ${preview(line)}.`,
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

function preview(line: string): string {
  return JSON.stringify(line.length > 80 ? `${line.slice(0, 80)}…` : line);
}

/** JSON of an event; values JSON cannot hold (cycles, BigInt) become a note instead of killing the server. */
function safeStringify(value: object): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    const type = (value as { type?: unknown }).type;
    return JSON.stringify({ type, unserializable: true, error: serializeError(error).message });
  }
}
