/**
 * A program (`program.ts`, `otel-program.ts` or `redis-program.ts`) bundled for runtimes without Node: everything
 * inlined (`ai`, `@ai-sdk/provider-utils`, `@upstash/redis`, OpenTelemetry, graceful-ai), browser/edge conditions, no
 * imports left. One script (an IIFE that sets `globalThis.gracefulRuntimeProgram`), so the very same bytes run as a
 * script in the edge runtime and inside an ES module worker in workerd. A program that needs Node built-ins the
 * runtime provides (workerd with `nodejs_compat`) is an ES module instead, importing them as `node:` modules, as
 * wrangler leaves them.
 */
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

export const GLOBAL_NAME = 'gracefulRuntimeProgram';

export interface Bundle {
  code: string;
  /** `script`: sets the global; `module`: exports `run`. */
  format: 'script' | 'module';
  /** Every import left in the output (none, but the Node built-ins asked for). */
  imports: string[];
}

export interface BundleOptions {
  /** Maps a package to another entry, as an app for that runtime imports it (`@upstash/redis/cloudflare`). */
  alias?: Record<string, string>;
  /** Node built-ins the runtime provides (`async_hooks`): imported as `node:` modules; the bundle is then a module. */
  nodeBuiltins?: string[];
}

/** `require('events')` in a CommonJS dependency becomes an import of `node:events`. */
const nodeBuiltinsPlugin = (names: string[]): Plugin => ({
  name: 'node-builtins',
  setup(build) {
    const bare = new RegExp(`^(${names.join('|')})$`);
    build.onResolve({ filter: bare }, (args) => ({ path: args.path, namespace: 'node-builtin' }));
    build.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, external: true }));
    build.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => ({
      contents: `export * from 'node:${args.path}';`,
    }));
  },
});

export async function bundleProgram(
  program = './program.ts',
  { alias, nodeBuiltins = [] }: BundleOptions = {},
): Promise<Bundle> {
  const isModule = nodeBuiltins.length > 0;
  const result = await build({
    entryPoints: [fileURLToPath(new URL(program, import.meta.url))],
    alias,
    plugins: isModule ? [nodeBuiltinsPlugin(nodeBuiltins)] : [],
    bundle: true,
    format: isModule ? 'esm' : 'iife',
    globalName: isModule ? undefined : GLOBAL_NAME,
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
  if (isModule) return { code, format: 'module', imports };
  // Under `var` in a script it is global already; a module scope (workerd) needs it put there explicitly.
  return { code: `${code}\nglobalThis.${GLOBAL_NAME} = ${GLOBAL_NAME};\n`, format: 'script', imports };
}
