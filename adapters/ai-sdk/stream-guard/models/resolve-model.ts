/**
 * A model given as a string id (`'openai/gpt-4o'`) resolves as the AI SDK resolves it: through the global provider
 * (`globalThis.AI_SDK_DEFAULT_PROVIDER`), by default the AI Gateway. `wrapLanguageModel` refuses strings, and the
 * guard's fallbacks must be models it can call.
 */
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { gateway, type LanguageModel } from 'ai';

/** `model` as a model object (a string id resolved through the global provider, as the SDK does). */
export function resolveModel(model: LanguageModel): Exclude<LanguageModel, string> {
  if (typeof model !== 'string') return model;
  const provider = (
    globalThis as { AI_SDK_DEFAULT_PROVIDER?: { languageModel(id: string): LanguageModelV4 } }
  ).AI_SDK_DEFAULT_PROVIDER;
  return (provider ?? gateway).languageModel(model);
}
