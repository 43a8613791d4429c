/**
 * One entry of the package bundled as an app's bundler would (esbuild, ESM, `ai` and `@ai-sdk/*` external), for the
 * portability scan and the size budget.
 */
import { builtinModules } from 'node:module';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

export const nodeBuiltins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);

export interface EntryBundle {
  /** Every import left in the output. */
  imports: string[];
  /** Minified and gzipped size in bytes. */
  gzipBytes: number;
  /** Bytes each source file contributes to the minified output, largest first. */
  contributions: [file: string, bytes: number][];
}

export async function bundleEntry(contents: string): Promise<EntryBundle> {
  const result = await build({
    stdin: { contents, resolveDir: process.cwd(), loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    minify: true,
    // Built-ins are external too, so any that is reached shows up among the imports.
    external: ['ai', '@ai-sdk/*', ...nodeBuiltins],
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
      .sort((a, b) => b[1] - a[1]),
  };
}
