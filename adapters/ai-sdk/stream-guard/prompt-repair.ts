/**
 * The tool history repair (`src/stream/tool-history-repair.ts`) as the guard records it. The drop-ins repair each
 * step's prompt in `prepareStep` (the SDK refuses a dangling call before any middleware sees the prompt) and note the
 * repair in the step's `providerOptions` under `graceful-ai`; the guard takes the note out before the provider sees
 * it, repairs what is still wrong in its own prompt (results without a call reach a middleware used alone), and
 * records both on every attempt of the call.
 */
import type { JSONObject, LanguageModelV4CallOptions, SharedV4ProviderOptions } from '@ai-sdk/provider';
import { repairToolHistory, type ToolHistoryRepair } from '../../../src/stream/tool-history-repair.js';
import { GUARD_METADATA_KEY } from './options.js';

const NOTE = 'toolHistoryRepair';

/** `providerOptions` with `repair` noted for the guard (the caller's own options kept). */
export function noteRepair(
  providerOptions: SharedV4ProviderOptions | undefined,
  repair: ToolHistoryRepair,
): SharedV4ProviderOptions {
  const own = providerOptions?.[GUARD_METADATA_KEY];
  return { ...providerOptions, [GUARD_METADATA_KEY]: { ...own, [NOTE]: repair } };
}

function merged(a: ToolHistoryRepair | undefined, b: ToolHistoryRepair | undefined) {
  if (a === undefined || b === undefined) return a ?? b;
  return { interrupted: [...a.interrupted, ...b.interrupted], dropped: [...a.dropped, ...b.dropped] };
}

function noted(options: SharedV4ProviderOptions | undefined): ToolHistoryRepair | undefined {
  const note = (options?.[GUARD_METADATA_KEY] as { [NOTE]?: unknown } | undefined)?.[NOTE];
  const { interrupted, dropped } = (note ?? {}) as Partial<ToolHistoryRepair>;
  return Array.isArray(interrupted) && Array.isArray(dropped) ? { interrupted, dropped } : undefined;
}

/** `params` without the drop-in's note, and the call's prompt repaired; the repair noted and made here, if any. */
export function repairedParams(params: LanguageModelV4CallOptions): {
  params: LanguageModelV4CallOptions;
  repair: ToolHistoryRepair | undefined;
} {
  const earlier = noted(params.providerOptions);
  const own = repairToolHistory(params.prompt);
  if (earlier === undefined && own.repair === undefined) return { params, repair: undefined };
  let providerOptions = params.providerOptions;
  if (earlier !== undefined) {
    const { [NOTE]: _, ...rest } = (providerOptions?.[GUARD_METADATA_KEY] ?? {}) as JSONObject;
    const { [GUARD_METADATA_KEY]: __, ...others } = providerOptions ?? {};
    const kept = Object.keys(rest).length > 0 ? { ...others, [GUARD_METADATA_KEY]: rest } : others;
    providerOptions = Object.keys(kept).length > 0 ? kept : undefined;
  }
  return {
    params: { ...params, prompt: [...own.messages], providerOptions },
    repair: merged(earlier, own.repair),
  };
}
