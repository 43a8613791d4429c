/** Deep comparison of two normalised observations, and a readable rendering of what differs. */
import { inspect } from 'node:util';

export interface Difference {
  /** Where, e.g. `stream[3].providerMetadata.graceful-ai` or `result.text`. */
  path: string;
  /** `ai`'s value there (`undefined`: absent). */
  ai: unknown;
  /** The drop-in's value there. */
  dropIn: unknown;
  /** Context for the reader, e.g. the name of the callback the path is in. */
  note?: string;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function key(path: string, name: string): string {
  return /^[A-Za-z_$][\w$-]*$/.test(name)
    ? path === ''
      ? name
      : `${path}.${name}`
    : `${path}[${JSON.stringify(name)}]`;
}

/** The element's kind in a sequence of events: a stream part's `type`, a callback's `name`, a chunk's type. */
function kindOf(item: unknown): string | undefined {
  if (!isPlainObject(item)) return undefined;
  if (typeof item.type === 'string') return `type:${item.type}`;
  if (typeof item.name === 'string') return `name:${item.name}`;
  if (isPlainObject(item.chunk) && typeof item.chunk.type === 'string') return `chunk:${item.chunk.type}`;
  return undefined;
}

/**
 * Pairs the elements of two event sequences by kind (longest common subsequence), so one extra or missing
 * event is reported once instead of shifting every later comparison. `-1` marks an element without a partner.
 */
function align(a: unknown[], b: unknown[]): [number, number][] {
  const ka = a.map(kindOf);
  const kb = b.map(kindOf);
  const n = a.length;
  const m = b.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = ka[i] === kb[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && ka[i] === kb[j]) pairs.push([i++, j++]);
    else if (j >= m || (i < n && lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) pairs.push([i++, -1]);
    else pairs.push([-1, j++]);
  }
  return pairs;
}

/**
 * Every place where `ai` and `dropIn` differ: the leaves of objects both sides have; a value only one side has is
 * one difference where it is missing (`undefined` on that side, so `{ a: undefined }` equals `{}`). Sequences
 * of events (stream parts, callbacks, UI chunks) are aligned by kind first: an element only one side has is one
 * difference at `path[i]` (the index on that side), and paired elements are compared at ai's index.
 */
export function diff(ai: unknown, dropIn: unknown, path = ''): Difference[] {
  if (Object.is(ai, dropIn)) return [];
  if (Array.isArray(ai) && Array.isArray(dropIn)) {
    const out: Difference[] = [];
    const events = [...ai, ...dropIn].every((item) => kindOf(item) !== undefined);
    if (!events) {
      const length = Math.max(ai.length, dropIn.length);
      for (let i = 0; i < length; i++) out.push(...diff(ai[i], dropIn[i], `${path}[${i}]`));
      return out;
    }
    for (const [i, j] of align(ai, dropIn)) {
      if (i >= 0 && j >= 0) out.push(...diff(ai[i], dropIn[j], `${path}[${i}]`));
      else if (i >= 0) out.push({ path: `${path}[${i}]`, ai: ai[i], dropIn: undefined });
      else out.push({ path: `${path}[${j}]`, ai: undefined, dropIn: dropIn[j] });
    }
    return out;
  }
  if (isPlainObject(ai) && isPlainObject(dropIn)) {
    const a = ai;
    const b = dropIn;
    const out: Difference[] = [];
    for (const name of new Set([...Object.keys(a), ...Object.keys(b)])) {
      out.push(...diff(a[name], b[name], key(path, name)));
    }
    return out;
  }
  return [{ path, ai, dropIn }];
}

function show(value: unknown): string {
  if (value === undefined) return '(absent)';
  return inspect(value, { depth: 4, breakLength: 120, maxArrayLength: 12, maxStringLength: 400 });
}

/** `path`, `ai`'s value and the drop-in's, one block per difference (at most `limit`). */
export function formatDifferences(differences: Difference[], limit = 25): string {
  const lines = differences.slice(0, limit).map((d) => {
    return `  at ${d.path || '(root)'}${d.note ? `  (${d.note})` : ''}\n    ai:      ${indent(show(d.ai))}\n    drop-in: ${indent(show(d.dropIn))}`;
  });
  if (differences.length > limit) lines.push(`  … and ${differences.length - limit} more differences`);
  return lines.join('\n');
}

function indent(text: string): string {
  return text.replace(/\n/g, '\n             ');
}

/** A path with its indices replaced by `[]`: the shape of a difference, for grouping. */
export function pathShape(path: string): string {
  return path.replace(/\[\d+\]/g, '[]');
}
