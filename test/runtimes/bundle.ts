/**
 * A program (`program.ts`, or `redis-program.ts`) bundled for runtimes without Node: everything inlined (`ai`,
 * `@ai-sdk/provider-utils`, `@upstash/redis`, graceful-ai), browser/edge conditions, no imports left. One script (an
 * IIFE that sets `globalThis.gracefulRuntimeProgram`), so the very same bytes run as a script in the edge runtime and
 * inside an ES module worker in workerd.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const GLOBAL_NAME = 'gracefulRuntimeProgram';

export interface Bundle {
  code: string;
  /** Every import left in the output (must be none). */
  imports: string[];
}

/** `alias` maps a package to another entry, as an app for that runtime imports it (`@upstash/redis/cloudflare`). */
export async function bundleProgram(
  program = './program.ts',
  alias?: Record<string, string>,
): Promise<Bundle> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(program, import.meta.url))],
    alias,
    bundle: true,
    format: 'iife',
    globalName: GLOBAL_NAME,
    platform: 'browser',
    conditions: ['edge-light', 'worker', 'browser'],
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.text ?? '';
  const imports = Object.values(result.metafile.outputs).flatMap((output) =>
    output.imports.map((i) => i.path),
  );
  // Under `var` in a script it is global already; a module scope (workerd) needs it put there explicitly.
  return { code: `${code}\nglobalThis.${GLOBAL_NAME} = ${GLOBAL_NAME};\n`, imports };
}
