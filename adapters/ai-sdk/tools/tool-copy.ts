import type { ToolExecutionOptions } from 'ai';

/** A tool's `execute`, called loosely (the wrappers do not know the tool's input and output types). */
export type LooseExecute = (input: unknown, options: ToolExecutionOptions<unknown>) => unknown;

/**
 * A copy of `object` (a tool, an SDK event) with `overrides`: every own property kept with its descriptor
 * (non-enumerable ones such as the SDK's `experimental_toolCaller` included) and the same prototype (class-based tools
 * keep their methods, class-based events their getters). A spread (`{ ...tool }`) would drop both.
 */
export function copyWith<T extends object>(object: T, overrides: Record<PropertyKey, unknown>): T {
  const copy = Object.create(Object.getPrototypeOf(object), Object.getOwnPropertyDescriptors(object)) as T;
  for (const key of Reflect.ownKeys(overrides)) {
    Object.defineProperty(copy, key, {
      value: overrides[key],
      writable: true,
      configurable: true,
      enumerable: true,
    });
  }
  return copy;
}

/** The tool's `execute` bound to the tool, as the SDK calls it (`tool.execute(…)`), or `undefined`. */
export function boundExecute(tool: object): LooseExecute | undefined {
  const execute = (tool as { execute?: unknown }).execute;
  if (typeof execute !== 'function') return undefined;
  return (input, options) => execute.call(tool, input, options);
}
