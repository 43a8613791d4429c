/**
 * The drop-in `streamText` with `gracefulTools`, bundled with everything (no imports left), as an ES module worker
 * in Cloudflare workerd (through miniflare): without compatibility flags at an old compatibility date, and with
 * `nodejs_compat`, where graceful-ai must print nothing unless `NODE_DEBUG` asks (workerd's `util.debuglog` is
 * always on). The worker's stdout/stderr are captured; a sentinel line per run proves the capture works.
 */
import type { Readable } from 'node:stream';
import { Miniflare } from 'miniflare';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleProgram, GLOBAL_NAME } from './bundle.js';
import { expectRecovered } from './expect-recovered.js';
import type { ProgramResult } from './program.js';

const SENTINEL = 'runtime-test-sentinel';

let workerSource: string;
beforeAll(async () => {
  const bundle = await bundleProgram();
  expect(bundle.imports).toEqual([]);
  workerSource = `${bundle.code}
export default {
  async fetch(request) {
    if (new URL(request.url).pathname === '/sentinel') {
      console.log('${SENTINEL} stdout');
      console.error('${SENTINEL} stderr');
      return new Response('ok');
    }
    return new Response(JSON.stringify(await globalThis.${GLOBAL_NAME}.run()));
  },
};
`;
});

interface Options {
  compatibilityDate: string;
  compatibilityFlags?: string[];
  bindings?: Record<string, string>;
}

/** Runs the program in a fresh workerd; `output` is everything the worker printed, sentinel lines removed. */
async function runInWorkerd(options: Options): Promise<{ result: ProgramResult; output: string }> {
  let printed = '';
  const mf = new Miniflare({
    modules: [{ type: 'ESModule', path: 'worker.mjs', contents: workerSource }],
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
    return { result: JSON.parse(body) as ProgramResult, output };
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
