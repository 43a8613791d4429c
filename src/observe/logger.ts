import { debuglog } from 'node:util';

/** A pluggable logger; pass `console` or your own. Every method is optional to call sites (all are present). */
export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

const log = debuglog('graceful-ai');

function write(level: string) {
  return (message: string, data?: Record<string, unknown>) => {
    if (data === undefined) log('%s %s', level, message);
    else log('%s %s %o', level, message, data);
  };
}

/** Logs nothing unless `NODE_DEBUG=graceful-ai` (Node's `util.debuglog`). */
export const defaultLogger: Logger = {
  debug: write('debug'),
  info: write('info'),
  warn: write('warn'),
  error: write('error'),
};
