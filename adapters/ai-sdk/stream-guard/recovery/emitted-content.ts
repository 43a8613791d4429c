/**
 * What the consumer has seen of a model call: text and reasoning per block (with where each block's characters
 * are and its last metadata), open blocks, incomplete tool inputs and tool calls. A recovery is reconciled against
 * it (`reconciliation.ts`); it speaks AI SDK stream parts, so it lives in the adapter.
 */
import type { LanguageModelV4StreamPart as Part, SharedV4ProviderMetadata } from '@ai-sdk/provider';
import type { ResetDetails } from '../../../../src/stream/reset-part.js';

export type Metadata = SharedV4ProviderMetadata | undefined;
export type Kind = 'text' | 'reasoning';

/** A block the stream ended: where its characters are in the text shown of its kind, and its last metadata. */
export interface ClosedBlock {
  from: number;
  to: number;
  metadata: Metadata;
}

/** What the consumer has seen of one kind of block (text or reasoning). */
export class ShownBlocks {
  /** Every character shown, all blocks joined. */
  text = '';
  /** Ids of every block started, in order. */
  readonly ids: string[] = [];
  /** Open blocks by id: where each began in `text`, and its metadata so far (the SDK keeps a block's last). */
  readonly open = new Map<string, { from: number; metadata: Metadata }>();
  readonly closed: ClosedBlock[] = [];
  /** Each block's text, in order (what a continuation sends back as the prefill). */
  readonly texts: string[] = [];
  readonly #index = new Map<string, number>();

  start(id: string, metadata: Metadata): void {
    this.ids.push(id);
    this.#index.set(id, this.texts.length);
    this.texts.push('');
    this.open.set(id, { from: this.text.length, metadata });
  }

  delta(id: string, delta: string, metadata: Metadata): void {
    this.text += delta;
    const index = this.#index.get(id);
    if (index !== undefined) this.texts[index] += delta;
    if (metadata === undefined) return;
    const block = this.open.get(id);
    if (block) block.metadata = metadata;
  }

  end(id: string, metadata: Metadata): void {
    const block = this.open.get(id);
    if (block === undefined) return;
    this.open.delete(id);
    this.closed.push({ from: block.from, to: this.text.length, metadata: metadata ?? block.metadata });
  }

  /** The block the next characters of an answer would continue: the last one still open. */
  lastOpen(): { id: string; from: number } | undefined {
    const id = [...this.open.keys()].at(-1);
    return id === undefined ? undefined : { id, from: this.open.get(id)!.from };
  }
}

/**
 * What the consumer has seen of the current model call. Every part on its way to the consumer passes through
 * {@link track}, the recovered ones included, so a later recovery knows everything shown.
 */
export class EmittedContent {
  chars = 0;
  shown = { text: new ShownBlocks(), reasoning: new ShownBlocks() };
  #openToolInputs = new Set<string>();
  readonly #toolCalls = new Set<string>();
  /** Whether the step showed anything but text (reasoning, a tool input or call, a file, a source). */
  #onlyText = true;

  /** Records a part on its way to the consumer. */
  track(part: Part): void {
    switch (part.type) {
      case 'text-start':
      case 'reasoning-start':
        if (part.type === 'reasoning-start') this.#onlyText = false;
        this.shown[part.type === 'text-start' ? 'text' : 'reasoning'].start(part.id, part.providerMetadata);
        return;
      case 'text-delta':
      case 'reasoning-delta':
        this.chars += part.delta.length;
        this.shown[part.type === 'text-delta' ? 'text' : 'reasoning'].delta(
          part.id,
          part.delta,
          part.providerMetadata,
        );
        return;
      case 'text-end':
      case 'reasoning-end':
        this.shown[part.type === 'text-end' ? 'text' : 'reasoning'].end(part.id, part.providerMetadata);
        return;
      case 'tool-input-start':
        this.#onlyText = false;
        this.#openToolInputs.add(part.id);
        return;
      case 'tool-input-end':
        this.#openToolInputs.delete(part.id);
        return;
      case 'tool-call':
        this.#onlyText = false;
        this.#toolCalls.add(toolCallKey(part.toolName, part.input));
        return;
      case 'tool-result':
      case 'tool-approval-request':
      case 'file':
      case 'reasoning-file':
      case 'source':
        this.#onlyText = false;
        return;
    }
  }

  /**
   * The text blocks a continuation can send back as the prefill, in order, or `undefined` when the step showed
   * anything else: reasoning (Anthropic's extended thinking allows no prefill; its signature is not yet known), an
   * incomplete or complete tool call (a prefill can only extend the text at the end of the turn), a file, a source.
   */
  prefillTexts(): readonly string[] | undefined {
    return this.#onlyText && this.shown.text.text.trim() !== '' ? this.shown.text.texts : undefined;
  }

  /** Whether the consumer has seen a tool call with this tool and input (ids differ between requests). */
  hasToolCall(toolName: string, input: string): boolean {
    return this.#toolCalls.has(toolCallKey(toolName, input));
  }

  /** What a reset must tell the consumer to discard: everything shown of this step's text and reasoning. */
  resetDetails(): ResetDetails {
    return {
      textIds: [...this.shown.text.ids],
      reasoningIds: [...this.shown.reasoning.ids],
      toolInputIds: [...this.#openToolInputs],
      discardedChars: this.chars,
    };
  }

  /** After a reset: nothing of the text, reasoning or incomplete tool inputs counts as shown; tool calls still do. */
  startOver(): void {
    this.chars = 0;
    this.shown = { text: new ShownBlocks(), reasoning: new ShownBlocks() };
    this.#openToolInputs = new Set();
  }

  /** Ends every block still open, so the consumer's parts stay well-formed. */
  closeOpen(): Part[] {
    const parts: Part[] = [];
    for (const id of this.shown.reasoning.open.keys()) parts.push({ type: 'reasoning-end', id });
    for (const id of this.shown.text.open.keys()) parts.push({ type: 'text-end', id });
    for (const part of parts) this.track(part);
    return parts;
  }
}

/** Identity of a tool call across requests (ids differ per request): the tool and its input, JSON-normalised. */
function toolCallKey(toolName: string, input: string): string {
  try {
    return `${toolName}\u0000${JSON.stringify(JSON.parse(input))}`;
  } catch {
    return `${toolName}\u0000${input}`;
  }
}
