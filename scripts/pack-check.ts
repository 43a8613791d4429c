/**
 * Packs graceful-ai, installs the tarball into an empty project next to ai@7 and @ai-sdk/openai@4, then checks
 * that every entry point in package.json `exports` imports at run time and type-checks from a
 * consumer's TypeScript file. Run with `npm run pack:check`; test/package/pack.test.ts runs it too.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { packInto, root, run } from './run.js';

/** Every entry point the package exports (`graceful-ai`, `graceful-ai/testing`, …), from package.json. */
const entryPoints = Object.keys(
  (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> })
    .exports,
)
  .filter((key) => key !== './package.json')
  .map((key) => (key === '.' ? 'graceful-ai' : `graceful-ai/${key.slice(2)}`));

export function packCheck(): { tarball: string; exports: Record<string, string[]> } {
  const work = mkdtempSync(join(tmpdir(), 'graceful-ai-pack-'));
  try {
    const tarball = packInto(work);
    const app = join(work, 'app');
    run('mkdir', ['-p', app], work);
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
    // The versions we develop against are already in npm's cache after `npm ci`.
    const versions = (name: string) =>
      JSON.parse(
        run('node', ['-p', `JSON.stringify(require('${name}/package.json').version)`], root),
      ) as string;
    run(
      'npm',
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        tarball,
        `ai@${versions('ai')}`,
        `@ai-sdk/openai@${versions('@ai-sdk/openai')}`,
        `@ai-sdk/provider@${versions('@ai-sdk/provider')}`,
        `zod@${versions('zod')}`,
        `msw@${versions('msw')}`,
        `@types/node@${versions('@types/node')}`,
      ],
      app,
    );
    writeFileSync(
      join(app, 'check.mjs'),
      `const entries = ${JSON.stringify(entryPoints)};
const out = {};
for (const e of entries) out[e] = Object.keys(await import(e)).sort();
console.log(JSON.stringify(out));\n`,
    );
    const exports = JSON.parse(run('node', ['check.mjs'], app)) as Record<string, string[]>;
    writeFileSync(
      join(app, 'consumer.ts'),
      `import { tool, type UIMessage } from 'ai';
import { z } from 'zod';
import { type Classification, classifyError, gracefulTool, ModelRetry } from 'graceful-ai';
import { mockHandlers, reply, startMockServer } from 'graceful-ai/testing';
import { RpcClient, runRpcServer } from 'graceful-ai/rpc';
import { CircuitBreaker, type Clock } from 'graceful-ai/policy';
import { parseRetryAfter } from 'graceful-ai/classify';
import { TurnTrace } from 'graceful-ai/observe';
import { trimContext } from 'graceful-ai/session';
import { withoutDiscarded } from 'graceful-ai/ui';

const readFile = gracefulTool(
  tool({
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => {
      if (!path) throw new ModelRetry('path is empty');
      return path.length;
    },
  }),
);
// The wrapped tool keeps the SDK's input inference.
type Input = Parameters<NonNullable<typeof readFile.execute>>[0];
export const input: Input = { path: 'a.txt' };
// @ts-expect-error: path must be a string (fails if inference degraded to any)
export const wrong: Input = { path: 1 };
export const verdict: Classification = classifyError(new Error('socket hang up'));
export const kit = [mockHandlers, reply, startMockServer, RpcClient, runRpcServer];
export const blocks = [CircuitBreaker, parseRetryAfter, TurnTrace, trimContext];
export const clock: Clock = { now: () => 0 };
// withoutDiscarded keeps the caller's message type (its metadata would be unknown otherwise).
type Chat = UIMessage<{ at: number }>;
export const clean = (messages: Chat[]): Chat[] => messages.map(withoutDiscarded);
export const at = (message: Chat): number | undefined => withoutDiscarded(message).metadata?.at;\n`,
    );
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2023',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
        },
        files: ['consumer.ts'],
      }),
    );
    run(join(root, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], app);
    return { tarball: basename(tarball), exports };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const { tarball, exports } = packCheck();
  console.log(`${tarball}: installed next to ai@7 and @ai-sdk/openai@4; types resolve.`);
  for (const [entry, names] of Object.entries(exports)) console.log(`${entry}: ${names.join(', ')}`);
}
