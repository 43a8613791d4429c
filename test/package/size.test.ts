/**
 * The bundle an app pays for, as a share of what it already pays for the AI SDK. graceful-ai's imports are bundled
 * with esbuild, minified, gzipped, `ai` and `@ai-sdk/*` external; the AI SDK's own weight is `ai`'s `streamText` with
 * `@ai-sdk/openai`'s `createOpenAI`, bundled the same way with every dependency included, for the browser.
 * `import { streamText } from 'graceful-ai'` may weigh at most 18 % of that (15 % at 0.2's shape; 17 % since the
 * failover, the agent's chat streams and the tool rules of issues 22–24, on by default: +4.9 KiB gz; 18 % since
 * OpenTelemetry, issue 25: +2.9 KiB gz). `import { streamGuard }` is the guard
 * alone: an app that only wraps its model with the middleware bundles no tool layer, redaction, turn deadline,
 * session or drop-in, checked on esbuild's record of which files reached the output. Every figure is printed; see
 * docs/runtimes.md "Bundle size" for where the bytes go.
 */
import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleEntry, bundleWithDependencies, type EntryBundle } from './entry-bundle.js';

const KiB = 1024;
// 15 % until issue 24 (14.4 % then); its four rules (MCP isError results and transport failures, repeated calls, the
// tool history repair, empty answers) cost about 2.3 KiB gz, 15.4 %.
// 17 % after issues 22–24 (16.5 % then); OpenTelemetry (issue 25: the guard's and the tools' spans, the counters, the
// registry reader) costs about 2.9 KiB gz, 17.8 %.
const STREAM_TEXT_MAX_SHARE = 0.18;

/** What an app that uses only `streamGuard()` must not pay for, by the files that hold it. */
const notInTheGuard: Record<string, string[]> = {
  'the tool layer': ['adapters/ai-sdk/tools/', 'src/policy/tool-policy.ts', 'src/model-text/'],
  redaction: ['src/redact/'],
  'the turn deadline': [
    'adapters/ai-sdk/tools/turn-deadline.ts',
    'src/policy/turn-deadline.ts',
    'src/errors/turn-deadline-error.ts',
  ],
  'the session': ['adapters/ai-sdk/session/', 'src/session/', 'src/errors/session-errors.ts'],
  'the drop-ins': ['adapters/ai-sdk/drop-in/'],
};

const bundled = (bundle: EntryBundle, paths: string[]) =>
  bundle.contributions.map(([file]) => file).filter((file) => paths.some((path) => file.startsWith(path)));

const kib = (bytes: number) => `${(bytes / KiB).toFixed(1)} KiB`;
const percent = (share: number) => `${(share * 100).toFixed(1)} %`;

function describeBundle(entry: string, bundle: EntryBundle, ai: EntryBundle): string {
  const largest = bundle.contributions
    .slice(0, 5)
    .map(([file, bytes]) => `${file} ${kib(bytes)}`)
    .join(', ');
  return (
    `${entry}: ${kib(bundle.gzipBytes)} gz, ${percent(bundle.gzipBytes / ai.gzipBytes)} of ai's own ` +
    `(${kib(ai.gzipBytes)}); largest minified inputs: ${largest}`
  );
}

describe('bundle size, as a share of the AI SDK (esbuild, minified, gzip)', () => {
  let ai: EntryBundle;
  let streamText: EntryBundle;
  let streamGuard: EntryBundle;
  beforeAll(async () => {
    [ai, streamText, streamGuard] = await Promise.all([
      bundleWithDependencies(
        "export { streamText } from 'ai'; export { createOpenAI } from '@ai-sdk/openai';",
      ),
      bundleEntry("export { streamText } from './adapters/ai-sdk/index.ts';"),
      bundleEntry("export { streamGuard } from './adapters/ai-sdk/index.ts';"),
    ]);
  });

  it("ai's own bundle holds ai, @ai-sdk/openai and their dependencies, nothing external", () => {
    const packages = [
      ...new Set(ai.contributions.map(([file]) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1])),
    ];
    console.log(
      `ai's own streamText + createOpenAI: ${kib(ai.gzipBytes)} gz (packages: ${packages.join(', ')})`,
    );
    expect(packages).toEqual(
      expect.arrayContaining(['ai', '@ai-sdk/openai', '@ai-sdk/provider-utils', 'zod']),
    );
    expect(ai.imports).toEqual([]);
  });

  it(`import { streamText } weighs at most ${percent(STREAM_TEXT_MAX_SHARE)} of ai's own`, () => {
    console.log(describeBundle('import { streamText }', streamText, ai));
    expect(streamText.gzipBytes / ai.gzipBytes).toBeLessThanOrEqual(STREAM_TEXT_MAX_SHARE);
  });

  it('import { streamGuard } bundles the guard alone', () => {
    console.log(describeBundle('import { streamGuard }', streamGuard, ai));
    const paid = Object.entries(notInTheGuard).flatMap(([concept, paths]) =>
      bundled(streamGuard, paths).map((file) => `${concept}: ${file}`),
    );
    expect(paid).toEqual([]);
  });

  it('the check sees each of those concepts where it is bundled (the paths are real)', () => {
    for (const paths of Object.values(notInTheGuard))
      for (const path of paths) expect(existsSync(path), `${path} exists`).toBe(true);
    // The drop-in streamText wraps tools, redacts their errors and keeps a turn deadline by default.
    for (const concept of ['the tool layer', 'redaction', 'the turn deadline', 'the drop-ins'])
      expect(bundled(streamText, notInTheGuard[concept]!), concept).not.toEqual([]);
  });
});
