/**
 * Node built-ins, resolved when first needed through `process.getBuiltinModule` (Node ≥ 22.3), never imported at
 * module load: the main entry then loads in runtimes without them (Vercel's edge runtime, Cloudflare workerd without
 * `nodejs_compat`), and only the Node-only features fail there, with an error that says so.
 */

type BuiltinName = 'node:fs' | 'node:os' | 'node:util' | 'node:async_hooks';

interface NodeProcess {
  getBuiltinModule?: (name: string) => unknown;
  env?: Record<string, string | undefined>;
}

/** The runtime's `process`, if it has one. */
export function runtimeProcess(): NodeProcess | undefined {
  const candidate = (globalThis as { process?: unknown }).process;
  return typeof candidate === 'object' && candidate !== null ? (candidate as NodeProcess) : undefined;
}

/** The built-in module, or `undefined` where the runtime has none. */
export function optionalBuiltin<T>(name: BuiltinName): T | undefined {
  try {
    return runtimeProcess()?.getBuiltinModule?.(name) as T | undefined;
  } catch {
    return undefined;
  }
}

/** The built-in module for a Node-only feature; throws an error naming the feature where the runtime has none. */
export function requireBuiltin<T>(name: BuiltinName, feature: string): T {
  const module = optionalBuiltin<T>(name);
  if (module === undefined) {
    throw new Error(
      `graceful-ai: ${feature} needs Node.js (≥ 22.3, for ${name}), which this runtime does not provide.`,
    );
  }
  return module;
}
