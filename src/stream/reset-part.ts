/** The `kind` of the custom stream part that tells a consumer to discard what a failed stream showed. */
export const RESET_KIND = 'graceful-ai.reset';

/**
 * What the consumer should discard: the blocks the failed stream opened, by their stream part ids. A type alias, not
 * an interface, so it is a JSON object to the AI SDK's metadata types.
 */
export type ResetDetails = {
  /** Ids of the `text-*` blocks already shown; discard them all. */
  textIds: string[];
  /** Ids of the `reasoning-*` blocks already shown. */
  reasoningIds: string[];
  /** Ids of `tool-input-*` blocks left incomplete (no tool call followed them). */
  toolInputIds: string[];
  /** Characters of text and reasoning being discarded. */
  discardedChars: number;
};

/**
 * The reset part: `{ type: 'custom', kind: 'graceful-ai.reset', providerMetadata: { 'graceful-ai': { reset } } }`.
 * It arrives after the discarded blocks were closed and before the complete new answer.
 */
export interface GracefulResetPart {
  type: 'custom';
  kind: typeof RESET_KIND;
  providerMetadata: { 'graceful-ai': { reset: ResetDetails } };
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
 * Removes, in place, what a reset discarded: the reset part and every text and reasoning part before it. What
 * remains is the complete answer only. Works on `step.content` and on an assistant message's `content` (see
 * {@link withoutDiscardedParts}). Returns whether a reset part was found.
 */
export function removeDiscarded(content: unknown[]): boolean {
  const kept = withoutDiscardedParts(content);
  if (kept === content) return false;
  content.splice(0, content.length, ...kept);
  return true;
}

/**
 * `messages` without what resets discarded, from each assistant message; the same array when nothing was. Works on
 * the SDK's model messages and on a middleware's prompt. The AI SDK builds each step's prompt from its own copy of
 * the step's messages, which no `onStepEnd` cleanup reaches: the drop-ins clean it in `prepareStep`, the guard in
 * every prompt it sends (for apps that use the middleware alone), so the model never reads a discarded partial
 * answer, nor its unsigned reasoning.
 */
export function withoutDiscardedMessages<M extends { role: string; content: unknown }>(messages: M[]): M[] {
  let cleaned: M[] | undefined;
  messages.forEach((message, i) => {
    if (message.role !== 'assistant' || !Array.isArray(message.content)) return;
    const content = withoutDiscardedParts(message.content);
    if (content === message.content) return;
    cleaned ??= messages.slice();
    cleaned[i] = { ...message, content };
  });
  return cleaned ?? messages;
}

/**
 * `parts` without what resets discarded, as a new array; the same array when it holds no reset part. Parts are
 * split into steps at `step-start` parts (a UI message); a list without them (a step's content, a model message's
 * content) is one step. In a step with a reset, everything the failed stream showed before the step's last reset
 * goes: text and reasoning parts, and tool parts whose `toolCallId` a reset lists as an incomplete tool input.
 * Reset parts go too. Nothing else is touched: tool calls, sources, files and other steps stay.
 */
export function withoutDiscardedParts<T>(parts: T[]): T[] {
  if (!parts.some(isResetPart)) return parts;
  const kept: T[] = [];
  let start = 0;
  while (start < parts.length) {
    let end = start + 1;
    while (end < parts.length && !isStepStart(parts[end])) end++;
    keepStep(parts, start, end, kept);
    start = end;
  }
  return kept;
}

/** Appends to `kept` what survives of the step `parts[start..end)`. */
function keepStep<T>(parts: T[], start: number, end: number, kept: T[]): void {
  let lastReset = -1;
  const incompleteToolInputs = new Set<unknown>();
  for (let i = start; i < end; i++) {
    const part = parts[i];
    if (!isResetPart(part)) continue;
    lastReset = i;
    for (const id of resetToolInputIds(part)) incompleteToolInputs.add(id);
  }
  for (let i = start; i < end; i++) {
    const part = parts[i] as T;
    if (isResetPart(part)) continue;
    if (i < lastReset && (isShownText(part) || incompleteToolInputs.has(toolCallIdOf(part)))) continue;
    kept.push(part);
  }
}

function isStepStart(part: unknown): boolean {
  return typeof part === 'object' && part !== null && (part as { type?: unknown }).type === 'step-start';
}

function isShownText(part: unknown): boolean {
  const type = (part as { type?: unknown }).type;
  return type === 'text' || type === 'reasoning';
}

function toolCallIdOf(part: unknown): unknown {
  return typeof part === 'object' && part !== null
    ? (part as { toolCallId?: unknown }).toolCallId
    : undefined;
}

/**
 * The incomplete tool inputs a reset lists. Read defensively: a stored message may have lost the details (stream
 * parts carry them in `providerMetadata`, model messages in `providerOptions`).
 */
function resetToolInputIds(part: GracefulResetPart): unknown[] {
  const record = part as { providerMetadata?: unknown; providerOptions?: unknown };
  const metadata = (record.providerMetadata ?? record.providerOptions) as
    | { 'graceful-ai'?: { reset?: { toolInputIds?: unknown } } }
    | undefined;
  const ids = metadata?.['graceful-ai']?.reset?.toolInputIds;
  return Array.isArray(ids) ? ids : [];
}
