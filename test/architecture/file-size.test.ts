/**
 * No shipped file over 400 lines: a file past that holds two concepts and is split, one concept per file. Shipped
 * code is everything under `src/`, `adapters/` and `mocks/` (what `npm run build` compiles into `dist/`); lines are
 * counted as `wc -l` counts them. The test prints the size of the shipped code and lists every file over the limit.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SHIPPED = ['src', 'adapters', 'mocks'];
const MAX_LINES = 400;

function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}

/** Newline characters, plus one for a last line without its newline: what `wc -l` reports for a text file. */
function lineCount(text: string): number {
  const newlines = text.split('\n').length - 1;
  return text === '' || text.endsWith('\n') ? newlines : newlines + 1;
}

describe('shipped file size', () => {
  it('counts lines as wc -l does', () => {
    expect([lineCount(''), lineCount('a'), lineCount('a\n'), lineCount('a\nb'), lineCount('\n\n')]).toEqual([
      0, 1, 1, 2, 2,
    ]);
  });

  it(`no file under ${SHIPPED.join('/, ')}/ has more than ${MAX_LINES} lines`, () => {
    const files = SHIPPED.flatMap(filesUnder).map((file) => ({
      file,
      lines: lineCount(readFileSync(join(root, file), 'utf8')),
    }));
    const largest = [...files].sort((a, b) => b.lines - a.lines)[0];
    console.log(
      `shipped code: ${files.length} files, ${files.reduce((sum, f) => sum + f.lines, 0)} lines; largest ` +
        `${largest?.file} (${largest?.lines} lines)`,
    );
    expect(files.length).toBeGreaterThan(0);
    const offenders = files.filter((f) => f.lines > MAX_LINES).map((f) => `${f.file}: ${f.lines} lines`);
    expect(offenders, `split these into one concept per file (limit ${MAX_LINES} lines)`).toEqual([]);
  });
});
