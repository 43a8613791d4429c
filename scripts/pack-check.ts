/**
 * Packs graceful-ai, installs the tarball into an empty project next to ai@7 and @ai-sdk/openai@4, then checks
 * that every entry point in package.json `exports` imports at run time and type-checks from a
 * consumer's TypeScript file. Before that, the tarball is checked in a project without msw (the optional peer of
 * `graceful-ai/testing/msw` only). Run with `npm run pack:check`; test/package/pack.test.ts runs it too.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
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

/** What a project without msw saw: `graceful-ai/testing`'s names, its loopback answer, the MSW entry's load error. */
export interface WithoutMsw {
  testing: string[];
  answer: string;
  mswEntry: string;
}

/** A consumer's tsconfig for one file; `skipLibCheck: false` (TypeScript's default) checks every `.d.ts` it reaches. */
const consumerConfig = (file: string, skipLibCheck: boolean) =>
  JSON.stringify({
    compilerOptions: {
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      target: 'ES2023',
      strict: true,
      noEmit: true,
      skipLibCheck,
      types: ['node'],
    },
    files: [file],
  });

/**
 * A project without msw, nothing installed (offline and fast): the tarball unpacked into `node_modules/graceful-ai`
 * next to links to the repository's p-limit (graceful-ai's one dependency) and @types/node. A `tsc` with
 * `skipLibCheck: false` on a file using `graceful-ai/testing`'s `startMockServer` must pass (an `import('msw')`
 * anywhere in the `.d.ts` files it reaches fails it), the entry must run, and `graceful-ai/testing/msw` must fail
 * to load.
 */
function checkWithoutMsw(tarball: string, work: string): WithoutMsw {
  const app = join(work, 'without-msw');
  const modules = join(app, 'node_modules');
  mkdirSync(join(modules, 'graceful-ai'), { recursive: true });
  mkdirSync(join(modules, '@types'));
  run('tar', ['-xzf', tarball, '-C', join(modules, 'graceful-ai'), '--strip-components=1'], work);
  const link = (name: string) => symlinkSync(join(root, 'node_modules', name), join(modules, name), 'dir');
  link('p-limit');
  link('@types/node');
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'no-msw', private: true, type: 'module' }));
  writeFileSync(
    join(app, 'testing.ts'),
    `import { type MockServer, reply, startMockServer } from 'graceful-ai/testing';

export async function openaiURL(): Promise<string> {
  const mock: MockServer = await startMockServer({ script: [reply.text('Hello')] });
  try {
    return mock.urls.openai;
  } finally {
    await mock.close();
  }
}\n`,
  );
  writeFileSync(join(app, 'tsconfig.json'), consumerConfig('testing.ts', false));
  if (existsSync(join(modules, 'msw'))) throw new Error(`${modules} has msw`);
  run(join(root, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], app);
  writeFileSync(
    join(app, 'check.mjs'),
    `const testing = await import('graceful-ai/testing');
const mock = await testing.startMockServer({ script: [testing.reply.text('Hello')] });
const response = await fetch(mock.urls.openai + '/chat/completions', {
  method: 'POST',
  body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
});
const answer = (await response.json()).choices[0].message.content;
await mock.close();
const mswEntry = await import('graceful-ai/testing/msw').then(() => 'loaded', (e) => e.code + ': ' + e.message);
console.log(JSON.stringify({ testing: Object.keys(testing).sort(), answer, mswEntry }));\n`,
  );
  return JSON.parse(run('node', ['check.mjs'], app)) as WithoutMsw;
}

export function packCheck(): { tarball: string; exports: Record<string, string[]>; withoutMsw: WithoutMsw } {
  const work = mkdtempSync(join(tmpdir(), 'graceful-ai-pack-'));
  try {
    const tarball = packInto(work);
    const withoutMsw = checkWithoutMsw(tarball, work);
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
import { reply, startMockServer } from 'graceful-ai/testing';
import { mockHandlers } from 'graceful-ai/testing/msw';
import { setupServer } from 'msw/node';
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
export const kit = [reply, startMockServer, RpcClient, runRpcServer];
const handlers = mockHandlers([reply.text('Hello')], { baseURLs: { openai: 'http://proxy.test/v1' } });
setupServer().use(...handlers);
export const recorded: number = handlers.requests.length;
// @ts-expect-error: a handler is msw's HttpHandler, not a string (fails if msw's types did not resolve)
export const notAny: string = handlers[0];
export const blocks = [CircuitBreaker, parseRetryAfter, TurnTrace, trimContext];
export const clock: Clock = { now: () => 0 };
// withoutDiscarded keeps the caller's message type (its metadata would be unknown otherwise).
type Chat = UIMessage<{ at: number }>;
export const clean = (messages: Chat[]): Chat[] => messages.map(withoutDiscarded);
export const at = (message: Chat): number | undefined => withoutDiscarded(message).metadata?.at;\n`,
    );
    writeFileSync(join(app, 'tsconfig.json'), consumerConfig('consumer.ts', true));
    run(join(root, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], app);
    return { tarball: basename(tarball), exports, withoutMsw };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const { tarball, exports, withoutMsw } = packCheck();
  console.log(`${tarball}: installed next to ai@7 and @ai-sdk/openai@4; types resolve.`);
  console.log(
    `without msw: graceful-ai/testing type-checks (skipLibCheck: false) and runs; the MSW entry: ${withoutMsw.mswEntry}`,
  );
  for (const [entry, names] of Object.entries(exports)) console.log(`${entry}: ${names.join(', ')}`);
}
