/**
 * The documentation against the code, with plain fs + regex (no markdown library):
 *
 * - every table cell in README.md and docs/*.md that names a path into the exported `defaults` object, written as
 *   `30000 (\`defaults.autoRetry.maxDelayMs\`)`, states the value that path holds;
 * - the "Follow a failure" walkthroughs of docs/architecture.md anchor each step at `file.ts:name`, where the file
 *   exists and declares `name` (function, method, class or const), and each crosses at most 4 files;
 * - the "Entry points" table of docs/README.md lists every runtime export of each package entry point, and names
 *   nothing that no entry point exports.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaults } from '../../adapters/ai-sdk/index.js';
import { anchorsIn, type Cell, declares, markdownTables, resolvePath, section } from './markdown.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

/** `<value> (\`defaults.<path>\`)`: the value is a plain number or boolean, or a quoted string (in code ticks or not). */
const DEFAULT_REF = /`defaults\.([A-Za-z0-9_.]+)`/g;
const VALUE_BEFORE = /(?:^|[^\w.])`?(-?\d+(?:\.\d+)?|true|false|'[^'`]*')`?\s*\(\s*$/;

describe('defaults stated in the docs', () => {
  const cells: Cell[] = pages.flatMap((page) => markdownTables(page, read(page)));
  const checked: string[] = [];
  const problems: string[] = [];
  for (const cell of cells) {
    for (const match of cell.text.matchAll(DEFAULT_REF)) {
      const path = match[1]!;
      const where = `${cell.page}:${cell.line} defaults.${path}`;
      checked.push(where);
      const value = resolvePath(defaults, path);
      if (!value.found) {
        problems.push(`${where}: no such path in \`defaults\``);
        continue;
      }
      const written = VALUE_BEFORE.exec(cell.text.slice(0, match.index))?.[1];
      if (written === undefined) {
        problems.push(
          `${where}: write the value before it, e.g. "${String(value.value)} (\`defaults.${path}\`)"`,
        );
        continue;
      }
      const stated = written.startsWith("'")
        ? written.slice(1, -1)
        : written === 'true'
          ? true
          : written === 'false'
            ? false
            : Number(written);
      if (!Object.is(stated, value.value)) {
        problems.push(`${where}: the docs say ${written}, defaults.${path} is ${String(value.value)}`);
      }
    }
  }

  it('every `defaults.*` value in a table equals the exported object', () => {
    expect(problems).toEqual([]);
  });

  it('the docs state at least 25 defaults with their path', () => {
    expect(checked.length).toBeGreaterThanOrEqual(25);
  });

  it('docs/README.md states every leaf of `defaults` (except deprecated aliases)', () => {
    const stated = new Set(
      checked.filter((c) => c.startsWith('docs/README.md:')).map((c) => c.replace(/^.* defaults\./, '')),
    );
    const leaves = (value: unknown, prefix: string): string[] =>
      typeof value === 'object' && value !== null
        ? Object.entries(value).flatMap(([key, v]) => leaves(v, prefix ? `${prefix}.${key}` : key))
        : [prefix];
    const missing = leaves(defaults, '').filter((leaf) => !stated.has(leaf));
    expect(missing).toEqual([]);
  });
});

describe('"Follow a failure" walkthroughs in docs/architecture.md', () => {
  const text = read('docs/architecture.md');
  const walkthroughs = section(text, 'Follow a failure')
    .split(/^### /m)
    .slice(1)
    .map((body) => {
      const title = body.slice(0, body.indexOf('\n')).trim();
      // Numbered steps, each with its continuation lines.
      const steps = body.split(/^(?=\d+\. )/m).filter((step) => /^\d+\. /.test(step));
      return { title, steps };
    });

  it('there are two, each a numbered list of at least three steps', () => {
    expect(walkthroughs).toHaveLength(2);
    for (const w of walkthroughs) expect(w.steps.length, w.title).toBeGreaterThanOrEqual(3);
  });

  it('every step has an anchor, every anchor names a declaration in an existing file, at most 4 files each', () => {
    const problems: string[] = [];
    for (const { title, steps } of walkthroughs) {
      const files = new Set<string>();
      steps.forEach((step, i) => {
        const anchors = anchorsIn(step);
        if (anchors.length === 0) problems.push(`${title}, step ${i + 1}: no \`file.ts:name\` anchor`);
        for (const { file, name } of anchors) {
          files.add(file);
          if (!existsSync(join(root, file))) problems.push(`${title}: ${file} does not exist`);
          else if (!declares(read(file), name)) problems.push(`${title}: ${file} declares no ${name}`);
        }
      });
      if (files.size > 4) problems.push(`${title}: crosses ${files.size} files (${[...files].join(', ')})`);
    }
    expect(problems).toEqual([]);
  });
});

describe('"Entry points" in docs/README.md', () => {
  const pkg = JSON.parse(read('package.json')) as { exports: Record<string, string | { types: string }> };
  /** Package subpath → its source file (from the `types` target: ./dist/x.d.ts → x.ts). */
  const entries = Object.entries(pkg.exports)
    .filter(([, target]) => typeof target === 'object')
    .map(([subpath, target]) => ({
      name: subpath === '.' ? 'graceful-ai' : `graceful-ai${subpath.slice(1)}`,
      source: (target as { types: string }).types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '.ts'),
    }));
  const rows = new Map(
    markdownTables('docs/README.md', section(read('docs/README.md'), 'Entry points'))
      .filter((cell) => cell.column === 0)
      .map((cell) => [cell.text.replace(/`/g, '').trim(), cell.row]),
  );

  it('lists every runtime export of every entry point, and no name that none exports', async () => {
    const exported = new Map<string, string[]>();
    for (const { name, source } of entries) {
      exported.set(name, Object.keys(await import(join(root, source))).sort());
    }
    const everything = new Set([...exported.values()].flat());
    const problems: string[] = [];
    for (const [entry, names] of exported) {
      const row = rows.get(entry);
      if (row === undefined) {
        problems.push(`${entry}: no row`);
        continue;
      }
      const listed = new Set(
        [
          ...row
            .slice(1)
            .join(' ')
            .matchAll(/`([A-Za-z_$][\w$]*)`/g),
        ].map((m) => m[1]!),
      );
      for (const name of names) if (!listed.has(name)) problems.push(`${entry}: ${name} is not listed`);
      for (const name of listed)
        if (!everything.has(name)) problems.push(`${entry}: ${name} is exported nowhere`);
    }
    expect(problems).toEqual([]);
  });
});
