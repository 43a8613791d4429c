import { SessionLockedError } from '../errors/session-errors.js';
import { errorCode, hostName, type SessionFs } from './session-fs.js';

/**
 * Who holds a session file. The pid alone cannot tell a live holder from a dead one: after a container restart the
 * new PID 1 finds a lock of the old PID 1 and sees its own pid alive; a reused pid looks alive too. So a holder is
 * also named by its host, the kernel's boot id and its process start time (Linux, from `/proc`), and by a random
 * token that this process remembers for the locks it holds.
 */
interface Holder {
  pid: number;
  host?: string;
  bootId?: string;
  startTicks?: string;
  token?: string;
}

/** The tokens of the locks this process holds, shared by every copy of graceful-ai loaded in it. */
function heldTokens(): Set<string> {
  const key = Symbol.for('graceful-ai.sessionLockTokens');
  const global = globalThis as { [key]?: Set<string> };
  global[key] ??= new Set();
  return global[key];
}

export interface SessionLockOptions {
  fs: SessionFs;
  /** Whether process `pid` runs on this host. */
  isProcessAlive: (pid: number) => boolean;
}

/** Openers racing for one lock give up after this many lost races (each one means another opener won). */
const maxRounds = 16;

/**
 * The lock of a session file: the directory `<path>.lock`, holding numbered generations. Taking the lock is
 * creating the next generation exclusively (a hard link of a complete file, so it is never seen half written):
 * of two openers that judged generation n stale, exactly one creates n + 1. Numbers only grow (a release is a
 * generation of its own), and an opener that finds a higher generation after creating its own backs off, so a
 * slow opener can never take over a lock that moved on.
 */
export class SessionLock {
  readonly #dir: string;
  readonly #generation: number;
  readonly #token: string;
  readonly #fs: SessionFs;
  #released = false;

  private constructor(dir: string, generation: number, token: string, fs: SessionFs) {
    this.#dir = dir;
    this.#generation = generation;
    this.#token = token;
    this.#fs = fs;
  }

  /** Takes the lock of `path`; throws `SessionLockedError` while a live holder has it. */
  static acquire(path: string, options: SessionLockOptions): SessionLock {
    const { fs } = options;
    const dir = `${path}.lock`;
    makeLockDir(dir, options.fs);
    const own = ownHolder(fs);
    for (let round = 0; round < maxRounds; round++) {
      const top = highestGeneration(fs, dir);
      if (top !== undefined) {
        const holder = readHolder(fs, dir, top);
        if (holder !== 'free' && isAlive(holder, own, options)) {
          throw new SessionLockedError({
            path,
            pid: holder.pid,
            host: holder.host !== undefined && holder.host !== own.host ? holder.host : undefined,
          });
        }
      }
      const generation = (top ?? 0) + 1;
      if (!createGeneration(fs, dir, generation, JSON.stringify(own))) continue; // another opener won it
      if ((highestGeneration(fs, dir) ?? 0) > generation) {
        // We were slow: the lock moved on while we looked. Withdraw and look again.
        unlinkQuietly(fs, `${dir}/${generation}`);
        continue;
      }
      for (const older of generations(fs, dir)) {
        if (older < generation) unlinkQuietly(fs, `${dir}/${older}`);
      }
      heldTokens().add(own.token);
      return new SessionLock(dir, generation, own.token, fs);
    }
    throw new SessionLockedError({ path });
  }

  /** Releases the lock (idempotent). */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    heldTokens().delete(this.#token);
    const next = `${this.#dir}/${this.#generation + 1}`;
    try {
      // Written in place: a release marker read half written (or empty, on a full disk) still reads as free.
      this.#fs.writeFileSync(next, '{"released":true}', { flag: 'wx', mode: 0o600 });
    } catch (error) {
      // EEXIST: another opener took the lock over (it judged us gone). Anything else: no marker could be made,
      // so only removing our generation frees the file.
      if (errorCode(error) === 'EEXIST') return;
    }
    unlinkQuietly(this.#fs, `${this.#dir}/${this.#generation}`);
  }
}

/** Creates the lock directory; one already there holds earlier openers' generations. */
function makeLockDir(dir: string, fs: SessionFs): void {
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
  }
}

function generations(fs: SessionFs, dir: string): number[] {
  return fs
    .readdirSync(dir)
    .filter((name) => /^\d{1,15}$/.test(name))
    .map(Number);
}

function highestGeneration(fs: SessionFs, dir: string): number | undefined {
  const all = generations(fs, dir);
  return all.length === 0 ? undefined : Math.max(...all);
}

/** The holder of a generation, or 'free' for a release marker (also one read half written, or gone meanwhile). */
function readHolder(fs: SessionFs, dir: string, generation: number): Holder | 'free' {
  const text = readQuietly(fs, `${dir}/${generation}`);
  if (text === undefined) return 'free';
  try {
    const value = JSON.parse(text) as Partial<Record<keyof Holder, unknown>>;
    if (typeof value !== 'object' || value === null || !Number.isInteger(value.pid)) return 'free';
    const str = (field: unknown) => (typeof field === 'string' ? field : undefined);
    return {
      pid: value.pid as number,
      host: str(value.host),
      bootId: str(value.bootId),
      startTicks: str(value.startTicks),
      token: str(value.token),
    };
  } catch {
    return 'free';
  }
}

/** Creates generation `n` with `content` at once (link of a complete temporary file); false if it exists. */
function createGeneration(fs: SessionFs, dir: string, n: number, content: string): boolean {
  const temp = `${dir}/.${globalThis.crypto.randomUUID()}.tmp`;
  fs.writeFileSync(temp, content, { flag: 'wx', mode: 0o600 });
  try {
    fs.linkSync(temp, `${dir}/${n}`);
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkQuietly(fs, temp);
  }
}

/**
 * Whether `holder` may still be writing. A holder on another host cannot be checked from here, so it is alive.
 * On this host it is gone when the machine rebooted since (boot id), when it claims our pid but is not this
 * process (a restarted container's PID 1), when its pid is not running, or when that pid now belongs to a process
 * started at another time (a reused pid). Without `/proc` only the pid and the token can be compared.
 */
function isAlive(holder: Holder, own: Holder & { token: string }, options: SessionLockOptions): boolean {
  if (holder.token !== undefined && heldTokens().has(holder.token)) return true;
  if (holder.host !== undefined && holder.host !== own.host) return true;
  if (holder.bootId !== undefined && own.bootId !== undefined && holder.bootId !== own.bootId) return false;
  if (holder.pid === own.pid) {
    // Another thread (or copy of graceful-ai) of this very process shares our start time; an earlier process does not.
    return holder.startTicks !== undefined && holder.startTicks === own.startTicks;
  }
  if (!options.isProcessAlive(holder.pid)) return false;
  const startTicks = processStartTicks(options.fs, holder.pid);
  return holder.startTicks === undefined || startTicks === undefined || startTicks === holder.startTicks;
}

function ownHolder(fs: SessionFs): Holder & { token: string } {
  return {
    pid: process.pid,
    host: hostName(),
    bootId: readQuietly(fs, '/proc/sys/kernel/random/boot_id')?.trim() || undefined,
    startTicks: processStartTicks(fs, process.pid),
    token: globalThis.crypto.randomUUID(),
  };
}

/** Field 22 of `/proc/<pid>/stat`: the process's start time in clock ticks since boot (Linux only). */
function processStartTicks(fs: SessionFs, pid: number): string | undefined {
  const stat = readQuietly(fs, `/proc/${pid}/stat`);
  // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
  const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = fields?.[19];
  return ticks !== undefined && /^\d+$/.test(ticks) ? ticks : undefined;
}

function readQuietly(fs: SessionFs, path: string): string | undefined {
  try {
    return fs.readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function unlinkQuietly(fs: SessionFs, path: string): void {
  try {
    fs.unlinkSync(path);
  } catch {
    // Gone already (another opener cleaned up): nothing to do.
  }
}
