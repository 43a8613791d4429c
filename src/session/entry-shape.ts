import type { SessionEntry } from './entries.js';
import type { SessionMessage } from './message.js';

/** A parsed line: a session entry, or what is wrong with it (worded to follow "Line N of the session file …"). */
export type ParsedEntry<M extends SessionMessage> = { entry: SessionEntry<M> } | { problem: string };

type Fields = Record<string, unknown>;

const roles = new Set(['system', 'user', 'assistant', 'tool']);
const kinds = new Set(['abort', 'overflow', 'permanent', 'transient']);

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
const isString = (value: unknown) => typeof value === 'string';
const isOptionalString = (value: unknown) => value === undefined || isString(value);

/**
 * Checks a value parsed from a session file line: an object whose `type` is one of the entry types, with the
 * fields that type needs (a message needs a `role` and `content`). Only a checked entry reaches the history, so
 * a `null` line or a compaction whose `messages` is a string fails the load, naming its line, instead of
 * rebuilding a wrong context.
 */
export function parseEntry<M extends SessionMessage>(value: unknown): ParsedEntry<M> {
  if (!isObject(value)) {
    const shown = value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`;
    return { problem: `is ${shown}, not a session entry (an object with a type)` };
  }
  const problem = fieldProblem(value);
  if (problem !== undefined) return { problem: `is not a session entry of its type: ${problem}` };
  return { entry: value as unknown as SessionEntry<M> };
}

function fieldProblem(value: Fields): string | undefined {
  const { type } = value;
  if (!isString(type)) return '`type` is missing';
  if (!isNumber(value.at)) return '`at` is not a number';
  switch (type) {
    case 'message':
      return messageProblem(value.message, 'message');
    case 'compaction':
      if (!isNumber(value.removedCount)) return '`removedCount` is not a number';
      return messagesProblem(value.messages, 'messages');
    case 'error': {
      const { error } = value;
      if (!isObject(error) || !isString(error.name) || !isString(error.message)) {
        return '`error` is not { name, message }';
      }
      if (!kinds.has(value.kind as string)) return '`kind` is not abort, overflow, permanent or transient';
      if (!isString(value.reason)) return '`reason` is not a string';
      return value.partial === undefined ? undefined : messagesProblem(value.partial, 'partial');
    }
    case 'auto_retry_start':
      if (![value.attempt, value.delayMs, value.maxRetries].every(isNumber)) {
        return '`attempt`, `delayMs` and `maxRetries` must be numbers';
      }
      return isString(value.errorMessage) ? undefined : '`errorMessage` is not a string';
    case 'auto_retry_end':
      if (typeof value.success !== 'boolean' || !isNumber(value.attempt)) {
        return '`success` must be a boolean and `attempt` a number';
      }
      return isOptionalString(value.finalError) ? undefined : '`finalError` is not a string';
    default:
      return `its type ${JSON.stringify(type)} is unknown (written by a newer graceful-ai?)`;
  }
}

function messagesProblem(value: unknown, field: string): string | undefined {
  if (!Array.isArray(value)) return `\`${field}\` is not a list of messages`;
  for (const [index, message] of value.entries()) {
    const problem = messageProblem(message, `${field}[${index}]`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function messageProblem(value: unknown, field: string): string | undefined {
  if (!isObject(value)) return `\`${field}\` is not a message object`;
  if (!roles.has(value.role as string)) return `\`${field}.role\` is not system, user, assistant or tool`;
  return 'content' in value ? undefined : `\`${field}.content\` is missing`;
}
