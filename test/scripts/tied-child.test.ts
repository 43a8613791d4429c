/**
 * A child process never outlives the process that started it, however that one ends: the throwaway redis-server and
 * a Node child of a real parent process are gone once the parent exits, throws, or is killed by SIGTERM or SIGKILL.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { redisServerInstalled } from '../../scripts/redis-server.js';
import { childrenDieWithParent, tiedToParent } from '../../scripts/tied-child.js';
import { runChild } from '../child.js';
import type { ParentReport } from './fixtures/parent.js';

const parent = fileURLToPath(new URL('./fixtures/parent.ts', import.meta.url));

/** A process's start time (clock ticks since boot, /proc/<pid>/stat field 22) and state; `undefined` once reaped. */
function stat(pid: number): { start: string; state: string } | undefined {
  try {
    // The command name (field 2) is in parentheses and may hold spaces: the fields after it start after the last ')'.
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0]!, start: fields[19]! };
  } catch {
    return undefined;
  }
}

/** Whether the process that had `start` as its start time still runs: not reaped, not a zombie, PID not reused. */
function running(pid: number, start: string): boolean {
  const now = stat(pid);
  return now !== undefined && now.start === start && now.state !== 'Z' && now.state !== 'X';
}

const plan = childrenDieWithParent() ? 'run' : process.env.CI === 'true' ? 'fail' : 'skip';
const message =
  "children are not tied to their parent here: it needs Linux and util-linux's setpriv 2.33+ (`setpriv --pdeathsig`)";
if (plan === 'skip') console.warn(`${message}; the tests that check it are skipped.`);

describe.skipIf(plan === 'skip')('a child dies with the process that started it', () => {
  it.skipIf(plan !== 'fail')('needs setpriv', () => {
    throw new Error(message);
  });

  // A start through tsx may take long on a loaded machine: the hang bound is a parent silent for minutes, and the
  // test has no time limit of its own. The kernel kills the children as the parent dies: the wait for them to be
  // gone is bounded only against a mechanism that does not work.
  it.skipIf(plan !== 'run').for(['exit', 'throw', 'SIGTERM', 'SIGKILL'] as const)(
    'the parent ends by %s: its redis-server and its Node child are gone',
    { timeout: 0 },
    async (how, { signal }) => {
      let children: Array<{ name: string; pid: number; start: string }> = [];
      const outcome = await runChild(parent, [how.startsWith('SIG') ? 'wait' : how], {
        killWhenSilentMs: 180_000,
        signal,
        drive: (child) => {
          child.stdout.once('data', (chunk: Buffer) => {
            const report = JSON.parse(String(chunk)) as ParentReport;
            // Read while the parent runs, so a PID reused later is not mistaken for the child.
            children = report.children.map((c) => ({ ...c, start: stat(c.pid)?.start ?? 'gone already' }));
            if (how === 'SIGTERM' || how === 'SIGKILL') child.kill(how);
          });
        },
      });
      expect(outcome.killed).toBe(false);
      expect(outcome.code ?? outcome.signal).toBe(
        { exit: 0, throw: 1, SIGTERM: 'SIGTERM', SIGKILL: 'SIGKILL' }[how],
      );
      expect(children.map((c) => c.name)).toEqual([
        ...(redisServerInstalled() ? ['redis-server'] : []),
        'node',
      ]);
      expect(children.every((c) => c.start !== 'gone already')).toBe(true);
      await vi.waitFor(
        () => expect(children.filter((c) => running(c.pid, c.start)).map((c) => c.name)).toEqual([]),
        { timeout: 60_000, interval: 20 },
      );
    },
  );

  it.skipIf(plan !== 'run')('a child whose parent died before it was tied never runs its command', () => {
    // What a child finds when its parent died between the fork and setpriv's prctl: another parent (it was adopted).
    const line = tiedToParent('echo', ['ran']);
    const adopted = line.args.map((arg) => (arg === String(process.pid) ? '1' : arg));
    const result = spawnSync(line.command, adopted, { encoding: 'utf8' });
    expect({ status: result.status, stdout: result.stdout }).toEqual({ status: 1, stdout: '' });
    expect(spawnSync(line.command, line.args, { encoding: 'utf8' }).stdout).toBe('ran\n');
  });
});
