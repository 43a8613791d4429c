import { defaultLogger } from '../observe/logger.js';

const warned = new Set<string>();

/** One debug line per deprecated name and process (`NODE_DEBUG=graceful-ai`): visible on upgrade, never a flood. */
function noteOnce(oldName: string, line: string): void {
  if (warned.has(oldName)) return;
  warned.add(oldName);
  defaultLogger.debug(line);
}

/**
 * Notes the use of a 0.1 option name that 0.2 renamed: one debug line per name and process (`NODE_DEBUG=graceful-ai`),
 * so an upgrade is visible without flooding logs. The old name keeps working through 0.x.
 */
export function deprecatedOption(oldName: string, newName: string): void {
  noteOnce(oldName, `option '${oldName}' is deprecated; use '${newName}' (it keeps working through 0.x)`);
}

/**
 * Notes the use of a renamed export or option value (e.g. a function of `graceful-ai/testing`), like
 * {@link deprecatedOption}: one debug line per name and process; the old name keeps working through 0.x.
 */
export function deprecatedName(oldName: string, newName: string): void {
  noteOnce(`name:${oldName}`, `'${oldName}' is deprecated; use '${newName}' (it keeps working through 0.x)`);
}
