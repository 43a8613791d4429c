/**
 * Reconciliation, in one place: what the consumer has seen of a model call, and how to complete it with the full
 * answer of a non-streamed request once the stream was cut (the remainder only, or a reset then the whole answer).
 * It speaks AI SDK stream parts, so it lives in the adapter; the stream guard's `GuardedCall` uses it.
 */
import type { LanguageModelV4GenerateResult, LanguageModelV4StreamPart as Part } from '@ai-sdk/provider';
import { resetPart } from './reset-part.js';

/**
 * What the consumer has seen of the current model call: text and reasoning per block, open blocks and tool
 * calls. It knows how to complete that output with a full non-streamed answer.
 */
export class EmittedContent {
  chars = 0;
  #text = '';
  #reasoning = '';
  readonly #textIds: string[] = [];
  readonly #reasoningIds: string[] = [];
  readonly #openText = new Set<string>();
  readonly #openReasoning = new Set<string>();
  readonly #openToolInputs = new Set<string>();
  readonly #toolCalls = new Set<string>();

  /** Records a part on its way to the consumer. */
  track(part: Part): void {
    switch (part.type) {
      case 'text-start':
        this.#textIds.push(part.id);
        this.#openText.add(part.id);
        return;
      case 'text-delta':
        this.#text += part.delta;
        this.chars += part.delta.length;
        return;
      case 'text-end':
        this.#openText.delete(part.id);
        return;
      case 'reasoning-start':
        this.#reasoningIds.push(part.id);
        this.#openReasoning.add(part.id);
        return;
      case 'reasoning-delta':
        this.#reasoning += part.delta;
        this.chars += part.delta.length;
        return;
      case 'reasoning-end':
        this.#openReasoning.delete(part.id);
        return;
      case 'tool-input-start':
        this.#openToolInputs.add(part.id);
        return;
      case 'tool-input-end':
        this.#openToolInputs.delete(part.id);
        return;
      case 'tool-call':
        this.#toolCalls.add(toolCallKey(part.toolName, part.input));
        return;
    }
  }

  /**
   * The parts that turn what was emitted into `result`'s complete answer: the remainder only when the answer
   * begins with what was emitted, else a reset part and the whole answer. Tool calls already emitted (same
   * tool, same input) are never emitted again.
   */
  completeWith(result: LanguageModelV4GenerateResult, attempt: number): Part[] {
    const text = joined(result, 'text');
    const reasoning = joined(result, 'reasoning');
    const textRemainder = remainderAfter(this.#text, text);
    const reasoningRemainder = remainderAfter(this.#reasoning, reasoning);
    const parts: Part[] = [];
    const ids = { n: 0, next: (kind: string) => `graceful-ai-${attempt}-${kind}-${ids.n++}` };

    if (textRemainder === undefined || reasoningRemainder === undefined) {
      parts.push(...this.#closeOpen());
      parts.push(
        resetPart({
          textIds: this.#textIds,
          reasoningIds: this.#reasoningIds,
          toolInputIds: [...this.#openToolInputs],
          discardedChars: this.chars,
        }),
      );
      parts.push(...block('reasoning', ids.next('reasoning'), reasoning, true));
      parts.push(...block('text', ids.next('text'), text, true));
    } else {
      parts.push(...this.#continue('reasoning', reasoningRemainder));
      parts.push(...this.#continue('text', textRemainder, ids.next));
      parts.push(...this.#closeOpen());
    }
    for (const content of result.content) {
      if (content.type === 'text' || content.type === 'reasoning') continue;
      if (content.type === 'tool-call' && this.#toolCalls.has(toolCallKey(content.toolName, content.input)))
        continue;
      parts.push(content as Part);
    }
    return parts;
  }

  /** The remainder appended to the last open block of `kind`, or a new block when none is open. */
  #continue(kind: 'text' | 'reasoning', remainder: string, nextId?: (kind: string) => string): Part[] {
    if (remainder === '') return [];
    const open = kind === 'text' ? this.#openText : this.#openReasoning;
    const last = [...open].at(-1);
    if (last !== undefined) return [{ type: `${kind}-delta`, id: last, delta: remainder }];
    return block(kind, nextId?.(kind) ?? `graceful-ai-${kind}`, remainder, true);
  }

  /** Ends every block the failed stream left open, so the consumer's parts stay well-formed. */
  #closeOpen(): Part[] {
    const parts: Part[] = [];
    for (const id of this.#openReasoning) parts.push({ type: 'reasoning-end', id });
    for (const id of this.#openText) parts.push({ type: 'text-end', id });
    this.#openReasoning.clear();
    this.#openText.clear();
    return parts;
  }
}

/**
 * Reconciles what was emitted with the complete answer of a new (non-streamed) request: when the answer begins
 * with what was emitted, continue with the returned remainder (possibly empty); `undefined` means the answer
 * differs, so the consumer must discard what it has (a reset) and receive the answer in full.
 */
function remainderAfter(emitted: string, answer: string): string | undefined {
  return answer.startsWith(emitted) ? answer.slice(emitted.length) : undefined;
}

function block(kind: 'text' | 'reasoning', id: string, text: string, end: boolean): Part[] {
  if (text === '') return [];
  const parts: Part[] = [
    { type: `${kind}-start`, id },
    { type: `${kind}-delta`, id, delta: text },
  ];
  if (end) parts.push({ type: `${kind}-end`, id });
  return parts;
}

function joined(result: LanguageModelV4GenerateResult, type: 'text' | 'reasoning'): string {
  let text = '';
  for (const part of result.content) if (part.type === type) text += part.text;
  return text;
}

/** Identity of a tool call across requests (ids differ per request): the tool and its input, JSON-normalised. */
function toolCallKey(toolName: string, input: string): string {
  try {
    return `${toolName}\u0000${JSON.stringify(JSON.parse(input))}`;
  } catch {
    return `${toolName}\u0000${input}`;
  }
}
