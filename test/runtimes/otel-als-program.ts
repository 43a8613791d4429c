/**
 * `otel-program.ts` with the context manager an application on Node (or a Worker with `nodejs_compat`) registers:
 * `AsyncLocalStorageContextManager`, which needs the runtime's `async_hooks` and `events` (so `bundle.ts` leaves them
 * as `node:` imports).
 */
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { type OtelProgramResult, runWithOtel } from './otel-program.js';

export function run(): Promise<OtelProgramResult> {
  return runWithOtel(new AsyncLocalStorageContextManager());
}
