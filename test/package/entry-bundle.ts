/**
 * Bundles as an app's bundler would make them (esbuild, ESM, minified), for the portability scan and the size budget:
 * one entry of the package with `ai` and `@ai-sdk/*` external (`bundleEntry`), or an import with every dependency
 * included, for the browser (`bundleWithDependencies`: how `ai`'s own weight is measured). Offline and deterministic:
 * esbuild reads only the repository and its node_modules.
 */
import { builtinModules } from 'node:module';
import { gzipSync } from 'node:zlib';
import { type BuildOptions, build } from 'esbuild';

export const nodeBuiltins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);

export interface EntryBundle {
  /** Every import left in the output. */
  imports: string[];
  /** Minified and gzipped size in bytes. */
  gzipBytes: number;
  /** Bytes each source file contributes to the minified output, largest first (files with none left out). */
  contributions: [file: string, bytes: number][];
}

async function bundle(contents: string, options: BuildOptions): Promise<EntryBundle> {
  const result = await build({
    ...options,
    stdin: { contents, resolveDir: process.cwd(), loader: 'ts' },
    bundle: true,
    format: 'esm',
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const outputs = Object.values(result.metafile.outputs);
  return {
    imports: outputs.flatMap((output) => output.imports.map((i) => i.path)),
    gzipBytes: gzipSync(result.outputFiles[0]?.contents ?? new Uint8Array()).length,
    contributions: outputs
      .flatMap((output) =>
        Object.entries(output.inputs).map(([file, input]): [string, number] => [file, input.bytesInOutput]),
      )
      .filter(([, bytes]) => bytes > 0)
      .sort((a, b) => b[1] - a[1]),
  };
}

/** The package's code only: `ai`, `@ai-sdk/*` and Node built-ins external, for any platform. */
export function bundleEntry(contents: string): Promise<EntryBundle> {
  return bundle(contents, {
    platform: 'neutral',
    mainFields: ['module', 'main'],
    // Built-ins are external too, so any that is reached shows up among the imports.
    external: ['ai', '@ai-sdk/*', ...nodeBuiltins],
  });
}

/** Everything the import reaches, node_modules included, bundled for the browser. */
export function bundleWithDependencies(contents: string): Promise<EntryBundle> {
  return bundle(contents, { platform: 'browser' });
}
