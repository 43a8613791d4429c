/**
 * The ONE normaliser of the conformance suite. It turns an observation into plain data that two runs can be
 * compared on, and removes only what is inherently non-deterministic:
 * - `Date`s made at run time become `'<date>'` (a scripted date is kept);
 * - ids the SDK generates without consulting `_internal.generateId` (`aitxt-…`) become `'<generated-id>'`;
 * - Error `stack`s are dropped;
 * - durations measured on the real clock (`toolExecutionMs`, the guard's `durationMs`) become `'<ms>'` (the SDK's
 *   other timings use `_internal.now`, which the harness fixes).
 * Everything else is a faithful rendering: errors as `{ $error, name, message, text: String(error), …own
 * enumerable fields, cause }` (`text` is what the model and the UI would read); functions as `'[function]'`;
 * schemas (zod / standard schema / the SDK's `Schema`) as their JSON schema; bytes as base64; models, signals and
 * the caller's own objects by identity (`'<caller's tool weather>'`): a copy shows up as a difference, not as equal.
 * Object keys include non-enumerable own string keys (a tool's `experimental_toolCaller` is one), except on errors.
 */
import { asSchema } from 'ai';
import { SCRIPTED_DATE } from './model-script.js';

/** Objects a run hands to the code under test, rendered by name when the same object comes back. */
export type Known = Map<object, string>;

const generatedId = /\baitxt-[A-Za-z0-9]{24}\b/g;
const measuredDurations = new Set(['toolExecutionMs', 'durationMs']);

function durations(value: unknown): unknown {
  if (typeof value === 'number') return '<ms>';
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, durations(v)]));
  }
  return value;
}

export function normalise(value: unknown, known: Known = new Map()): unknown {
  return render(value, known, new Set());
}

function render(value: unknown, known: Known, seen: Set<object>): unknown {
  if (value === null || value === undefined) return value;
  switch (typeof value) {
    case 'string':
      return value.replace(generatedId, '<generated-id>');
    case 'number':
      return Number.isNaN(value) ? '<NaN>' : value;
    case 'boolean':
      return value;
    case 'bigint':
      return `${value}n`;
    case 'symbol':
      return `<symbol ${value.description ?? ''}>`;
    case 'function': {
      const name = known.get(value);
      return name === undefined ? '[function]' : `<${name}>`;
    }
  }
  const object = value as object;
  const name = known.get(object);
  if (name !== undefined) return `<${name}>`;
  if (seen.has(object)) return '<circular>';
  seen.add(object);
  try {
    return renderObject(object, known, seen);
  } finally {
    seen.delete(object);
  }
}

function renderObject(object: object, known: Known, seen: Set<object>): unknown {
  if (object instanceof Date) {
    return object.getTime() === SCRIPTED_DATE.getTime() ? object.toISOString() : '<date>';
  }
  if (object instanceof Uint8Array) return { $bytes: Buffer.from(object).toString('base64') };
  if (object instanceof ArrayBuffer) return { $bytes: Buffer.from(object).toString('base64') };
  if (typeof AbortSignal !== 'undefined' && object instanceof AbortSignal) {
    return {
      $signal: object.aborted ? 'aborted' : 'live',
      reason: object.aborted ? render(object.reason, known, seen) : undefined,
    };
  }
  if (object instanceof Error || isDomException(object)) return renderError(object as Error, known, seen);
  if (Array.isArray(object)) return object.map((item) => render(item, known, seen));
  if (object instanceof Map) return { $map: [...object].map((entry) => render(entry, known, seen)) };
  if (object instanceof Set) return { $set: [...object].map((item) => render(item, known, seen)) };
  if (object instanceof Promise) return '<promise>';
  if (typeof ReadableStream !== 'undefined' && object instanceof ReadableStream) return '<ReadableStream>';
  if (isModel(object)) return { $model: `${object.provider}:${object.modelId}` };
  if (isSchema(object)) return { $schema: render(jsonSchemaOf(object), known, seen) };
  const out: Record<string, unknown> = {};
  for (const key of Object.getOwnPropertyNames(object)) {
    let item: unknown;
    try {
      item = (object as Record<string, unknown>)[key];
    } catch (error) {
      item = { $getterThrew: String(error) };
    }
    if (item === undefined) continue; // `{ a: undefined }` equals `{}`, as in `toEqual`
    out[key] = measuredDurations.has(key) ? durations(item) : render(item, known, seen);
  }
  return out;
}

function renderError(error: Error, known: Known, seen: Set<object>): unknown {
  let text: string;
  try {
    text = String(error);
  } catch (thrown) {
    text = `<toString threw: ${safeString(thrown)}>`;
  }
  const out: Record<string, unknown> = {
    $error: error.constructor?.name ?? 'Object',
    name: error.name,
    message: render(error.message, known, seen),
    text: render(text, known, seen),
  };
  for (const key of Object.keys(error)) {
    if (key === 'stack' || key in out) continue;
    const item = (error as unknown as Record<string, unknown>)[key];
    if (item !== undefined) out[key] = render(item, known, seen);
  }
  if (error.cause !== undefined) out.cause = render(error.cause, known, seen);
  return out;
}

function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return '<unprintable>';
  }
}

function isDomException(object: object): boolean {
  return typeof DOMException !== 'undefined' && object instanceof DOMException;
}

function isModel(object: object): object is { provider: string; modelId: string } {
  const o = object as Record<string, unknown>;
  return typeof o.specificationVersion === 'string' && typeof o.doStream === 'function';
}

function isSchema(object: object): boolean {
  const o = object as Record<PropertyKey, unknown>;
  // zod 4 (`_zod`), zod 3 (`_def` + `parse`), the SDK's own `Schema`. (A JSON schema made by zod carries a
  // non-enumerable `~standard` too, so that alone does not make a schema.)
  return (
    typeof o._zod === 'object' ||
    o[Symbol.for('vercel.ai.schema')] === true ||
    (typeof o._def === 'object' && typeof o.parse === 'function')
  );
}

function jsonSchemaOf(schema: object): unknown {
  try {
    return asSchema(schema as Parameters<typeof asSchema>[0]).jsonSchema;
  } catch (error) {
    return { $jsonSchemaThrew: safeString(error) };
  }
}
