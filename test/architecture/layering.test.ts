/**
 * Architecture test: the layering of the source tree, checked with plain fs + regex (no TypeScript program).
 *
 * - `src/` (the SDK-independent core) and `mocks/` (the fault kit, `graceful-ai/testing`) never import `ai` or
 *   `@ai-sdk/*`: the core must work without the AI SDK, and the fault kit speaks the OpenAI wire format, not the SDK.
 *   Only `adapters/` binds the core to the SDK.
 * - `src/` never imports from `adapters/` (nor the package's own entry points, which live there): dependencies
 *   point from the adapters to the core, never back.
 * - `adapters/ui/` (`graceful-ai/ui`, for browser bundles) reaches `ai`, `@ai-sdk/*` and Node built-ins only
 *   through `import type`, in its own files and in every repository file it imports, transitively. (A
 *   `import { type X }` is not enough: with `verbatimModuleSyntax` it stays as a side-effect import.)
 * - `graceful-ai/testing` (`mocks/index.ts`) reaches msw nowhere, type imports included: msw is an optional peer,
 *   and a project without it must type-check `graceful-ai/testing` with `skipLibCheck: false`. The MSW handlers are
 *   `graceful-ai/testing/msw` (`mocks/msw.ts`). The packed package is checked the same way by scripts/pack-check.ts.
 * - No source file refers to the design document, which is not part of the repository: a comment states the
 *   fact itself instead of pointing to a file a reader cannot open.
 * - No import cycle in `src/`, `adapters/` and `mocks/`, between files or between folders, type imports included: a
 *   cycle means two modules that cannot be read, tested or moved one without the other.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

interface Import {
  /** `path:line` of the statement, relative to the repository root. */
  at: string;
  file: string;
  specifier: string;
  /** `import type …` / `export type …`: erased when compiled. */
  typeOnly: boolean;
}

function tsFiles(dir: string): string[] {
  const files: string[] = [];
  const walk = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (entry.name === 'node_modules') continue;
      const path = join(current, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.[cm]?tsx?$/.test(entry.name)) files.push(path);
    }
  };
  walk(join(root, dir));
  return files.sort();
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** A line that is (part of) a comment, where an `import(…)` is prose, not code. */
function isCommentLine(text: string, index: number): boolean {
  const start = text.lastIndexOf('\n', index - 1) + 1;
  return /^\s*(\/\/|\/\*|\*)/.test(text.slice(start, index));
}

const importPatterns = [
  // import … from 'x' / import type … from 'x' / export … from 'x' (possibly over several lines)
  /^[ \t]*(?:import|export)\b[^'";()=]*?\bfrom\s*(['"])([^'"]+)\1/gm,
  // import 'x' (side effect only)
  /^[ \t]*import\s*(['"])([^'"]+)\1/gm,
  // import('x'), typeof import('x')
  /\bimport\s*\(\s*(['"])([^'"]+)\1/g,
];

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const found: Import[] = [];
  for (const pattern of importPatterns) {
    for (const match of text.matchAll(pattern)) {
      const index = match.index + match[0].length - match[0].trimStart().length;
      if (isCommentLine(text, index)) continue;
      found.push({
        at: `${relative(root, file)}:${lineAt(text, index)}`,
        file,
        specifier: match[2]!,
        typeOnly: /^(import|export)\s+type\b/.test(match[0].trimStart()),
      });
    }
  }
  return found;
}

const isAiSdk = (specifier: string): boolean =>
  specifier === 'ai' || specifier.startsWith('ai/') || specifier.startsWith('@ai-sdk/');

const nodeBuiltins = new Set(builtinModules);
const isNodeBuiltin = (specifier: string): boolean =>
  specifier.startsWith('node:') || nodeBuiltins.has(specifier.split('/')[0]!);

/**
 * Every repository file `entries` import (relative specifiers, `.js` → `.ts`), transitively, with the entries;
 * through type-only imports too when `types` is set (what the emitted `.d.ts` files reference).
 */
function reachableFiles(entries: string[], { types = false } = {}): string[] {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const { specifier, typeOnly } of importsOf(file)) {
      if ((typeOnly && !types) || !specifier.startsWith('.')) continue;
      visit(resolve(dirname(file), specifier).replace(/\.js$/, '.ts'));
    }
  };
  for (const entry of entries) visit(entry);
  return [...seen].sort();
}

/** The strongly connected components of more than one node (Tarjan), each sorted. */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      component.push(member);
      if (member === node) break;
    }
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found;
}

/** Every relative import of the shipped code, type imports included: file → the files it imports. */
function importGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of [...tsFiles('src'), ...tsFiles('adapters'), ...tsFiles('mocks')]) {
    const targets = new Set<string>();
    for (const { specifier } of importsOf(file)) {
      if (!specifier.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
      if (target !== file) targets.add(relative(root, target));
    }
    graph.set(relative(root, file), targets);
  }
  return graph;
}

function failureList(title: string, offenders: string[]): string {
  return [`${offenders.length} ${title}:`, ...offenders.map((line) => `  ${line}`), ''].join('\n');
}

describe('layering', () => {
  it('src/ and mocks/ do not import ai or @ai-sdk/*', () => {
    const offenders = [...tsFiles('src'), ...tsFiles('mocks')]
      .flatMap(importsOf)
      .filter(({ specifier }) => isAiSdk(specifier))
      .map(({ at, specifier }) => `${at} imports '${specifier}'`);
    expect(offenders, failureList('AI SDK import(s) outside adapters/', offenders)).toEqual([]);
  });

  it('src/ does not import from adapters/', () => {
    const offenders = tsFiles('src')
      .flatMap(importsOf)
      .filter(({ file, specifier }) => {
        if (specifier === 'graceful-ai' || specifier.startsWith('graceful-ai/')) return true;
        if (!specifier.startsWith('.')) return false;
        const target = relative(root, resolve(dirname(file), specifier))
          .split('\\')
          .join('/');
        return target === 'adapters' || target.startsWith('adapters/');
      })
      .map(({ at, specifier }) => `${at} imports '${specifier}'`);
    expect(offenders, failureList('import(s) from src/ into adapters/', offenders)).toEqual([]);
  });

  it('adapters/ui/ reaches ai, @ai-sdk/* and Node built-ins only through type-only imports', () => {
    const files = reachableFiles(tsFiles('adapters/ui'));
    // It does import the reset part's vocabulary, which lives in the core and imports nothing.
    expect(files.map((file) => relative(root, file))).toContain('src/stream/reset-part.ts');
    const offenders = files
      .flatMap(importsOf)
      .filter(({ specifier, typeOnly }) => !typeOnly && (isAiSdk(specifier) || isNodeBuiltin(specifier)))
      .map(({ at, specifier }) => `${at} imports '${specifier}' at run time`);
    expect(offenders, failureList('run-time import(s) reachable from graceful-ai/ui', offenders)).toEqual([]);
  });

  it('graceful-ai/testing reaches msw nowhere, not even through types; only mocks/msw.ts imports it', () => {
    const isMsw = (specifier: string): boolean => specifier === 'msw' || specifier.startsWith('msw/');
    const files = reachableFiles([join(root, 'mocks/index.ts')], { types: true });
    expect(files.map((file) => relative(root, file))).toContain('mocks/server.ts');
    const offenders = files
      .flatMap(importsOf)
      .filter(({ specifier }) => isMsw(specifier))
      .map(({ at, specifier }) => `${at} imports '${specifier}'`);
    expect(offenders, failureList('msw import(s) reachable from graceful-ai/testing', offenders)).toEqual([]);
    const importers = [...tsFiles('src'), ...tsFiles('adapters'), ...tsFiles('mocks')]
      .flatMap(importsOf)
      .filter(({ specifier }) => isMsw(specifier))
      .map(({ file }) => relative(root, file));
    expect([...new Set(importers)]).toEqual(['mocks/msw.ts']);
  });

  it('no import cycle between files, type imports included', () => {
    const found = cycles(importGraph()).map((c) => c.join(' → '));
    expect(found, failureList('file cycles (move what both need below both)', found)).toEqual([]);
  });

  it('no import cycle between folders, type imports included', () => {
    const folders = new Map<string, Set<string>>();
    for (const [file, targets] of importGraph()) {
      const from = dirname(file);
      const edges = folders.get(from) ?? new Set<string>();
      for (const target of targets) if (dirname(target) !== from) edges.add(dirname(target));
      folders.set(from, edges);
    }
    const found = cycles(folders).map((c) => c.join(' ↔ '));
    expect(found, failureList('folder cycles (move what both need below both)', found)).toEqual([]);
  });

  it('finds a cycle when there is one (the check itself)', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c']]);
  });

  it('no source file refers to the design document outside the repository', () => {
    // Built so that this file does not match itself.
    const reference = new RegExp(`\\b${'DESIGN'}(\\.md\\b| ")`);
    const offenders: string[] = [];
    for (const dir of ['src', 'adapters', 'mocks', 'test', 'bench', 'examples', 'scripts']) {
      for (const file of tsFiles(dir)) {
        readFileSync(file, 'utf8')
          .split('\n')
          .forEach((line, index) => {
            if (reference.test(line)) offenders.push(`${relative(root, file)}:${index + 1}: ${line.trim()}`);
          });
      }
    }
    expect(
      offenders,
      failureList('reference(s) to a document outside the repository (state the fact instead)', offenders),
    ).toEqual([]);
  });
});
