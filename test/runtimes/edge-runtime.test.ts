/**
 * The drop-in `streamText` with `gracefulTools`, bundled with everything (no imports left), inside Vercel's edge
 * runtime emulation (`edge-runtime`: a V8 context with only the edge globals, no `process.getBuiltinModule`): without
 * OpenTelemetry, and with the OpenTelemetry SDK and `@ai-sdk/otel` registered but no context manager.
 */
import { EdgeRuntime } from 'edge-runtime';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Bundle, bundleProgram, GLOBAL_NAME } from './bundle.js';
import { expectGuardSpans } from './expect-otel-spans.js';
import { expectRecovered } from './expect-recovered.js';
import type { OtelProgramResult } from './otel-program.js';
import type { ProgramResult } from './program.js';

let bundle: Bundle;
let otelBundle: Bundle;
beforeAll(async () => {
  [bundle, otelBundle] = await Promise.all([bundleProgram(), bundleProgram('./otel-program.ts')]);
});

/** Runs a bundle's `run()` in a fresh edge runtime; its result crosses the context boundary as JSON. */
async function runInEdgeRuntime<T>(program: Bundle): Promise<T> {
  const runtime = new EdgeRuntime();
  runtime.evaluate(program.code);
  return JSON.parse(await runtime.evaluate<Promise<string>>(`${GLOBAL_NAME}.run().then(JSON.stringify)`));
}

describe('Vercel edge runtime (edge-runtime)', () => {
  it('the bundles import nothing', () => {
    expect(bundle.imports).toEqual([]);
    expect(otelBundle.imports).toEqual([]);
  });

  it('streamText + gracefulTools recovers a stream cut mid-answer, each character once, logging nothing', async () => {
    const result = await runInEdgeRuntime<ProgramResult>(bundle);
    expect(result.runtime).toMatchObject({ edgeRuntime: 'edge-runtime', getBuiltinModule: false });
    expectRecovered(result);
    expect(result.console).toEqual([]);
  });

  it('OpenTelemetry SDK + @ai-sdk/otel, no context manager: the same, and the guard records its spans', async () => {
    const result = await runInEdgeRuntime<OtelProgramResult>(otelBundle);
    expect(result.runtime).toMatchObject({ edgeRuntime: 'edge-runtime', getBuiltinModule: false });
    expect(result.contextManager).toBe(false);
    expectGuardSpans(result);
    expect(result.console).toEqual([]);
  });
});
