/**
 * The tool history repair (`src/stream/tool-history-repair.ts`) as the guard records it. The drop-ins repair each
 * step's prompt in `prepareStep` (the SDK refuses a dangling call before any middleware sees the prompt) and note the
 * repair in the step's `providerOptions` under `graceful-ai`; the guard takes the note out before the provider sees
 * it, repairs what is still wrong in its own prompt (results without a call reach a middleware used alone), and
 * records both on every attempt of the call. `sentParams`: everything the guard changes in a prompt before it sends it.
 */
import type { JSONObject, LanguageModelV4CallOptions, SharedV4ProviderOptions } from '@ai-sdk/provider';
import { withoutDiscardedMessages } from '../../../src/stream/reset-part.js';
import { repairToolHistory, type ToolHistoryRepair } from '../../../src/stream/tool-history-repair.js';
import { GUARD_METADATA_KEY } from './options.js';
import { withRecoveredMetadata } from './recovery/recovered-metadata.js';

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

/**
 * What the guard sends for `given`: the history repaired (`repairedParams`), text a reset discarded taken out, and
 * blocks a recovery replaced sent with the recovery's metadata.
 */
export function sentParams(given: LanguageModelV4CallOptions): ReturnType<typeof repairedParams> {
  const { params, repair } = repairedParams(given);
  const prompt = withRecoveredMetadata(withoutDiscardedMessages(params.prompt));
  return { params: prompt === params.prompt ? params : { ...params, prompt }, repair };
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
