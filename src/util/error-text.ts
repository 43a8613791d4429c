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
