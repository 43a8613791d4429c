/**
 * examples/next-app as a user would build and run it: graceful-ai packed (`npm pack`, which builds dist/) and
 * installed from the tarball next to the app's locked `next`, `react`, `react-dom` and `ai`; then `next build` with
 * Turbopack (the default) and with `--webpack`, each followed by `next start` on a free port. Both routes (edge and
 * node) stream from a mock model whose first stream is cut mid-answer; the body must be the whole answer, each
 * character once. Run with `npm run test:next` (not part of `npm test`: it installs Next.js and builds twice).
 * The app pins next 16.2.12: later releases fail `next build --webpack` on any edge route (docs/runtimes.md).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packInto, root, run as runIn, toolEnv } from '../../scripts/run.js';

const ANSWER = 'Paris is the capital of France.';
const app = join(root, 'examples', 'next-app');
const nextBin = join(app, 'node_modules', 'next', 'dist', 'bin', 'next');
const env = toolEnv({ NEXT_TELEMETRY_DISABLED: '1' });
const run = (cmd: string, args: string[], cwd: string) => runIn(cmd, args, cwd, env);

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** `next start` in its own process group, so that stopping it leaves no process behind. */
async function start(port: number): Promise<{ server: ChildProcess; output: () => string }> {
  let output = '';
  const server = spawn(process.execPath, [nextBin, 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: app,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (chunk) => (output += chunk));
  server.stderr!.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`next start exited with ${server.exitCode}:\n${output}`);
    try {
      await fetch(`http://127.0.0.1:${port}/`);
      return { server, output: () => output };
    } catch {
      if (Date.now() > deadline) throw new Error(`next start did not listen on ${port}:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

async function stop(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = once(server, 'exit');
  process.kill(-server.pid!, 'SIGTERM');
  const timer = setTimeout(() => {
    try {
      process.kill(-server.pid!, 'SIGKILL');
    } catch {}
  }, 5_000);
  await exited;
  clearTimeout(timer);
}

const durations: Record<string, number> = {};
const timed = <T>(label: string, fn: () => T): T => {
  const t0 = performance.now();
  try {
    return fn();
  } finally {
    durations[label] = Math.round(performance.now() - t0);
  }
};

let work: string;
const started: ChildProcess[] = [];

beforeAll(() => {
  const t0 = performance.now();
  work = mkdtempSync(join(tmpdir(), 'graceful-ai-next-'));
  timed('npm ci (app)', () => run('npm', ['ci', '--no-audit', '--no-fund'], app));
  const tarball = timed('npm pack', () => packInto(work));
  // --no-save: package.json and the app's lockfile stay as committed.
  timed('install tarball', () =>
    run('npm', ['install', '--no-save', '--no-audit', '--no-fund', tarball], app),
  );
  durations.setup = Math.round(performance.now() - t0);
});

afterAll(async () => {
  await Promise.all(started.map(stop));
  if (work) rmSync(work, { recursive: true, force: true });
  console.log(`test:next durations (ms): ${JSON.stringify(durations)}`);
});

describe.each([
  { bundler: 'Turbopack', flags: [] as string[] },
  { bundler: 'webpack', flags: ['--webpack'] },
])('examples/next-app built with $bundler', ({ bundler, flags }) => {
  it('streams the recovered answer from the edge and the node route, each character once', async () => {
    rmSync(join(app, '.next'), { recursive: true, force: true });
    const log = timed(`next build (${bundler})`, () =>
      run(process.execPath, [nextBin, 'build', ...flags], app),
    );
    expect(log).toContain(`(${bundler})`);
    expect(log).toMatch(/ƒ \/api\/edge/);
    expect(log).toMatch(/ƒ \/api\/node/);

    const t0 = performance.now();
    const port = await freePort();
    const { server, output } = await start(port);
    started.push(server);
    try {
      for (const route of ['edge', 'node']) {
        const response = await fetch(`http://127.0.0.1:${port}/api/${route}`);
        const body = await response.text();
        expect({ route, status: response.status, body }, output()).toEqual({
          route,
          status: 200,
          body: ANSWER,
        });
        expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      }
    } finally {
      await stop(server);
      durations[`next start + requests (${bundler})`] = Math.round(performance.now() - t0);
    }
  });
});
