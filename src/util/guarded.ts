// Guarded reads of untrusted values (thrown errors, provider payloads): a getter or a proxy may throw, an object
// may be cyclic or hold bigints. Used by the classifier and the model-visible formatter alike.

/** Reads `value[key]`, or `undefined` when the value is no object or the getter throws. */
export function read(value: unknown, key: PropertyKey): unknown {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return undefined;
  try {
    return (value as Record<PropertyKey, unknown>)[key];
  } catch {
    return undefined;
  }
}

/** Reads a nested path, e.g. `readPath(err, 'data', 'error', 'code')`. */
export function readPath(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) current = read(current, key);
  return current;
}

/**
 * `JSON.stringify` that never throws: cycles become `"[Circular]"`, bigints `"<n>n"`; `undefined` when the value
 * has no JSON form or a getter throws. The result is cut to `limit` characters.
 */
export function safeJson(value: unknown, limit = Number.POSITIVE_INFINITY): string | undefined {
  try {
    const seen = new WeakSet<object>();
    const json = JSON.stringify(value, (_key, v: unknown) => {
      if (typeof v === 'bigint') return `${v}n`;
      if (typeof v === 'object' && v !== null) {
        if (seen.has(v)) return '[Circular]';
        seen.add(v);
      }
      return v;
    });
    return json === undefined || json.length <= limit ? json : json.slice(0, limit);
  } catch {
    return undefined;
  }
}
