import { truncateText } from '../util/truncate.js';
import { redactSecrets } from './redact.js';

/**
 * The short text of a thrown value for events, logs, traces and persisted entries (never for the model: that is
 * `formatToolError`): an error's message (its name when the message is empty), a string as is, anything else as
 * JSON. Always a string (an error whose `message` is a BigInt or a cyclic object too). Never throws.
 */
export function errorText(error: unknown): string {
  try {
    if (error instanceof Error) return textOf(error.message) || textOf(error.name) || 'Error';
    return textOf(error);
  } catch {
    return 'Unknown error';
  }
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) {
    try {
      const json = JSON.stringify(value);
      if (json !== undefined) return json;
    } catch {
      // Cyclic, a BigInt inside, a throwing toJSON: fall back to String().
    }
  }
  try {
    return String(value);
  } catch {
    return 'Unknown error';
  }
}

/** The most characters of an error's text that a session event or a persisted entry carries. */
export const maxErrorTextChars = 2000;

/**
 * The one rendering of an error that leaves the process in events and persisted entries (session events and
 * history, the RPC stream): {@link errorText}, secrets redacted (`redactSecrets`), at most `maxChars` characters
 * with the cut marked. Error text is attacker-sized: it is cut to twice the bound before any pattern runs over it.
 * Never throws.
 */
export function boundedErrorText(error: unknown, maxChars = maxErrorTextChars): string {
  const text = errorText(error);
  const head = text.length > maxChars * 2 ? text.slice(0, maxChars * 2) : text;
  return truncateText(redactSecrets(head), maxChars, text.length - head.length);
}
