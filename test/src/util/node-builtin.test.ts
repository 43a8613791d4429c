/**
 * Node built-ins are resolved at first use, so only the Node-only feature fails where a runtime lacks them, and it
 * says so; everything else keeps working (docs/runtimes.md).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

const realGetBuiltinModule = process.getBuiltinModule;

afterEach(() => {
  process.getBuiltinModule = realGetBuiltinModule;
  vi.resetModules();
});

/** Loads modules as a runtime without `process.getBuiltinModule` (Vercel's edge runtime, workerd without flags). */
function withoutNodeBuiltins(): void {
  process.getBuiltinModule = undefined as unknown as typeof process.getBuiltinModule;
  vi.resetModules();
}

describe('where the runtime has no Node built-ins', () => {
  it('JsonlSessionStore fails when opened, naming itself and what to use instead', async () => {
    withoutNodeBuiltins();
    const { JsonlSessionStore } = await import('../../../src/session/jsonl-store.js');
    expect(() => new JsonlSessionStore('/tmp/never.jsonl')).toThrow(
      /JsonlSessionStore .*InMemorySessionStore.*needs Node\.js \(≥ 22\.3, for node:fs\)/,
    );
  });

  it('traceTurn still runs the call, without a trace', async () => {
    withoutNodeBuiltins();
    const { traceTurn } = await import('../../../adapters/ai-sdk/tools/tool-resilience.js');
    const { TurnTrace } = await import('../../../src/observe/trace.js');
    expect(traceTurn(new TurnTrace(), () => 42)).toBe(42);
  });

  it('a global AsyncLocalStorage (Next.js edge, workerd nodejs_als) carries the trace', async () => {
    const { AsyncLocalStorage } = await import('node:async_hooks');
    const stores: unknown[] = [];
    class RuntimeStorage<T> extends AsyncLocalStorage<T> {
      override run<R>(store: T, callback: () => R): R {
        return super.run(store, () => {
          stores.push(this.getStore());
          return callback();
        });
      }
    }
    withoutNodeBuiltins();
    vi.stubGlobal('AsyncLocalStorage', RuntimeStorage);
    try {
      const { traceTurn } = await import('../../../adapters/ai-sdk/tools/tool-resilience.js');
      const { TurnTrace } = await import('../../../src/observe/trace.js');
      const trace = new TurnTrace();
      expect(traceTurn(trace, () => 'answer')).toBe('answer');
      expect(stores).toEqual([trace]);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
