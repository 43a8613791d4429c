import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { RpcError } from '../../src/errors/rpc-error.js';
import type { SessionEvent } from '../../src/session/events.js';
import { checkFunction, checkTimeoutMs } from '../../src/util/validate.js';
import type { RpcCommand, RpcResponse, RpcState } from './protocol.js';

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
  /** Sees every line the server writes, parsed (responses included): for logging and protocol tests. */
  onLine?: (line: object) => void;
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
  readonly #ended: Promise<void>;
  #nextId = 1;
  #stderr = '';
  #closedReason: string | undefined;

  constructor(options: RpcClientOptions) {
    checkFunction('onLine', options.onLine);
    this.#onLine = options.onLine;
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
    }
    const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
    lines.on('line', (line) => this.#receive(line));
    lines.once('close', () => this.#shutDown('The RPC server closed its output'));
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
      this.#pending.set(id, { resolve, reject, command: command.type });
      this.writeLine(JSON.stringify({ ...command, id }));
    });
  }

  /** Writes one raw line to the server (for diagnostics and protocol tests; a response without an id goes to `onLine`). */
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

  #receive(raw: string): void {
    if (raw.trim() === '') return;
    let line: { type?: unknown; id?: unknown };
    try {
      line = JSON.parse(raw) as typeof line;
    } catch {
      return; // Not protocol output (a stray log line); ignore it.
    }
    this.#onLine?.(line);
    if (line.type !== 'response') {
      for (const listener of [...this.#listeners]) {
        try {
          listener(line as SessionEvent);
        } catch {
          // A throwing listener never breaks the client.
        }
      }
      return;
    }
    const response = line as RpcResponse;
    const pending = typeof response.id === 'number' ? this.#pending.get(response.id) : undefined;
    if (pending === undefined) return;
    this.#pending.delete(response.id as number);
    if (response.success) pending.resolve(response.data);
    else {
      pending.reject(
        new RpcError({
          message: response.error.message,
          remoteName: response.error.name,
          command: pending.command,
        }),
      );
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
