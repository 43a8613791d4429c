import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { RpcError } from '../../src/errors/rpc-error.js';
import type { SessionEvent } from '../../src/session/events.js';
import { errorText } from '../../src/util/error-text.js';
import { defaultLogger } from '../../src/util/logger.js';
import { checkFunction, checkTimeoutMs } from '../../src/util/validate.js';
import { encodeFrame, previewLine, readFrames } from './framing.js';
import type { RpcCommand, RpcState } from './protocol.js';

/** Spawn an RPC server process (its stdin/stdout carry the protocol; stderr is kept for error messages). */
export interface RpcSpawnOptions {
  command: string;
  args?: readonly string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

/** Talk to a server over streams you already have. */
export interface RpcStreamOptions {
  /** The server's output (responses and events). */
  input: Readable;
  /** The server's input (commands). */
  output: Writable;
}

/** Options of {@link RpcClient}: spawn a server process, or talk over given streams. */
export type RpcClientOptions = (RpcSpawnOptions | RpcStreamOptions) & {
  /** Sees every line the server writes that is a JSON object (responses included): for logging and protocol tests. */
  onLine?: (line: object) => void;
  /**
   * Sees every line the client cannot use, with why: not JSON (a stray log line), not an object with a string
   * `type`, or a response to no pending command. Default: a `warn` line in the debug log (`NODE_DEBUG=graceful-ai`).
   */
  onStrayLine?: (line: string, reason: string) => void;
};

type Pending = { resolve: (data: unknown) => void; reject: (error: unknown) => void; command: string };

/**
 * The client side of `graceful-ai/rpc`: spawns a server process (or takes streams), sends commands, matches each
 * response to its command by `id`, and hands session events to subscribers. A command the server answers with
 * `success: false` rejects with `RpcError` (`remoteName` = the server-side error's name); when the server goes
 * away, every pending command rejects with `RpcError`.
 */
export class RpcClient {
  /** The spawned server process, when this client spawned one. */
  readonly process: ChildProcessByStdio<Writable, Readable, Readable> | undefined;
  readonly #output: Writable;
  readonly #pending = new Map<number, Pending>();
  readonly #listeners = new Set<(event: SessionEvent) => void>();
  readonly #onLine: ((line: object) => void) | undefined;
  readonly #onStrayLine: (line: string, reason: string) => void;
  readonly #ended: Promise<void>;
  #nextId = 1;
  #stderr = '';
  #closedReason: string | undefined;

  constructor(options: RpcClientOptions) {
    checkFunction('onLine', options.onLine);
    checkFunction('onStrayLine', options.onStrayLine);
    this.#onLine = options.onLine;
    this.#onStrayLine =
      options.onStrayLine ??
      ((line, reason) =>
        defaultLogger.warn(`RpcClient ignored a line: ${reason}`, { line: line.slice(0, 200) }));
    let input: Readable;
    if ('command' in options) {
      const child = spawn(options.command, [...(options.args ?? [])], {
        cwd: options.cwd,
        env: options.env,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      this.process = child;
      input = child.stdout;
      this.#output = child.stdin;
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => {
        this.#stderr = (this.#stderr + chunk).slice(-4000);
      });
      child.stdin.on('error', () => {}); // EPIPE after the child died: reported through the pending commands.
      this.#ended = new Promise((resolve) => {
        child.once('close', (code, signal) => {
          this.#shutDown(`The RPC server exited (${signal ?? `code ${code}`})`);
          resolve();
        });
        child.once('error', (error) => {
          this.#shutDown(`The RPC server could not start: ${error.message}`);
          resolve();
        });
      });
    } else {
      input = options.input;
      this.#output = options.output;
      this.#ended = new Promise((resolve) => input.once('close', resolve));
      // A write to a server that is gone (EPIPE) fails the pending commands instead of the host process.
      this.#output.on('error', (error) =>
        this.#shutDown(`Writing to the RPC server failed (${errorText(error)})`),
      );
    }
    readFrames(
      input,
      (line) => this.#receive(line),
      () => this.#shutDown('The RPC server closed its output'),
    );
  }

  /** Runs one user turn; resolves with the turn result when the turn (and any retry chain) has ended. */
  prompt(text: string): Promise<unknown> {
    return this.send({ type: 'prompt', text });
  }

  /** Cancels a backoff sleep, then aborts the running request. */
  async abort(): Promise<void> {
    await this.send({ type: 'abort' });
  }

  /** Cancels a backoff sleep. */
  async abortRetry(): Promise<void> {
    await this.send({ type: 'abort_retry' });
  }

  async setAutoRetry(enabled: boolean): Promise<void> {
    await this.send({ type: 'set_auto_retry', enabled });
  }

  async getState(): Promise<RpcState> {
    return (await this.send({ type: 'get_state' })) as RpcState;
  }

  /** Receives every session event the server forwards; returns the unsubscribe function. */
  subscribe(listener: (event: SessionEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Sends a command (an `id` is assigned) and resolves with the response's `data`. */
  send(command: RpcCommand): Promise<unknown> {
    if (this.#closedReason !== undefined) {
      return Promise.reject(
        new RpcError({
          message: `${this.#closedReason}; cannot send '${command.type}'. Create a new RpcClient (a new server) to continue.`,
          command: command.type,
        }),
      );
    }
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const frame = encodeFrame({ ...command, id });
      this.#pending.set(id, { resolve, reject, command: command.type });
      this.#output.write(frame);
    });
  }

  /**
   * Writes one raw line to the server, as given plus `\n` (for diagnostics and protocol tests; a response without
   * an id goes to `onLine`).
   */
  writeLine(line: string): void {
    this.#output.write(`${line}\n`);
  }

  /** Ends the server's input and waits for it to finish (a spawned process is killed if it has not exited after `timeoutMs`, default 2000). */
  async close(timeoutMs = 2000): Promise<void> {
    // The kill timer: a bad value would kill the server at once (NaN, > 2^31−1) or never.
    checkTimeoutMs('timeoutMs', timeoutMs);
    this.#output.end();
    const child = this.process;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const timer = setTimeout(() => child.kill(), timeoutMs);
    await this.#ended;
    clearTimeout(timer);
  }

  /** One line from the server. Never throws: whatever the server prints, the host process keeps running. */
  #receive(raw: string): void {
    const line = protocolLine(raw);
    if (typeof line === 'string') {
      this.#stray(raw, line);
      return;
    }
    this.#call('onLine', this.#onLine, line);
    if (line.type !== 'response') {
      for (const listener of [...this.#listeners]) this.#call('a subscriber', listener, line as SessionEvent);
      return;
    }
    const id = line.id;
    const pending = typeof id === 'number' ? this.#pending.get(id) : undefined;
    if (pending === undefined) {
      this.#stray(raw, 'a response to no pending command');
      return;
    }
    this.#pending.delete(id as number);
    const { success, data, error } = line;
    if (success === true) {
      pending.resolve(data);
      return;
    }
    const remote = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
    const what =
      success === false ? 'a failure without an error message' : 'a response without "success": true';
    const message =
      typeof remote.message === 'string'
        ? remote.message
        : `The RPC server answered '${pending.command}' with ${what}: ${previewLine(raw)}. Check the server's logs.`;
    pending.reject(
      new RpcError({
        message,
        remoteName: typeof remote.name === 'string' ? remote.name : undefined,
        command: pending.command,
      }),
    );
  }

  #stray(line: string, reason: string): void {
    this.#call('onStrayLine', this.#onStrayLine, line, reason);
  }

  /** Calls a caller's callback; a throw is logged, never allowed to reach the stream that delivered the line. */
  #call<A extends unknown[]>(what: string, callback: ((...args: A) => void) | undefined, ...args: A): void {
    try {
      callback?.(...args);
    } catch (error) {
      defaultLogger.error(`RpcClient: ${what} threw; the client goes on`, { error: errorText(error) });
    }
  }

  #shutDown(reason: string): void {
    if (this.#closedReason !== undefined) return;
    this.#closedReason = reason;
    const detail = this.#stderr.trim() ? `: ${this.#stderr.trim().split('\n').slice(-5).join('\n')}` : '';
    for (const [id, pending] of this.#pending) {
      this.#pending.delete(id);
      pending.reject(
        new RpcError({
          message: `${reason} before answering '${pending.command}'${detail}. Check the server's logs.`,
          command: pending.command,
        }),
      );
    }
  }
}

/** A line the server printed, parsed: an object with a string `type`, or why it is not one. */
function protocolLine(raw: string): ({ type: string } & Record<string, unknown>) | string {
  let line: unknown;
  try {
    line = JSON.parse(raw);
  } catch {
    return 'not JSON';
  }
  if (typeof line !== 'object' || line === null || Array.isArray(line)) return 'not a JSON object';
  const { type } = line as { type?: unknown };
  return typeof type === 'string' ? (line as { type: string }) : 'no string "type"';
}
