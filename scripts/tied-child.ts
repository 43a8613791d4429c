/**
 * Child processes that never outlive the process that started them, however it ends: a normal exit, an uncaught
 * exception, SIGTERM, or SIGKILL (which no exit handler sees). On Linux the kernel does it: util-linux's `setpriv`
 * sets the child's parent-death signal (`prctl(PR_SET_PDEATHSIG, SIGKILL)`) and then runs the command in its place, so
 * the child is killed the moment its parent dies. Used for the throwaway `redis-server` (which cannot watch its
 * parent itself), the demo's child processes and the tests' child processes.
 *
 * Linux sends the signal when the THREAD that spawned the child ends: a child spawned in a worker thread (a vitest
 * worker) dies with that worker. Where `setpriv` is missing (macOS, a minimal Alpine image) the command runs as it is:
 * the code that starts a child still stops it on its own way out, but a parent killed by a signal leaves it running.
 */
import { spawnSync } from 'node:child_process';

/** A command line: what to pass to `spawn(command, args, options)`. */
export interface CommandLine {
  command: string;
  args: string[];
}

let supported: boolean | undefined;

/** Whether this machine ties children to their parent (`setpriv --pdeathsig`, util-linux 2.33 or later). */
export function childrenDieWithParent(): boolean {
  supported ??=
    process.platform === 'linux' &&
    spawnSync('setpriv', ['--pdeathsig', 'KILL', '--', 'true'], { stdio: 'ignore' }).status === 0;
  return supported;
}

/**
 * `command args…` as a command line whose process is killed when this process dies (see the file comment). Between
 * the fork and `setpriv`'s `prctl` the parent could die unseen; `sh` closes that gap: it runs the command only if its
 * parent is still this process (a child whose parent died earlier has been adopted by another).
 */
export function tiedToParent(command: string, args: readonly string[]): CommandLine {
  if (!childrenDieWithParent()) return { command, args: [...args] };
  const runIfParentIsAlive = '[ "$PPID" = "$0" ] && exec "$@"';
  return {
    command: 'setpriv',
    args: [
      '--pdeathsig',
      'KILL',
      '--',
      'sh',
      '-c',
      runIfParentIsAlive,
      String(process.pid),
      command,
      ...args,
    ],
  };
}
