/**
 * The main entry loads wherever `ai` does (edge runtimes, workerd without `nodejs_compat`): no Node built-in may be
 * reachable from it at load time. Checked on the built graph (esbuild's metafile), not on the source: a type-only
 * import or a built-in resolved lazily (`process.getBuiltinModule`) is fine, a static or dynamic import is not.
 * `graceful-ai/ui` goes further: it reaches nothing at all (browser bundles of chat UIs import it), and so does
 * `graceful-ai/redis` (edge functions and Workers import it with an `@upstash/redis` client).
 */
import { describe, expect, it } from 'vitest';
import { debugRequested } from '../../src/util/logger.js';
import { bundleEntry, nodeBuiltins } from './entry-bundle.js';

async function importsOf(contents: string): Promise<string[]> {
  return (await bundleEntry(contents)).imports;
}

describe('the main entry is portable', () => {
  it.each([
    ['the whole main entry', "export * from './adapters/ai-sdk/index.ts';"],
    ['import { streamText }', "export { streamText } from './adapters/ai-sdk/index.ts';"],
    ['import { streamGuard }', "export { streamGuard } from './adapters/ai-sdk/index.ts';"],
  ])('%s reaches no Node built-in at load time (only ai is external)', async (_, entry) => {
    const imports = await importsOf(entry);
    expect(imports.filter((path) => nodeBuiltins.has(path) || path.startsWith('node:'))).toEqual([]);
    expect(new Set(imports)).toEqual(new Set(['ai']));
  });

  it('graceful-ai/ui reaches nothing at load time: not even ai (only its types)', async () => {
    expect(await importsOf("export * from './adapters/ui/index.ts';")).toEqual([]);
  });

  it('graceful-ai/redis reaches nothing at load time: no Node built-in, no Redis client (the user passes one)', async () => {
    expect(await importsOf("export * from './adapters/redis/index.ts';")).toEqual([]);
  });

  it('the scan would catch one: a module that imports node:fs statically', async () => {
    expect(await importsOf("export { readFileSync } from 'node:fs';")).toContain('node:fs');
  });
});

describe('debug logging is off unless NODE_DEBUG names graceful-ai', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['http,net', false],
    ['graceful-ai', true],
    ['GRACEFUL-AI', true],
    ['http, graceful-ai', true],
    ['graceful-*', true],
    ['*', true],
    ['graceful', false],
  ])('NODE_DEBUG=%j → %s', (value, expected) => {
    expect(debugRequested(value)).toBe(expected);
  });
});
