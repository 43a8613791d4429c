/** Child processes for the Redis tests and the herd benchmark: each runs `fixtures/worker.ts` with one job. */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { tiedToParent } from '../../scripts/tied-child.js';
import type { Job } from './fixtures/worker.js';

const here = dirname(fileURLToPath(import.meta.url));
export const workerPath = join(here, 'fixtures', 'worker.ts');

let bundle: Promise<string> | undefined;

/**
 * The worker as one JavaScript file (esbuild, everything bundled), built once per test file: a child then starts in
 * a fraction of the time `tsx` needs to compile the sources in every process.
 */
export function workerBundle(): Promise<string> {
  bundle ??= (async () => {
    const outfile = join(mkdtempSync(join(tmpdir(), 'graceful-ai-worker-')), 'worker.mjs');
    await build({
      entryPoints: [workerPath],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile,
      logLevel: 'error',
      // CommonJS dependencies inside an ES module bundle still call require.
      banner: {
        js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
      },
    });
    return outfile;
  })();
  return bundle;
}

/** A started worker: its process (for its PID), its first output line, and its exit. */
export interface Worker {
  child: ChildProcess;
  /** The first JSON line it printed. */
  firstLine: Promise<Record<string, unknown>>;
  exited: Promise<number | null>;
}

/**
 * Starts a worker from the bundle (`workerBundle()` must have resolved: see `beforeAll` in the tests), tied to this
 * process: it dies with it.
 */
export function startWorker(bundlePath: string, job: Job): Worker {
  const line = tiedToParent(process.execPath, [bundlePath, JSON.stringify(job)]);
  const child = spawn(line.command, line.args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const firstLine = new Promise<Record<string, unknown>>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const newline = out.indexOf('\n');
      if (newline >= 0) resolve(JSON.parse(out.slice(0, newline)) as Record<string, unknown>);
    });
    void exited.then((code) =>
      reject(new Error(`worker ${job.mode} exited (${code}) without output: ${err}`)),
    );
  });
  return { child, firstLine, exited };
}

/** Runs a worker to its end and returns what it printed. */
export async function runWorker(bundlePath: string, job: Job): Promise<Record<string, unknown>> {
  const worker = startWorker(bundlePath, job);
  const [line] = await Promise.all([worker.firstLine, worker.exited]);
  return line;
}
