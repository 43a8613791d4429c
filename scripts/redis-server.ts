/**
 * A throwaway redis-server for the Redis tests, the Redis benchmark and the demo: Debian's `redis-server` on a free
 * loopback port in a temporary folder, no persistence, stopped by its PID, and killed with the process that started
 * it however that one ends (`tied-child.ts`).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tiedToParent } from './tied-child.js';

export const redisServerPath = 'redis-server';

/** Whether Debian's `redis-server` (or any on PATH) runs. */
export const redisServerInstalled = (): boolean =>
  spawnSync(redisServerPath, ['--version'], { stdio: 'ignore' }).status === 0;

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A running redis-server. */
export interface RedisServer {
  readonly port: number;
  readonly url: string;
  readonly pid: number;
  /** Stops it by PID (SIGKILL: no shutdown save) and waits for the exit. */
  stop(): Promise<void>;
  /** Stops it and starts a fresh, empty one on the same port (a restart without persistence). */
  restart(): Promise<void>;
  /** Stops it for good and removes its folder. */
  close(): Promise<void>;
}

/**
 * Starts redis-server (`command`, default `redis-server` on PATH) on a free port; resolves once it accepts
 * connections, rejects (with the end of its log) if it exits before. No time limit: a loaded machine may take long
 * to start it, and a start that fails ends in its exit.
 */
export async function startRedis({
  command = redisServerPath,
}: {
  command?: string;
} = {}): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'graceful-ai-redis-'));
  const log = join(dir, 'redis.log');
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const line = tiedToParent(command, [
      ...['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      ...['--dir', dir, '--logfile', log],
    ]);
    const started = spawn(line.command, line.args, { stdio: 'ignore' });
    child = started;
    const exited = new Promise<string>((resolve) => {
      started.once('exit', (code, signal) => resolve(`exited (${signal ?? code})`));
      started.once('error', (error) => resolve(`failed to start (${error.message})`));
    });
    if (!(await untilListening(port, exited))) {
      child = undefined;
      throw new Error(`redis-server ${await exited} before listening on port ${port}: ${tail(log)}`);
    }
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (running?.pid === undefined || running.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    process.kill(running.pid, 'SIGKILL');
    await exited;
  };
  try {
    await start();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    get pid() {
      return child?.pid ?? -1;
    },
    stop,
    restart: async () => {
      await stop();
      await start();
    },
    close: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves `true` once something accepts a connection on `port`, `false` if `exited` settles first. */
async function untilListening(port: number, exited: Promise<unknown>): Promise<boolean> {
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  while (!gone) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = new Socket();
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
      socket.connect(port, '127.0.0.1');
    });
    if (ok) return !gone;
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 25))]);
  }
  return false;
}

/** The end of redis-server's log, for an error message. */
function tail(log: string): string {
  try {
    return readFileSync(log, 'utf8').trim().split('\n').slice(-3).join(' | ') || '(empty log)';
  } catch {
    return '(no log)';
  }
}
