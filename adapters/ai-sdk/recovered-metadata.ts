/**
 * When a recovery repeats a block the consumer has already seen in full, character for character, the consumer keeps
 * the shown block: nobody reads it twice. But the provider gave the recovered block its own metadata (an OpenAI
 * Responses item id, a signature), and the shown block's may name an item of the failed response. So the guard
 * remembers the pair, and the recovered metadata replaces the shown block's wherever it is sent or kept: in every
 * prompt the guard sends (the next step's request, a prompt built from stored chat messages in this process), and in
 * the drop-ins' steps and response messages.
 */
import type { LanguageModelV4Prompt, SharedV4ProviderMetadata } from '@ai-sdk/provider';

type Metadata = SharedV4ProviderMetadata;

/** Shown metadata (canonical JSON) → the recovered block's metadata (`undefined`: none). Process-wide, bounded. */
const replacements = new Map<string, Metadata | undefined>();
const maxReplacements = 1000;

/** Remembers that a block shown with `shown` metadata was recovered with `recovered`. */
export function rememberRecoveredMetadata(shown: Metadata, recovered: Metadata | undefined): void {
  const key = canonicalJson(shown);
  replacements.delete(key);
  replacements.set(key, recovered);
  if (replacements.size > maxReplacements) replacements.delete(replacements.keys().next().value!);
}

/** The metadata that replaces `metadata` (`{ metadata: undefined }`: none at all), or `undefined` to keep it. */
export function recoveredMetadataFor(metadata: unknown): { metadata: Metadata | undefined } | undefined {
  if (replacements.size === 0 || typeof metadata !== 'object' || metadata === null) return undefined;
  const key = canonicalJson(metadata);
  return replacements.has(key) ? { metadata: replacements.get(key) } : undefined;
}

/**
 * `parts` with the metadata under `field` replaced where a recovery gave a block other metadata (see
 * {@link recoveredMetadataFor}); the same array when nothing was.
 */
export function withRecoveredPartMetadata<P extends object>(
  parts: readonly P[],
  field: 'providerMetadata' | 'providerOptions',
): readonly P[] {
  let changed: P[] | undefined;
  parts.forEach((part, i) => {
    const replacement = recoveredMetadataFor((part as Record<string, unknown>)[field]);
    if (replacement === undefined) return;
    const { [field]: _, ...rest } = part as Record<string, unknown>;
    changed ??= parts.slice();
    changed[i] = (
      replacement.metadata === undefined ? rest : { ...rest, [field]: replacement.metadata }
    ) as P;
  });
  return changed ?? parts;
}

/** {@link withRecoveredPartMetadata} in place (a step's content, a response message's). */
export function applyRecoveredPartMetadata(
  parts: object[],
  field: 'providerMetadata' | 'providerOptions',
): void {
  const replaced = withRecoveredPartMetadata(parts, field);
  if (replaced !== parts) parts.splice(0, parts.length, ...replaced);
}

/** `prompt` with the recovered metadata in its assistant messages; the same array when nothing was replaced. */
export function withRecoveredMetadata(prompt: LanguageModelV4Prompt): LanguageModelV4Prompt {
  if (replacements.size === 0) return prompt;
  let changed: LanguageModelV4Prompt | undefined;
  prompt.forEach((message, i) => {
    if (message.role !== 'assistant') return;
    const content = withRecoveredPartMetadata(message.content, 'providerOptions');
    if (content === message.content) return;
    changed ??= prompt.slice();
    changed[i] = { ...message, content: [...content] };
  });
  return changed ?? prompt;
}

/** JSON with object keys sorted: equal JSON values give equal strings. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
