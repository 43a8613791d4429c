import { optionalBuiltin, runtimeProcess } from './node-builtin.js';

/** A pluggable logger; pass `console` or your own. Every method is optional to call sites (all are present). */
export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

type Write = (format: string, ...args: unknown[]) => void;

/** Whether `NODE_DEBUG` names graceful-ai (comma- or space-separated sections, `*` wildcards, as Node reads it). */
export function debugRequested(nodeDebug: string | undefined): boolean {
  if (!nodeDebug) return false;
  // One alternative per section; an empty one (`,,`, a leading comma) matches only the empty name.
  const sections = nodeDebug
    .replace(/[|\\{}()[\]^$+?.]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/[\s,]+/g, '|');
  return new RegExp(`^(?:${sections})$`, 'i').test('graceful-ai');
}

let write: Write | undefined;

/**
 * Decided at the first log line, not at module load: silent unless `NODE_DEBUG` names graceful-ai where the runtime
 * has `process.env` (so a runtime whose `debuglog` is always on, such as workerd, stays quiet); then Node's
 * `util.debuglog` format, or `console.error` where there is no `node:util`.
 */
function writer(): Write {
  if (write !== undefined) return write;
  if (!debugRequested(runtimeProcess()?.env?.NODE_DEBUG)) {
    write = () => {};
    return write;
  }
  const util = optionalBuiltin<{ debuglog(section: string): Write }>('node:util');
  write = util
    ? util.debuglog('graceful-ai')
    : (format, ...args) => console.error(`GRACEFUL-AI ${format}`, ...args);
  return write;
}

function level(name: string) {
  return (message: string, data?: Record<string, unknown>) => {
    if (data === undefined) writer()('%s %s', name, message);
    else writer()('%s %s %o', name, message, data);
  };
}

/** Logs nothing unless `NODE_DEBUG=graceful-ai` (read at the first log line; Node's `util.debuglog` format). */
export const defaultLogger: Logger = {
  debug: level('debug'),
  info: level('info'),
  warn: level('warn'),
  error: level('error'),
};
