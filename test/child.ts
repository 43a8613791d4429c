/** Runs a TypeScript file as a child Node process, for the tests that a crash or a hang must not take the runner down. */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { tiedToParent } from '../scripts/tied-child.js';

/** How a child ended. `killed`: it was killed as hung (see {@link RunChildOptions}) or when `signal` aborted. */
export interface ChildOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  killed: boolean;
  stdout: string;
  stderr: string;
}

export type Child = ChildProcessByStdio<Writable, Readable, Readable>;

export interface RunChildOptions {
  /**
   * A child still running this long after its start is killed as hung (default 30 s; generous: it marks a hang,
   * never a time measurement). For short programs whose hang is "does not exit".
   */
  killAfterMs?: number;
  /**
   * Instead of `killAfterMs`: the child is killed as hung only once it has written nothing (stdout or stderr) for
   * this long. For long programs that report as they go: a loaded machine slows every step, never kills a run that
   * keeps writing.
   */
  killWhenSilentMs?: number;
  /** Kills the child when it aborts (pass the test's `signal`: vitest aborts it when the test ends early). */
  signal?: AbortSignal;
  /** May talk to the child (its stdin, stdout) while it runs. */
  drive?: (child: Child) => void;
}

/**
 * Spawns `node --import tsx <file> ...args`, tied to this process (killed with it however it ends, on Linux), and
 * resolves when it exits.
 */
export function runChild(
  file: string,
  args: readonly string[] = [],
  { killAfterMs = 30_000, killWhenSilentMs, signal, drive }: RunChildOptions = {},
): Promise<ChildOutcome> {
  const line = tiedToParent(process.execPath, ['--import', 'tsx', file, ...args]);
  const child = spawn(line.command, line.args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let killed = false;
  const kill = () => {
    killed = true;
    child.kill('SIGKILL');
  };
  const hang = setTimeout(kill, killWhenSilentMs ?? killAfterMs);
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    if (killWhenSilentMs !== undefined) hang.refresh();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    if (killWhenSilentMs !== undefined) hang.refresh();
  });
  child.stdin.on('error', () => {}); // The child may exit before reading what a test sent.
  signal?.addEventListener('abort', kill, { once: true });
  drive?.(child);
  return new Promise((resolve) => {
    child.once('close', (code, exitSignal) => {
      clearTimeout(hang);
      signal?.removeEventListener('abort', kill);
      resolve({ code, signal: exitSignal, killed, stdout, stderr });
    });
  });
}
