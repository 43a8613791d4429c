/**
 * Continuation recovery: after a cut, ask the model to continue the text it already showed instead of answering
 * anew. The recovery request ends with an assistant message holding that text (a prefill), which the provider
 * continues exactly, so the consumer gets only the continuation and never a reset. Which providers can do it is
 * decided here only, by the model's `provider` id, in one small table; an option can name a style for servers the
 * table cannot know (vLLM, DeepSeek, Mistral behind an OpenAI-compatible endpoint).
 */
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { isContextOverflow } from '../../../../src/classify/classify.js';

/**
 * How a recovery request asks for a continuation of the shown text:
 * - `'anthropic'`: a trailing assistant message (Anthropic Messages continues it exactly; not with extended
 *   thinking enabled, which requires the final assistant message to start with a thinking block);
 * - `'vllm'`: the same, plus the body flags `continue_final_message: true, add_generation_prompt: false`
 *   (through `@ai-sdk/openai-compatible`, whose provider options reach the request body);
 * - `'prefix'`: the same, with `prefix: true` on that message (DeepSeek, Mistral; through
 *   `@ai-sdk/openai-compatible`, which copies `providerOptions.openaiCompatible` onto the message).
 */
export type ContinuationStyle = 'anthropic' | 'vllm' | 'prefix';

/** The `continuation` option: `'auto'` uses {@link continuationByProvider}; `'off'` always regenerates. */
export type ContinuationOption = 'auto' | 'off' | ContinuationStyle;

export const continuationOptions: readonly ContinuationOption[] = [
  'auto',
  'off',
  'anthropic',
  'vllm',
  'prefix',
];

/**
 * The providers that continue a trailing assistant message by default, by `model.provider`. Only Anthropic's
 * Messages API is known to do so with no extra flag; servers that need one (vLLM, DeepSeek) are reached through
 * providers whose id says nothing about the server, so they are opt-in.
 */
export const continuationByProvider: Readonly<Record<string, ContinuationStyle>> = {
  'anthropic.messages': 'anthropic',
};

/** The style a call uses, or `undefined` when it regenerates. */
export function continuationStyle(
  option: ContinuationOption,
  model: Pick<LanguageModelV4, 'provider' | 'modelId'>,
): ContinuationStyle | undefined {
  if (option === 'off') return undefined;
  if (rejectedPrefill.has(modelKey(model))) return undefined;
  return option === 'auto' ? continuationByProvider[model.provider] : option;
}

/** A continuation request: its params, and the whitespace the prefill left out at its end. */
export interface Prefill {
  params: LanguageModelV4CallOptions;
  /** The text the model continues from (the shown text without its trailing whitespace). */
  text: string;
  /** Trailing whitespace of the shown text: the provider rejects (or trims) it, the consumer has seen it. */
  whitespace: string;
}

/**
 * The recovery request that continues `texts` (the step's text blocks as shown, in order), or `undefined` when the
 * style cannot apply to this call. The last block is sent without its trailing whitespace: Anthropic rejects a
 * final assistant message that ends with whitespace, and a prefill ending in a space makes any model tokenize the
 * next word oddly.
 */
export function prefill(
  style: ContinuationStyle,
  model: Pick<LanguageModelV4, 'provider'>,
  params: LanguageModelV4CallOptions,
  texts: readonly string[],
): Prefill | undefined {
  const last = texts.at(-1) ?? '';
  const text = last.trimEnd();
  if (text.trim() === '') return undefined;
  if (style === 'anthropic' && thinkingEnabled(params)) return undefined;
  const content = [...texts.slice(0, -1), text]
    .filter((t) => t !== '')
    .map((t) => ({ type: 'text' as const, text: t }));
  const message: LanguageModelV4Prompt[number] =
    style === 'prefix'
      ? { role: 'assistant', content, providerOptions: { openaiCompatible: { prefix: true } } }
      : { role: 'assistant', content };
  const prompt: LanguageModelV4Prompt = [...params.prompt, message];
  let providerOptions = params.providerOptions;
  if (style === 'vllm') {
    // `@ai-sdk/openai-compatible` copies the options under its provider name (the id before the dot) into the body.
    const key = model.provider.split('.')[0] ?? model.provider;
    const flags = { continue_final_message: true, add_generation_prompt: false };
    providerOptions = { ...providerOptions, [key]: { ...providerOptions?.[key], ...flags } };
  }
  return { params: { ...params, prompt, providerOptions }, text, whitespace: last.slice(text.length) };
}

/** Anthropic requires extended thinking's final assistant message to start with a thinking block: no prefill. */
function thinkingEnabled(params: LanguageModelV4CallOptions): boolean {
  const thinking = (params.providerOptions?.anthropic as { thinking?: { type?: unknown } } | undefined)
    ?.thinking;
  return thinking !== undefined && thinking.type !== 'disabled';
}

/**
 * Whether a failed continuation request was the provider refusing the prefill (then: one regeneration). A context
 * overflow is also a 400, but says nothing about prefills: it must not mark the model as one that refuses them.
 */
export function isPrefillRejection(error: unknown): boolean {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return (status === 400 || status === 422) && !isContextOverflow(error);
}

/**
 * Models that refused a prefill, process-wide, so their later recoveries skip the wasted request (Anthropic's
 * newer models answer a prefill with 400 "Prefilling assistant messages is not supported for this model").
 * Bounded: the oldest entry goes first.
 */
const rejectedPrefill = new Set<string>();
const maxRejected = 100;

export function rememberPrefillRejection(model: Pick<LanguageModelV4, 'provider' | 'modelId'>): void {
  rejectedPrefill.add(modelKey(model));
  if (rejectedPrefill.size > maxRejected) rejectedPrefill.delete(rejectedPrefill.values().next().value!);
}

const modelKey = (model: Pick<LanguageModelV4, 'provider' | 'modelId'>) =>
  `${model.provider}\u0000${model.modelId}`;
