/**
 * The short text of a thrown value for events, logs, traces and persisted entries (never for the model: that is
 * `formatToolError`): an error's message (its name when the message is empty), a string as is, anything else as
 * JSON. Never throws.
 */
export function errorText(error: unknown): string {
  try {
    if (error instanceof Error) return error.message || error.name;
    if (typeof error === 'string') return error;
    return JSON.stringify(error) ?? String(error);
  } catch {
    try {
      return String(error);
    } catch {
      return 'Unknown error';
    }
  }
}
