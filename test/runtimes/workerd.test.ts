/**
 * The drop-in `streamText` with `gracefulTools`, bundled with everything (no imports left), as an ES module worker
 * in Cloudflare workerd (through miniflare): without compatibility flags at an old compatibility date, and with
 * `nodejs_compat`, where graceful-ai must print nothing unless `NODE_DEBUG` asks (workerd's `util.debuglog` is
 * always on); then with the OpenTelemetry SDK and `@ai-sdk/otel` registered, without a context manager (a Worker
 * without flags has no AsyncLocalStorage) and with `AsyncLocalStorageContextManager` under `nodejs_compat` (it needs
 * `node:events` besides `node:async_hooks`, so `nodejs_als` alone cannot load it). The worker's stdout/stderr are
 * captured; a sentinel line per run proves the capture works.
 */
import type { Readable } from 'node:stream';
import { Miniflare } from 'miniflare';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Bundle, bundleProgram, GLOBAL_NAME } from './bundle.js';
import { expectGuardSpans } from './expect-otel-spans.js';
import { expectRecovered } from './expect-recovered.js';
import type { OtelProgramResult } from './otel-program.js';
import type { ProgramResult } from './program.js';

const SENTINEL = 'runtime-test-sentinel';

/** The handler: the sentinel lines, or the program's result as JSON. */
const handler = (run: string) => `
export default {
  async fetch(request) {
    if (new URL(request.url).pathname === '/sentinel') {
      console.log('${SENTINEL} stdout');
      console.error('${SENTINEL} stderr');
      return new Response('ok');
    }
    return new Response(JSON.stringify(await ${run}()));
  },
};
`;

type Modules = { type: 'ESModule'; path: string; contents: string }[];

/** A script bundle runs in the worker's module; a module bundle is imported by it. */
function workerModules(bundle: Bundle): Modules {
  if (bundle.format === 'script')
    return [
      {
        type: 'ESModule',
        path: 'worker.mjs',
        contents: `${bundle.code}${handler(`globalThis.${GLOBAL_NAME}.run`)}`,
      },
    ];
  return [
    {
      type: 'ESModule',
      path: 'worker.mjs',
      contents: `import { run } from './program.mjs';${handler('run')}`,
    },
    { type: 'ESModule', path: 'program.mjs', contents: bundle.code },
  ];
}

let worker: Modules;
let otelWorker: Modules;
let otelAlsWorker: Modules;
beforeAll(async () => {
  const [bundle, otelBundle, otelAlsBundle] = await Promise.all([
    bundleProgram(),
    bundleProgram('./otel-program.ts'),
    bundleProgram('./otel-als-program.ts', { nodeBuiltins: ['async_hooks', 'events'] }),
  ]);
  expect(bundle.imports).toEqual([]);
  expect(otelBundle.imports).toEqual([]);
  // Only the runtime's own modules, which a Worker's bundler leaves to it.
  expect(otelAlsBundle.imports.sort()).toEqual(['node:async_hooks', 'node:events']);
  worker = workerModules(bundle);
  otelWorker = workerModules(otelBundle);
  otelAlsWorker = workerModules(otelAlsBundle);
});

interface Options {
  compatibilityDate: string;
  compatibilityFlags?: string[];
  bindings?: Record<string, string>;
}

/** Runs the program in a fresh workerd; `output` is everything the worker printed, sentinel lines removed. */
async function runInWorkerd<T = ProgramResult>(
  options: Options,
  modules = worker,
): Promise<{ result: T; output: string }> {
  let printed = '';
  const mf = new Miniflare({
    modules,
    ...options,
    handleRuntimeStdio(stdout: Readable, stderr: Readable) {
      stdout.on('data', (chunk: Buffer) => {
        printed += String(chunk);
      });
      stderr.on('data', (chunk: Buffer) => {
        printed += String(chunk);
      });
    },
  });
  try {
    const response = await mf.dispatchFetch('http://localhost/');
    const body = await response.text();
    expect(response.status, body).toBe(200);
    await (await mf.dispatchFetch('http://localhost/sentinel')).text();
    // Printed lines arrive asynchronously: wait for both sentinels, so everything printed before them is in.
    await expect.poll(() => printed.split(SENTINEL).length - 1, { timeout: 5_000, interval: 20 }).toBe(2);
    const output = printed
      .split('\n')
      .filter((line) => !line.includes(SENTINEL))
      .join('\n')
      .trim();
    return { result: JSON.parse(body) as T, output };
  } finally {
    await mf.dispose();
  }
}

describe('Cloudflare workerd (miniflare)', () => {
  it('no compatibility flags, compatibility date 2024-01-01: recovers, each character once, prints nothing', async () => {
    const { result, output } = await runInWorkerd({ compatibilityDate: '2024-01-01' });
    expect(result.runtime).toMatchObject({ userAgent: 'Cloudflare-Workers', getBuiltinModule: false });
    expectRecovered(result);
    expect(result.console).toEqual([]);
    expect(output).toBe('');
  });

  it('nodejs_compat: recovers, each character once, and graceful-ai prints nothing', async () => {
    const { result, output } = await runInWorkerd({
      compatibilityDate: '2025-09-01',
      compatibilityFlags: ['nodejs_compat'],
    });
    expect(result.runtime).toMatchObject({ userAgent: 'Cloudflare-Workers', getBuiltinModule: true });
    expectRecovered(result);
    expect(result.console).toEqual([]);
    expect(output).toBe('');
  });

  it('nodejs_compat with NODE_DEBUG=graceful-ai: the same capture does see its debug lines', async () => {
    const { result, output } = await runInWorkerd({
      compatibilityDate: '2025-09-01',
      compatibilityFlags: ['nodejs_compat'],
      bindings: { NODE_DEBUG: 'graceful-ai' },
    });
    expectRecovered(result);
    expect(output).toContain('GRACEFUL-AI: debug tool error converted for the model');
    expect(result.console.length).toBeGreaterThan(0);
  });
});

describe('Cloudflare workerd (miniflare) with the OpenTelemetry SDK and @ai-sdk/otel registered', () => {
  it.each([
    {
      title: 'no compatibility flags, no context manager: recovers, the guard records its spans as roots',
      options: { compatibilityDate: '2024-01-01' },
      modules: () => otelWorker,
      contextManager: false,
    },
    {
      title:
        'nodejs_compat, AsyncLocalStorageContextManager: recovers, the guard spans nest in the SDK trace',
      options: { compatibilityDate: '2025-09-01', compatibilityFlags: ['nodejs_compat'] },
      modules: () => otelAlsWorker,
      contextManager: true,
    },
  ])('$title; prints nothing', async ({ options, modules, contextManager }) => {
    const { result, output } = await runInWorkerd<OtelProgramResult>(options, modules());
    expect(result.runtime).toMatchObject({ userAgent: 'Cloudflare-Workers' });
    expect(result.contextManager).toBe(contextManager);
    expectGuardSpans(result);
    expect(result.console).toEqual([]);
    expect(output).toBe('');
  });
});
