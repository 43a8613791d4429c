/**
 * The drop-in `streamText` with `gracefulTools`, bundled with everything (no imports left), inside Vercel's edge
 * runtime emulation (`edge-runtime`: a V8 context with only the edge globals, no `process.getBuiltinModule`).
 */
import { EdgeRuntime } from 'edge-runtime';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Bundle, bundleProgram, GLOBAL_NAME } from './bundle.js';
import { expectRecovered } from './expect-recovered.js';
import type { ProgramResult } from './program.js';

let bundle: Bundle;
beforeAll(async () => {
  bundle = await bundleProgram();
});

describe('Vercel edge runtime (edge-runtime)', () => {
  it('the bundle imports nothing', () => {
    expect(bundle.imports).toEqual([]);
  });

  it('streamText + gracefulTools recovers a stream cut mid-answer, each character once, logging nothing', async () => {
    const runtime = new EdgeRuntime();
    runtime.evaluate(bundle.code);
    // JSON across the context boundary: plain values of this realm.
    const json = await runtime.evaluate<Promise<string>>(`${GLOBAL_NAME}.run().then(JSON.stringify)`);
    const result = JSON.parse(json) as ProgramResult;

    expect(result.runtime).toMatchObject({ edgeRuntime: 'edge-runtime', getBuiltinModule: false });
    expectRecovered(result);
    expect(result.console).toEqual([]);
  });
});
