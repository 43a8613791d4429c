import { defaultLogger } from '../observe/logger.js';

const warned = new Set<string>();

/**
 * Notes the use of a 0.1 option name that 0.2 renamed: one debug line per name and process (`NODE_DEBUG=graceful-ai`),
 * so an upgrade is visible without flooding logs. The old name keeps working through 0.x.
 */
export function deprecatedOption(oldName: string, newName: string): void {
  if (warned.has(oldName)) return;
  warned.add(oldName);
  defaultLogger.debug(`option '${oldName}' is deprecated; use '${newName}' (it keeps working through 0.x)`);
}
