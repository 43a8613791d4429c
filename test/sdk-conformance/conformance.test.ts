/**
 * Issue 10, "Drop-ins in fact": every scenario runs through `ai`'s `streamText`/`generateText` and through
 * graceful-ai's drop-in on the same scripted provider; the two runs must be identical part by part (stream
 * parts, callbacks and their order, result fields, UI streams and bodies, provider requests, tool observations,
 * logged warnings) except where `allowed-differences.ts` says otherwise.
 *
 * `SDK_CONFORMANCE_REPORT=<file>` writes every scenario's unexplained differences as JSON (the to-do list).
 */
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowedDifferences } from './allowed-differences.js';
import { compare } from './compare.js';
import { type Difference, formatDifferences, pathShape } from './diff.js';
import { dropIn, sdk } from './implementations.js';
import { installWarningCapture } from './observe.js';
import { cases } from './scenarios.js';

let restoreWarnings: () => void;
beforeAll(() => {
  restoreWarnings = installWarningCapture();
});

const report: {
  scenario: string;
  api: string;
  unexplained: Difference[];
  used: string[];
  broken: string[];
}[] = [];
afterAll(() => {
  restoreWarnings();
  const file = process.env.SDK_CONFORMANCE_REPORT;
  if (file) writeFileSync(file, JSON.stringify({ todo: todoList(), runs: report }, null, 1));
});

/** The failing runs grouped by the shape of their first unexplained difference (or their first broken guarantee). */
function todoList() {
  const groups = new Map<string, { first: Difference | string; runs: string[] }>();
  for (const run of report) {
    const first = run.broken[0] ?? run.unexplained[0];
    if (first === undefined) continue;
    const key = typeof first === 'string' ? `guarantee: ${first.split(':')[0]}` : pathShape(first.path);
    const group = groups.get(key) ?? { first, runs: [] };
    group.runs.push(`${run.api}Text ${run.scenario}`);
    groups.set(key, group);
  }
  return [...groups].map(([shape, { first, runs }]) => ({ shape, first, runs }));
}

describe('graceful-ai drop-ins behave exactly like ai (differences only where allowed)', () => {
  for (const { scenario, api } of cases) {
    it(`${api}Text ${scenario.id}`, async () => {
      const { unexplained, used, broken } = await compare(scenario, api, sdk, dropIn);
      report.push({ scenario: scenario.id, api, unexplained: unexplained.slice(0, 200), used, broken });
      const problems: string[] = [];
      if (broken.length > 0) problems.push(`graceful-ai guarantees broken:\n  ${broken.join('\n  ')}`);
      if (unexplained.length > 0) {
        problems.push(
          `${unexplained.length} difference(s) between ai and the drop-in that no allowed difference explains:\n` +
            formatDifferences(unexplained),
        );
      }
      if (problems.length > 0) throw new Error(problems.join('\n'));
    });
  }

  // Runs last (tests in a file run in order): an entry nothing needs any more must go (and its docs bullet).
  it('needs every allowed difference', (ctx) => {
    if (report.length !== cases.length) ctx.skip(); // a filtered run (-t) cannot tell
    const used = new Set(report.flatMap((r) => r.used));
    expect(allowedDifferences.map((d) => d.id).filter((id) => !used.has(id))).toEqual([]);
  });
});
