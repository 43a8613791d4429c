/** Running commands for the packaging checks (scripts/pack-check.ts, test/next): output on success, all of it on failure. */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';

/** The repository root. */
export const root = resolve(import.meta.dirname, '..');

/** The environment with the repository's own tools (Node 24, tsc, …) first on PATH. */
export const toolEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH}`,
  ...extra,
});

/** Runs `cmd` and returns its stdout; a failure throws with the command, the folder and everything it printed. */
export function run(cmd: string, args: string[], cwd: string, env = toolEnv()): string {
  try {
    return execFileSync(cmd, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}:\n${stdout}${stderr}`, { cause: error });
  }
}

/** `npm pack` of the package (its `prepack` builds dist/) into `destination`; returns the tarball's path. */
export function packInto(destination: string): string {
  const packed = JSON.parse(
    run('npm', ['pack', '--json', '--pack-destination', destination], root),
  ) as Array<{
    filename: string;
  }>;
  return join(destination, packed[0]!.filename);
}
