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
  return {
    ...providerOptions,
    [GUARD_METADATA_KEY]: { ...providerOptions?.[GUARD_METADATA_KEY], [NOTE]: repair },
  };
}

/** `params` without the drop-in's note, and the call's prompt repaired; the repair noted and made here, if any. */
export function repairedParams(params: LanguageModelV4CallOptions): {
  params: LanguageModelV4CallOptions;
  repair: ToolHistoryRepair | undefined;
} {
  const { [GUARD_METADATA_KEY]: ours, ...others } = params.providerOptions ?? {};
  const { [NOTE]: note, ...rest } = (ours ?? {}) as JSONObject;
  const noted = note as ToolHistoryRepair | undefined;
  const { messages, repair } = repairToolHistory(params.prompt);
  if (noted === undefined && repair === undefined) return { params, repair };
  const kept = Object.keys(rest).length > 0 ? { ...others, [GUARD_METADATA_KEY]: rest } : others;
  return {
    params: {
      ...params,
      prompt: [...messages],
      providerOptions: Object.keys(kept).length > 0 ? kept : undefined,
    },
    repair: {
      interrupted: [...(noted?.interrupted ?? []), ...(repair?.interrupted ?? [])],
      dropped: [...(noted?.dropped ?? []), ...(repair?.dropped ?? [])],
    },
  };
}
