/** Just enough markdown for the docs tests: GFM table cells, `##` sections, `file.ts:name` anchors. */

/** One table cell: where it is, its column, and the whole row it belongs to. */
export interface Cell {
  page: string;
  /** 1-based line of the row (within the text given). */
  line: number;
  column: number;
  text: string;
  row: string[];
}

/** The cells of a GFM table row: split on `|` not escaped as `\|` (GFM splits inside code spans too). */
function rowCells(line: string): string[] {
  const body = line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '');
  return body.split(/(?<!\\)\|/).map((cell) => cell.replace(/\\\|/g, '|').trim());
}

/** Every cell of every table outside fenced code blocks, header and separator rows excluded. */
export function markdownTables(page: string, text: string): Cell[] {
  const cells: Cell[] = [];
  let fenced = false;
  let previousWasRow = false;
  text.split('\n').forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const isRow = !fenced && /^\s*\|/.test(line);
    // A row directly after a non-row is a header; the separator row follows it.
    const isHeader = isRow && !previousWasRow;
    const isSeparator = isRow && /^\s*\|[\s:|-]+\|?\s*$/.test(line);
    previousWasRow = isRow;
    if (!isRow || isHeader || isSeparator) return;
    const row = rowCells(line);
    row.forEach((text, column) => {
      cells.push({ page, line: i + 1, column, text, row });
    });
  });
  return cells;
}

/** The body of the `##` section whose heading starts with `title`, up to the next `##` heading ('' if none). */
export function section(text: string, title: string): string {
  const start = text.split('\n').findIndex((line) => line.startsWith(`## ${title}`));
  if (start < 0) return '';
  const lines = text.split('\n').slice(start + 1);
  const end = lines.findIndex((line) => /^## /.test(line));
  return (end < 0 ? lines : lines.slice(0, end)).join('\n');
}

/** `path/to/file.ts:name` in backticks (name may be a `#private` method). */
export function anchorsIn(text: string): { file: string; name: string }[] {
  return [...text.matchAll(/`((?:src|adapters|mocks)\/[\w./-]+?\.ts):(#?[A-Za-z_$][\w$]*)`/g)].map((m) => ({
    file: m[1]!,
    name: m[2]!,
  }));
}

const escapeName = (name: string) => name.replace(/[$]/g, '\\$');

/** Whether `source` declares `name` as a function, class, const/let/var, or a method (`name(…) … {`). */
export function declares(source: string, name: string): boolean {
  const n = escapeName(name);
  const word = name.startsWith('#') ? n : `\\b${n}`;
  return [
    new RegExp(`\\b(?:function\\*?|class)\\s+${n}\\b`),
    new RegExp(`\\b(?:const|let|var)\\s+${n}\\b`),
    new RegExp(
      `^[ \\t]*(?:(?:public|private|protected|static|readonly|async|override|get|set)\\s+)*\\*?${word}\\s*` +
        `(?:<[^>\\n]*>)?\\s*\\([^;]*?\\)\\s*(?::\\s*[^;{=]+)?\\{`,
      'm',
    ),
  ].some((pattern) => pattern.test(source));
}

/** Follows a dotted path through nested objects (own properties only). */
export function resolvePath(object: unknown, path: string): { found: boolean; value?: unknown } {
  let current: unknown = object;
  for (const key of path.split('.')) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key))
      return { found: false };
    current = (current as Record<string, unknown>)[key];
  }
  return { found: true, value: current };
}
