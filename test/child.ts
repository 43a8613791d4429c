/** Runs a TypeScript file as a child Node process, for the tests that a crash or a hang must not take the runner down. */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

/** How a child ended. `killed`: it was still running at the kill timeout (a hang, for the tests that use it). */
export interface ChildOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  killed: boolean;
  stdout: string;
  stderr: string;
}

export type Child = ChildProcessByStdio<Writable, Readable, Readable>;

/**
 * Spawns `node --import tsx <file> ...args`; `drive` may talk to it (its stdin, stdout) while it runs. Resolves when
 * it exits; a child still running after `killAfterMs` (generous: it marks a hang, never a time measurement) is killed.
 */
export function runChild(
  file: string,
  args: readonly string[] = [],
  { killAfterMs = 30_000, drive }: { killAfterMs?: number; drive?: (child: Child) => void } = {},
): Promise<ChildOutcome> {
  const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let killed = false;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  child.stdin.on('error', () => {}); // The child may exit before reading what a test sent.
  const killer = setTimeout(() => {
    killed = true;
    child.kill('SIGKILL');
  }, killAfterMs);
  drive?.(child);
  return new Promise((resolve) => {
    child.once('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, killed, stdout, stderr });
    });
  });
}
