import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SessionLockedError } from '../../../src/errors/session-errors.js';
import type { JsonlSessionStore } from '../../../src/session/jsonl-store.js';
import {
  contents,
  deadPid,
  freshPath,
  fsError,
  generations,
  hasProc,
  openError,
  openStore,
  quiet,
  startTicks,
  topOfLock,
  user,
  writeLock,
} from './fixtures/session-files.js';

const child = resolve(dirname(fileURLToPath(import.meta.url)), 'fixtures/lock-child.ts');
const nodeArgs = ['--import', 'tsx', child];

function expectLocked(path: string, pattern?: RegExp): SessionLockedError {
  const error = openError(path);
  expect(SessionLockedError.isInstance(error), String(error)).toBe(true);
  if (pattern) expect((error as Error).message).toMatch(pattern);
  return error as SessionLockedError;
}

describe('session lock: who holds it', () => {
  it('is a directory of generations; the holder is named by pid, host, token (and boot id, start time on Linux)', () => {
    const path = freshPath();
    const store = openStore(path);
    expect(fs.statSync(`${path}.lock`).isDirectory()).toBe(true);
    const holder = topOfLock(path);
    expect(holder).toMatchObject({ pid: process.pid, host: hostname(), token: expect.any(String) });
    if (hasProc) expect(holder.startTicks).toBe(startTicks(process.pid));
    expectLocked(path, new RegExp(`in use by process ${process.pid} \\(lock ${path}\\.lock\\)`));
    store.close();
    expect(() => openStore(path)).not.toThrow();
  });

  it('generations only grow: a release is the next generation, and one file is left', () => {
    const path = freshPath();
    openStore(path).close();
    expect(generations(path)).toEqual([2]);
    expect(topOfLock(path)).toEqual({ released: true });
    openStore(path).close();
    expect(generations(path)).toEqual([4]);
  });

  it('a lock claiming this pid but not made by this process is stale: a restarted container PID 1', () => {
    const path = freshPath();
    writeLock(path, { pid: process.pid, token: 'the-previous-pid-1', startTicks: '1' });
    const store = openStore(path);
    expect(topOfLock(path).token).not.toBe('the-previous-pid-1');
    // Without /proc (no start time) the token alone tells it apart.
    store.close();
    writeLock(path, { pid: process.pid, token: 'the-previous-pid-1' }, 9);
    expect(() => openStore(path)).not.toThrow();
  });

  it.skipIf(!hasProc)('a lock of this process made elsewhere in it (another thread) is held', () => {
    const path = freshPath();
    writeLock(path, { pid: process.pid, token: 'a-worker-thread', startTicks: startTicks(process.pid) });
    expectLocked(path, new RegExp(`in use by process ${process.pid}`));
  });

  it.skipIf(!hasProc)('a live pid that now belongs to another process (a reused pid) is stale', () => {
    const path = freshPath();
    writeLock(path, { pid: process.ppid, startTicks: '1' });
    expect(() => openStore(path)).not.toThrow();
    const held = freshPath();
    writeLock(held, { pid: process.ppid, startTicks: startTicks(process.ppid) });
    expectLocked(held, new RegExp(`in use by process ${process.ppid}`));
  });

  it('a lock from another host is never taken over (its process cannot be checked from here)', () => {
    const path = freshPath();
    writeLock(path, { pid: deadPid(), host: 'build-agent-7' });
    const error = expectLocked(path, /on host build-agent-7 .*never taken over/);
    expect(error.host).toBe('build-agent-7');
  });

  it.skipIf(!existsSync('/proc/sys/kernel/random/boot_id'))('a lock from before a reboot is stale', () => {
    const path = freshPath();
    writeLock(path, { pid: process.ppid, bootId: 'an-earlier-boot' });
    expect(() => openStore(path)).not.toThrow();
  });

  it('isProcessAlive decides for a holder on this host', () => {
    const path = freshPath();
    writeLock(path, { pid: 4242 });
    expect(() => openStore(path, { isProcessAlive: (pid) => pid === 4242 })).toThrow(
      /in use by process 4242/,
    );
    expect(() => openStore(path, { isProcessAlive: () => false })).not.toThrow();
  });

  it('a release marker read half written (empty) is free', () => {
    const path = freshPath();
    mkdirSync(`${path}.lock`);
    writeFileSync(join(`${path}.lock`, '5'), '');
    openStore(path);
    expect(generations(path)).toEqual([6]);
  });

  it('when no release marker can be written (a full disk), closing still frees the file', () => {
    const path = freshPath();
    let diskFull = false;
    const store = openStore(
      path,
      {},
      {
        fs: {
          writeFileSync: (file, data, options) => {
            if (diskFull) throw fsError('ENOSPC', 'open');
            fs.writeFileSync(file, data, options);
          },
        },
      },
    );
    diskFull = true;
    store.close();
    expect(() => openStore(path)).not.toThrow();
  });
});

describe('session lock: taking it over is atomic', () => {
  it('of two openers that judged the same lock stale, exactly one gets it', () => {
    const path = freshPath();
    writeLock(path, { pid: deadPid() });
    let other: JsonlSessionStore | undefined;
    const raced = () =>
      openStore(
        path,
        {},
        {
          fs: {
            linkSync: (from, to) => {
              // Between judging the stale lock and taking it, another opener does both.
              other ??= openStore(path);
              fs.linkSync(from, to);
            },
          },
        },
      );
    expect(() => raced()).toThrow(SessionLockedError);
    expect(other).toBeDefined();
    expect(generations(path)).toEqual([2]);
    other!.append(user('only writer'));
  });

  it('a slow opener that took a number the lock has moved past withdraws', () => {
    const path = freshPath();
    writeLock(path, { pid: deadPid() });
    let holder: JsonlSessionStore | undefined;
    const slow = () =>
      openStore(
        path,
        {},
        {
          fs: {
            linkSync: (from, to) => {
              if (holder === undefined) {
                openStore(path).close(); // takes 2, releases with 3
                holder = openStore(path); // takes 4
              }
              fs.linkSync(from, to); // the slow opener takes 2 (removed meanwhile): it must see 4 and back off
            },
          },
        },
      );
    expect(() => slow()).toThrow(SessionLockedError);
    expect(generations(path)).toEqual([4]);
    expect(topOfLock(path).token).toBeDefined();
  });
});

/** Spawns the fixture process; resolves with its stdout once it exits. */
function run(args: string[], onStdout?: (text: string, proc: ChildProcess) => void) {
  const proc = spawn(process.execPath, [...nodeArgs, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  proc.stdout.setEncoding('utf8');
  proc.stdout.on('data', (text: string) => {
    out += text;
    onStdout?.(out, proc);
  });
  const done = new Promise<string>((resolveDone) => proc.on('exit', () => resolveDone(out)));
  return { proc, done };
}

describe('session lock: real processes', () => {
  it('processes racing for stale locks: exactly one wins each round, and each file has one writer', async () => {
    const dir = dirname(freshPath());
    const roundsDir = join(dir, `race-${process.pid}-${Date.now()}`);
    mkdirSync(roundsDir);
    const rounds = 40;
    const dead = deadPid();
    for (let round = 0; round < rounds; round++)
      writeLock(join(roundsDir, `round-${round}.jsonl`), { pid: dead });
    const contenders = Array.from({ length: 3 }, () => {
      const seen = { ready: () => {}, result: (_line: string) => {} };
      const isReady = new Promise<void>((resolveReady) => {
        seen.ready = resolveReady;
      });
      const result = new Promise<string>((resolveResult) => {
        seen.result = resolveResult;
      });
      const child = run(['contend', roundsDir, String(rounds), '20'], (out) => {
        const lines = out.split('\n');
        if (lines[0] === 'ready') seen.ready();
        if (lines.length > 2) seen.result(lines[1]!);
      });
      return { ...child, isReady, result };
    });
    await Promise.all(contenders.map((c) => c.isReady));
    const startAt = Date.now() + 100;
    for (const c of contenders) c.proc.stdin?.write(`${startAt}\n`);
    // Every holder stays alive until all have finished: a late contender must meet live holders only.
    const results = (await Promise.all(contenders.map((c) => c.result))).map(
      (line) => JSON.parse(line) as { won: number[]; errors: string[] },
    );
    for (const c of contenders) c.proc.stdin?.end();
    await Promise.all(contenders.map((c) => c.done));
    expect(results.flatMap((r) => r.errors)).toEqual([]);
    for (let round = 0; round < rounds; round++) {
      expect(results.filter((r) => r.won.includes(round)).length, `round ${round}`).toBe(1);
      const lines = readFileSync(join(roundsDir, `round-${round}.jsonl`), 'utf8')
        .trimEnd()
        .split('\n');
      expect(lines, `round ${round}`).toHaveLength(1);
    }
  });

  it('kill -9 in the middle of appending: the file loads, the lock is taken over, appends continue', async () => {
    for (let i = 0; i < 3; i++) {
      const path = freshPath();
      const { done } = run(['write', path], (out, proc) => {
        if (out.startsWith('ready') && !proc.killed) setTimeout(() => proc.kill('SIGKILL'), 30 + i * 40);
      });
      await done;
      const store = openStore(path, { logger: quiet });
      const numbers = contents(store.entries).map((text) => Number(String(text).split(' ')[0]));
      expect(numbers.length).toBeGreaterThan(0);
      expect(numbers).toEqual(numbers.map((_, n) => n));
      store.append(user('after the crash'));
      store.close();
      expect(contents(openStore(path).entries).at(-1)).toBe('after the crash');
    }
  });

  const unshare = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true']).status === 0;
  it.skipIf(!unshare)(
    'a lock left by a crashed PID 1 is taken over by the next PID 1 (a restarted container)',
    () => {
      const path = freshPath();
      const asPid1 = (mode: string) =>
        spawnSync('unshare', ['--pid', '--fork', '--mount-proc', process.execPath, ...nodeArgs, mode, path], {
          encoding: 'utf8',
        }).stdout.trim();
      expect(asPid1('crash')).toBe('crashed 1');
      expect(topOfLock(path).pid).toBe(1);
      expect(asPid1('open')).toBe('ok 1');
      expect(contents(openStore(path).entries)).toEqual(['written by pid 1']);
    },
  );
});
