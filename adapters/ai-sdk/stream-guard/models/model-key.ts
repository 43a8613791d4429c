/**
 * A model's identity across processes: provider, model id and a fingerprint of its API key. Cool-downs and model
 * breakers are keyed by it, so two keys never share them, and the key itself never leaves the process.
 */
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { ModelRef } from '../../../../src/errors/failover-error.js';
import { fingerprint } from '../../../../src/util/fingerprint.js';
import { read } from '../../../../src/util/guarded.js';

/** The model as events and errors name it: provider and model id. */
export const modelRef = (model: LanguageModelV4): ModelRef => ({
  provider: model.provider,
  modelId: model.modelId,
});

/** The request headers that carry a provider's API key (OpenAI and compatibles, Anthropic, Azure, Google). */
const credentialHeaders = ['authorization', 'x-api-key', 'api-key', 'x-goog-api-key'];

const keys = new WeakMap<object, Promise<string>>();

/**
 * `model:<provider>:<model id>`, plus `:<fingerprint>` of the API key when the model exposes its request headers as
 * the AI SDK's providers do (`config.headers`, a record or a function returning one: see
 * github.com/vercel/ai packages/openai/src/chat/openai-chat-language-model.ts). Two keys never share a cool-down;
 * the key itself never leaves the process.
 */
export function modelKey(model: LanguageModelV4): Promise<string> {
  let key = keys.get(model);
  if (key === undefined) {
    key = keyOf(model);
    keys.set(model, key);
  }
  return key;
}

/** `wrapper` (a model graceful-ai wraps around `model`) keys as `model` does: it shows no headers of its own. */
export function keyAs<T extends LanguageModelV4>(wrapper: T, model: LanguageModelV4): T {
  keys.set(wrapper, modelKey(model));
  return wrapper;
}

async function keyOf(model: LanguageModelV4): Promise<string> {
  const base = `model:${model.provider}:${model.modelId}`;
  try {
    const source = read(read(model, 'config'), 'headers');
    const headers: unknown = await (typeof source === 'function' ? source() : source);
    for (const [name, value] of Object.entries((headers ?? {}) as Record<string, unknown>)) {
      if (typeof value === 'string' && value !== '' && credentialHeaders.includes(name.toLowerCase())) {
        return `${base}:${await fingerprint(value)}`;
      }
    }
  } catch {
    // No readable credentials (a missing key throws here, and fails the request itself): provider and model only.
  }
  return base;
}
