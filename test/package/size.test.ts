/**
 * The bundle an app pays for, measured as issue 11 defines it: esbuild, minified, gzipped, `ai` external. Each figure
 * is printed; the test fails when one grows past its ceiling. The ceilings are today's weight plus a little room, not
 * the targets (16 KB and 8.5 KB), which no build with today's defaults reaches: see docs/runtimes.md "Bundle
 * size" for where the bytes go and the choices that would meet the targets. Shared cool-downs (issue 16: the
 * `coordination` option of the guard, the tools and the drop-ins) add 0.65 KB (guard) and 0.9 KB (streamText);
 * their storage and wait logic live in the coordination classes, which an app bundles only when it uses them. Endings
 * that are no completion, the stall watch over `doStream` and the recovered metadata of identical blocks (issue 20)
 * add 0.5 KB to each, the classifier's field-fidelity rules (budgets, Chinese and Bedrock overflows, DNS words,
 * x-ratelimit-reset timestamps) 0.9 KB. Redaction at its real size (issue 21: input capped at 8 KiB, rules compiled
 * from the format table instead of a scanner tuned for 1 MB) took 2.6 KB off `streamText` (redaction: 7.0 → 4.3 KB).
 */
import { describe, expect, it } from 'vitest';
import { bundleEntry } from './entry-bundle.js';

const KB = 1024;

const budgets = [
  {
    entry: 'import { streamText }',
    contents: "export { streamText } from './adapters/ai-sdk/index.ts';",
    ceilingKB: 34.1,
    targetKB: 16,
  },
  {
    entry: 'import { streamGuard }',
    contents: "export { streamGuard } from './adapters/ai-sdk/index.ts';",
    ceilingKB: 16.8,
    targetKB: 8.5,
  },
];

describe('bundle size (esbuild, minified, gzip, ai external)', () => {
  it.each(budgets)('$entry stays under its ceiling', async ({ entry, contents, ceilingKB, targetKB }) => {
    const { gzipBytes, contributions } = await bundleEntry(contents);
    const largest = contributions
      .slice(0, 5)
      .map(([file, bytes]) => `${file} ${(bytes / KB).toFixed(1)} KB`)
      .join(', ');
    console.log(
      `${entry}: ${(gzipBytes / KB).toFixed(2)} KB gz (ceiling ${ceilingKB} KB, target ${targetKB} KB); largest minified inputs: ${largest}`,
    );
    expect(gzipBytes / KB).toBeLessThanOrEqual(ceilingKB);
  });
});
