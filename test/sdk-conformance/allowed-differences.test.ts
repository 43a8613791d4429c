/**
 * The allowed differences: few, each with an id and a reason, and the same list as docs/streaming.md's
 * "Differences from `ai`" section (one bullet per entry, in this order, starting with the entry's id in backticks).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allowedDifferences } from './allowed-differences.js';

const docPath = new URL('../../docs/streaming.md', import.meta.url);

/** The top-level bullets of the section under the heading `title` (up to the next heading of its level or above). */
function bulletsUnder(markdown: string, title: string): string[] | undefined {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => /^#{1,6} /.test(line) && line.replace(/^#+ /, '').trim() === title);
  if (start === -1) return undefined;
  const level = /^#+/.exec(lines[start]!)![0].length;
  const bullets: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const heading = /^(#+) /.exec(line);
    if (heading && heading[1]!.length <= level) break;
    if (/^[-*] /.test(line)) bullets.push(line.slice(2).trim());
    else if (/^\s+\S/.test(line) && bullets.length > 0) bullets[bullets.length - 1] += ` ${line.trim()}`;
  }
  return bullets;
}

describe('the allowed differences between ai and the drop-ins', () => {
  it('are at most 10, each with a unique id, a matcher and a reason', () => {
    expect(allowedDifferences.length).toBeLessThanOrEqual(10);
    const ids = allowedDifferences.map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const d of allowedDifferences) {
      expect(d.id).toMatch(/^[a-z][a-z0-9-]*$/);
      expect(typeof d.where).toBe('function');
      expect(d.reason.length).toBeGreaterThan(40);
    }
  });

  it('are listed in docs/streaming.md under "Differences from `ai`", one bullet per entry, in order', () => {
    const bullets = bulletsUnder(readFileSync(docPath, 'utf8'), 'Differences from `ai`');
    expect(bullets, 'docs/streaming.md has no heading "Differences from `ai`"').toBeDefined();
    const ids = (bullets ?? []).map((bullet) => /^`([^`]+)`/.exec(bullet)?.[1] ?? `(no id in: ${bullet})`);
    expect(ids).toEqual(allowedDifferences.map((d) => d.id));
  });
});
