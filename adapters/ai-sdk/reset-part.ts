import type { JSONObject, LanguageModelV4Prompt } from '@ai-sdk/provider';

/** The `kind` of the custom stream part that tells a consumer to discard what a failed stream showed. */
export const RESET_KIND = 'graceful-ai.reset';

/** What the consumer should discard: the blocks the failed stream opened, by their stream part ids. */
export interface ResetDetails {
  /** Ids of the `text-*` blocks already shown; discard them all. */
  textIds: string[];
  /** Ids of the `reasoning-*` blocks already shown. */
  reasoningIds: string[];
  /** Ids of `tool-input-*` blocks left incomplete (no tool call followed them). */
  toolInputIds: string[];
  /** Characters of text and reasoning being discarded. */
  discardedChars: number;
}

/**
 * The reset part: `{ type: 'custom', kind: 'graceful-ai.reset', providerMetadata: { 'graceful-ai': { reset } } }`.
 * It arrives after the discarded blocks were closed and before the complete new answer.
 */
export interface GracefulResetPart {
  type: 'custom';
  kind: typeof RESET_KIND;
  providerMetadata: { 'graceful-ai': { reset: ResetDetails & JSONObject } };
}

export function resetPart(details: ResetDetails): GracefulResetPart {
  return { type: 'custom', kind: RESET_KIND, providerMetadata: { 'graceful-ai': { reset: { ...details } } } };
}

/** Whether a stream part, step content part or message part is the guard's reset part. */
export function isResetPart(part: unknown): part is GracefulResetPart {
  return (
    typeof part === 'object' &&
    part !== null &&
    (part as { type?: unknown }).type === 'custom' &&
    (part as { kind?: unknown }).kind === RESET_KIND
  );
}

/**
 * Removes, in place, the last reset part and every text and reasoning part before it: what remains is the
 * complete answer only. Works on `step.content` and on an assistant message's `content`. Returns whether a reset
 * part was found.
 */
export function removeDiscarded(content: unknown[]): boolean {
  const reset = content.findLastIndex(isResetPart);
  if (reset < 0) return false;
  const kept = content.filter((part, i) => i > reset || (i < reset && !isDiscardable(part)));
  content.splice(0, content.length, ...kept);
  return true;
}

/**
 * `prompt` without what a reset discarded: each assistant message holding a reset part is copied without it and the
 * text and reasoning before it (the caller's messages are left as they are). The AI SDK builds the next step's prompt
 * from its own copy of the step's messages, which no `onStepEnd` cleanup reaches, so the guard cleans every prompt it
 * sends: the model never reads a discarded partial answer, nor its unsigned reasoning.
 */
export function promptWithoutDiscarded(prompt: LanguageModelV4Prompt): LanguageModelV4Prompt {
  if (!prompt.some((message) => message.role === 'assistant' && message.content.some(isResetPart)))
    return prompt;
  return prompt.map((message) => {
    if (message.role !== 'assistant' || !message.content.some(isResetPart)) return message;
    const content = [...message.content];
    removeDiscarded(content);
    return { ...message, content };
  });
}

function isDiscardable(part: unknown): boolean {
  const type = (part as { type?: unknown }).type;
  return type === 'text' || type === 'reasoning' || isResetPart(part);
}
