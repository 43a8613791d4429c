/** What a program inside a runtime reports about the runtime, and every console call it made. */

/** What the runtime says it is: `navigator.userAgent`, `EdgeRuntime`, and whether `process.getBuiltinModule` exists. */
export interface RuntimeFacts {
  userAgent: string | undefined;
  edgeRuntime: string | undefined;
  getBuiltinModule: boolean;
}

export function runtimeFacts(): RuntimeFacts {
  const g = globalThis as {
    navigator?: { userAgent?: string };
    EdgeRuntime?: string;
    process?: { getBuiltinModule?: unknown };
  };
  return {
    userAgent: g.navigator?.userAgent,
    edgeRuntime: g.EdgeRuntime,
    getBuiltinModule: typeof g.process?.getBuiltinModule === 'function',
  };
}

const consoleMethods = ['log', 'debug', 'info', 'warn', 'error', 'trace'] as const;

/** Runs `body` with every console method recorded (and still forwarded); `console` lists the calls. */
export async function withConsoleRecorded<T>(
  body: () => Promise<T>,
): Promise<{ value: T; console: string[] }> {
  const seen: string[] = [];
  const originals = consoleMethods.map((name) => [name, console[name]] as const);
  for (const [name, original] of originals) {
    console[name] = (...args: unknown[]) => {
      seen.push(`${name}: ${args.map(String).join(' ')}`);
      original.apply(console, args);
    };
  }
  try {
    return { value: await body(), console: seen };
  } finally {
    for (const [name, original] of originals) console[name] = original;
  }
}
