import type * as NodeFs from 'node:fs';
import type * as NodeOs from 'node:os';
import { requireBuiltin } from '../util/node-builtin.js';

const feature =
  'JsonlSessionStore (session files; elsewhere use InMemorySessionStore or your own SessionStore)';

/**
 * The file operations of a `JsonlSessionStore`, its session file and its lock (the signatures of `node:fs`, which
 * is the default). Tests replace single operations to inject faults: short writes, `ENOSPC`, a failing truncate,
 * a race between two openers.
 */
export interface SessionFs {
  openSync(path: string, flags: number, mode?: number): number;
  closeSync(fd: number): void;
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number): number;
  ftruncateSync(fd: number, length: number): void;
  fsyncSync(fd: number): void;
  mkdirSync(path: string, options: { mode: number }): unknown;
  readdirSync(path: string): string[];
  readFileSync(path: string, encoding: 'utf8'): string;
  writeFileSync(path: string, data: string, options: { flag: string; mode: number }): void;
  linkSync(existingPath: string, newPath: string): void;
  unlinkSync(path: string): void;
}

/** Private options of `JsonlSessionStore`, for tests (a symbol key: not part of the public options). */
export interface SessionFileInternals {
  /** Operations replacing those of `node:fs`. */
  fs?: Partial<SessionFs>;
  /** Bytes read per call when loading (default 1 MiB). */
  chunkBytes?: number;
  /** The longest line loaded, in bytes (default: the longest string the JavaScript engine can hold). */
  maxLineBytes?: number;
}

export const sessionFileInternalsKey: unique symbol = Symbol('graceful-ai.JsonlSessionStore.internals');

/** `node:fs` with `overrides` laid over it; resolved when a store is opened (the module loads without it). */
export function sessionFs(overrides: Partial<SessionFs> = {}): SessionFs {
  const fs = requireBuiltin<typeof NodeFs>('node:fs', feature);
  const base: SessionFs = {
    openSync: (path, flags, mode) => fs.openSync(path, flags, mode),
    closeSync: (fd) => fs.closeSync(fd),
    readSync: (fd, buffer, offset, length, position) => fs.readSync(fd, buffer, offset, length, position),
    writeSync: (fd, buffer, offset, length) => fs.writeSync(fd, buffer, offset, length),
    ftruncateSync: (fd, length) => fs.ftruncateSync(fd, length),
    fsyncSync: (fd) => fs.fsyncSync(fd),
    mkdirSync: (path, options) => fs.mkdirSync(path, options),
    readdirSync: (path) => fs.readdirSync(path),
    readFileSync: (path, encoding) => fs.readFileSync(path, encoding),
    writeFileSync: (path, data, options) => fs.writeFileSync(path, data, options),
    linkSync: (existingPath, newPath) => fs.linkSync(existingPath, newPath),
    unlinkSync: (path) => fs.unlinkSync(path),
  };
  return { ...base, ...overrides };
}

/** The open flags of a session file: read and append, created if missing. */
export function appendFlags(): number {
  const { O_RDWR, O_CREAT, O_APPEND } = requireBuiltin<typeof NodeFs>('node:fs', feature).constants;
  return O_RDWR | O_CREAT | O_APPEND;
}

/** This host's name (`node:os`). */
export function hostName(): string {
  return requireBuiltin<typeof NodeOs>('node:os', feature).hostname();
}

/** The error code of a failed `node:fs` call (`ENOENT`, `EEXIST`, …), if any. */
export function errorCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}
