import type * as NodeFs from 'node:fs';
import {
  SessionFileCorruptError,
  SessionLockedError,
  SessionStoreClosedError,
} from '../errors/session-errors.js';
import { defaultLogger, type Logger } from '../observe/logger.js';
import { requireBuiltin } from '../util/node-builtin.js';
import { checkFunction, checkOptionsObject } from '../util/validate.js';
import type { SessionEntry } from './entries.js';
import type { SessionMessage } from './message.js';
import type { SessionStore } from './store.js';

/** `node:fs`, resolved when a store is opened (the module loads in runtimes without it). */
const fs = () =>
  requireBuiltin<typeof NodeFs>(
    'node:fs',
    'JsonlSessionStore (session files; elsewhere use InMemorySessionStore or your own SessionStore)',
  );

/** Options of {@link JsonlSessionStore}. */
export interface JsonlSessionStoreOptions {
  /** Receives the warning about a torn last line (default: `defaultLogger`, silent unless `NODE_DEBUG=graceful-ai`). */
  logger?: Logger;
  /** Whether process `pid` is running; a lock held by a dead process is stale and taken over (default: `process.kill(pid, 0)`). */
  isProcessAlive?: (pid: number) => boolean;
}

/**
 * A session history in a JSON-lines file: one entry per line, appended synchronously as it happens.
 *
 * - Opening reads the existing entries. A torn last line (a crash mid-write: no newline, not valid JSON) is
 *   skipped with a warning and cut off the file so new lines start clean; every complete line before it is kept.
 *   An unreadable line before the last one throws `SessionFileCorruptError` (history would be lost silently).
 * - Two sessions never write one file: opening creates `<path>.lock` exclusively (`O_EXCL`) with the pid, and
 *   throws `SessionLockedError` while a live process (this one included) holds it. A lock left by a dead process
 *   is taken over. `close()` releases it.
 */
export class JsonlSessionStore<M extends SessionMessage = SessionMessage> implements SessionStore<M> {
  readonly #entries: SessionEntry<M>[];
  readonly #lockPath: string;
  #fd: number | undefined;

  constructor(
    readonly path: string,
    options: JsonlSessionStoreOptions = {},
  ) {
    checkOptionsObject('JsonlSessionStore options', options);
    checkOptionsObject('logger', options.logger);
    checkFunction('isProcessAlive', options.isProcessAlive);
    const logger = options.logger ?? defaultLogger;
    this.#lockPath = `${path}.lock`;
    acquireLock(path, this.#lockPath, options.isProcessAlive ?? isProcessAlive);
    try {
      const { entries, validBytes, tornLine, unterminated } = readEntries<M>(path);
      this.#entries = entries;
      const { O_WRONLY, O_CREAT, O_APPEND } = fs().constants;
      this.#fd = fs().openSync(path, O_WRONLY | O_CREAT | O_APPEND, 0o600);
      if (unterminated) fs().writeSync(this.#fd, '\n');
      if (tornLine !== undefined) {
        logger.warn(`graceful-ai: skipped a torn last line in ${path} (line ${tornLine}); it was cut off`, {
          path,
          line: tornLine,
        });
        fs().ftruncateSync(this.#fd, validBytes);
      }
    } catch (error) {
      fs().rmSync(this.#lockPath, { force: true });
      throw error;
    }
  }

  get entries(): readonly SessionEntry<M>[] {
    return this.#entries;
  }

  append(entry: SessionEntry<M>): void {
    if (this.#fd === undefined) {
      throw new SessionStoreClosedError({ path: this.path });
    }
    // One write call per line: a crash tears at most this line, which the next open skips.
    fs().writeSync(this.#fd, `${JSON.stringify(entry)}\n`);
    this.#entries.push(entry);
  }

  close(): void {
    if (this.#fd === undefined) return;
    fs().closeSync(this.#fd);
    this.#fd = undefined;
    fs().rmSync(this.#lockPath, { force: true });
  }
}

interface FileContents<M extends SessionMessage> {
  entries: SessionEntry<M>[];
  /** Bytes of the complete, newline-terminated lines. */
  validBytes: number;
  /** 1-based number of an unterminated last line that is not valid JSON. */
  tornLine?: number;
  /** The last line is valid JSON but lacks its newline (the crash hit between the two). */
  unterminated?: boolean;
}

function readEntries<M extends SessionMessage>(path: string): FileContents<M> {
  if (!fs().existsSync(path)) return { entries: [], validBytes: 0 };
  const lines = fs().readFileSync(path, 'utf8').split('\n');
  // Every line a writer finished ends with '\n', so the element after the last '\n' is '' unless a write was torn.
  const tail = lines.pop() ?? '';
  const entries: SessionEntry<M>[] = [];
  let validBytes = 0;
  for (const [index, line] of lines.entries()) {
    validBytes += Buffer.byteLength(line) + 1;
    if (line.trim() === '') continue;
    try {
      entries.push(JSON.parse(line) as SessionEntry<M>);
    } catch (error) {
      throw new SessionFileCorruptError({ path, line: index + 1, cause: error });
    }
  }
  if (tail.trim() === '') return { entries, validBytes };
  try {
    entries.push(JSON.parse(tail) as SessionEntry<M>);
    return { entries, validBytes: validBytes + Buffer.byteLength(tail), unterminated: true };
  } catch {
    return { entries, validBytes, tornLine: lines.length + 1 };
  }
}

function acquireLock(path: string, lockPath: string, alive: (pid: number) => boolean): void {
  for (let tries = 0; tries < 2; tries++) {
    try {
      const fd = fs().openSync(lockPath, 'wx', 0o600);
      fs().writeSync(fd, String(process.pid));
      fs().closeSync(fd);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = readPid(lockPath);
      if (pid !== undefined && alive(pid)) throw new SessionLockedError({ path, pid });
      if (pid === undefined && tries > 0) throw new SessionLockedError({ path });
      // Stale: its process is gone (or the lock is unreadable); take it over once.
      fs().rmSync(lockPath, { force: true });
    }
  }
  throw new SessionLockedError({ path, pid: readPid(lockPath) });
}

function readPid(lockPath: string): number | undefined {
  try {
    const pid = Number.parseInt(fs().readFileSync(lockPath, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
