/**
 * `@opentelemetry/api` is an optional peer: graceful-ai reads the OpenTelemetry API from the registry the API keeps on
 * `globalThis` and never imports it. Checked two ways: no source file imports `@opentelemetry/*` (types included, so
 * no public type needs it either), and a process where it cannot be resolved runs a recovered stream and a retried
 * tool with the AI SDK's telemetry on.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runChild } from '../child.js';

const root = join(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('without @opentelemetry/api', () => {
  it('no shipped source imports @opentelemetry/*, not even for types', () => {
    const importing = ['src', 'adapters', 'mocks']
      .flatMap(sources)
      .filter((file) =>
        /from\s+['"]@opentelemetry\/|import\(\s*['"]@opentelemetry\//.test(readFileSync(file, 'utf8')),
      )
      .map((file) => relative(root, file));
    expect(importing).toEqual([]);
  });

  it('a process that cannot resolve it recovers a stream and retries a tool with the SDK telemetry on', async () => {
    const outcome = await runChild(join(import.meta.dirname, 'fixtures/without-otel.ts'));
    expect(outcome.stderr).toBe('');
    expect(JSON.parse(outcome.stdout)).toEqual({
      first: 'The quick brown fox.',
      second: 'Sunny.',
      toolCalls: 2,
      // Nothing asked for it: the hook never had to refuse.
      blocked: [],
      seen: 2,
    });
  });
});
