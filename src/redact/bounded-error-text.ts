import { errorText } from '../util/error-text.js';
import { truncateText } from '../util/truncate.js';
import { redactSecrets } from './redact.js';

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
