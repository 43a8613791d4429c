import { SessionStoreClosedError } from '../errors/session-errors.js';
import { defaultLogger, type Logger } from '../util/logger.js';
import { checkBoolean, checkFunction, checkOptionsObject } from '../util/validate.js';
import type { SessionEntry } from './entries.js';
import { readSessionFile } from './jsonl-reader.js';
import type { SessionMessage } from './message.js';
import {
  appendFlags,
  type SessionFileInternals,
  type SessionFs,
  sessionFileInternalsKey,
  sessionFs,
} from './session-fs.js';
import { SessionLock } from './session-lock.js';
import type { SessionStore } from './store.js';

/** Options of {@link JsonlSessionStore}. */
export interface JsonlSessionStoreOptions {
  /** Receives the warning about a torn last line (default: `defaultLogger`, silent unless `NODE_DEBUG=graceful-ai`). */
  logger?: Logger;
  /**
   * Whether process `pid` is running on this host; a lock whose holder is gone is taken over (default:
   * `process.kill(pid, 0)`, together with the process start time where `/proc` has it).
   */
  isProcessAlive?: (pid: number) => boolean;
  /**
   * `fsync` the file after every append, so an entry survives a power loss or kernel crash too, at the cost of a
   * disk flush per entry. Without it an appended entry survives the process being killed (it is in the kernel's
   * page cache), not the machine going down.
   * @default false
   */
  fsync?: boolean;
}

/** Bytes read per call when loading. */
const chunkBytes = 1 << 20;
/** V8's longest string (2^29 − 24 characters on 64-bit): a longer line cannot be decoded. */
const maxLineBytes = 2 ** 29 - 24;
const encoder = new TextEncoder();

/**
 * A session history in a JSON-lines file: one entry per line, appended synchronously as it happens.
 *
 * - Opening reads the file line by line (any size). A torn last line (a crash mid-write: no newline, not valid
 *   JSON) is skipped with a warning and cut off the file; every complete line before it is kept. Any other line
 *   that is not a session entry (not JSON, `null`, a message without `message`, …) throws
 *   `SessionFileCorruptError` naming the line, and the lock is released.
 * - Appends are all or nothing: an append that fails (a full disk, a short write that cannot be completed) is
 *   rolled back to the end of the last complete line before it throws, so the file never keeps half a line
 *   that later lines would follow. `appendAll` writes several entries as one unit.
 * - Two sessions never write one file: see the lock in `session-lock.ts` (`<path>.lock`, taken over atomically
 *   when its holder is gone). `close()` releases it.
 */
export class JsonlSessionStore<M extends SessionMessage = SessionMessage> implements SessionStore<M> {
  readonly #entries: SessionEntry<M>[];
  readonly #lock: SessionLock;
  readonly #fs: SessionFs;
  readonly #fsync: boolean;
  #fd: number | undefined;
  /** Bytes of complete lines: where the next line starts. */
  #size: number;
  /** Bytes past `#size` may be in the file (a failed append whose rollback failed too): cut before the next write. */
  #dirty = false;

  constructor(
    readonly path: string,
    options: JsonlSessionStoreOptions = {},
  ) {
    checkOptionsObject('JsonlSessionStore options', options);
    checkOptionsObject('logger', options.logger);
    checkFunction('isProcessAlive', options.isProcessAlive);
    checkBoolean('fsync', options.fsync);
    const internals: SessionFileInternals =
      (options as { [sessionFileInternalsKey]?: SessionFileInternals })[sessionFileInternalsKey] ?? {};
    const logger = options.logger ?? defaultLogger;
    this.#fs = sessionFs(internals.fs);
    this.#fsync = options.fsync ?? false;
    this.#lock = SessionLock.acquire(path, {
      fs: this.#fs,
      isProcessAlive: options.isProcessAlive ?? isProcessAlive,
    });
    let fd: number | undefined;
    try {
      fd = this.#fs.openSync(path, appendFlags(), 0o600);
      const file = readSessionFile<M>(this.#fs, fd, path, {
        chunkBytes: internals.chunkBytes ?? chunkBytes,
        maxLineBytes: internals.maxLineBytes ?? maxLineBytes,
      });
      this.#entries = file.entries;
      this.#fd = fd;
      this.#size = file.keptBytes;
      if (file.tornLine !== undefined) {
        logger.warn(
          `graceful-ai: skipped a torn last line in ${path} (line ${file.tornLine}); it was cut off`,
          {
            path,
            line: file.tornLine,
          },
        );
      }
      if (file.fileBytes > file.keptBytes) this.#fs.ftruncateSync(fd, file.keptBytes);
      if (file.unterminated) this.#write(encoder.encode('\n'));
    } catch (error) {
      this.#fd = undefined;
      try {
        if (fd !== undefined) this.#fs.closeSync(fd);
      } finally {
        this.#lock.release();
      }
      throw error;
    }
  }

  get entries(): readonly SessionEntry<M>[] {
    return this.#entries;
  }

  append(entry: SessionEntry<M>): void {
    this.appendAll([entry]);
  }

  /** Appends `entries` as one unit: all of them, or (when it throws) none. */
  appendAll(entries: readonly SessionEntry<M>[]): void {
    if (this.#fd === undefined) throw new SessionStoreClosedError({ path: this.path });
    if (entries.length === 0) return;
    // Serialised before a byte is written: a value JSON cannot hold (a BigInt, a cycle) throws here, harmlessly.
    const text = entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');
    this.#write(encoder.encode(text));
    this.#entries.push(...entries);
  }

  close(): void {
    const fd = this.#fd;
    if (fd === undefined) return;
    this.#fd = undefined;
    try {
      if (this.#dirty) this.#fs.ftruncateSync(fd, this.#size);
    } catch {
      // The next open cuts the partial line off as a torn last line.
    } finally {
      try {
        this.#fs.closeSync(fd);
      } finally {
        this.#lock.release();
      }
    }
  }

  /** Writes `bytes` at the end, completing short writes; on failure the file is cut back to where it started. */
  #write(bytes: Uint8Array): void {
    const fd = this.#fd as number;
    if (this.#dirty) {
      this.#fs.ftruncateSync(fd, this.#size);
      this.#dirty = false;
    }
    let written = 0;
    try {
      while (written < bytes.length) {
        const count = this.#fs.writeSync(fd, bytes, written, bytes.length - written);
        if (!(count > 0)) {
          throw new Error(
            `The file system wrote none of the last ${bytes.length - written} bytes of the line.`,
          );
        }
        written += count;
      }
      if (this.#fsync) this.#fs.fsyncSync(fd);
    } catch (error) {
      try {
        this.#fs.ftruncateSync(fd, this.#size);
      } catch {
        this.#dirty = true;
      }
      throw error;
    }
    this.#size += bytes.length;
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
