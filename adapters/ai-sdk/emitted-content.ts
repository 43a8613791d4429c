/**
 * Reconciliation, in one place: what the consumer has seen of a model call, and how to complete it with the full
 * answer of a non-streamed request once the stream was cut (the remainder only, or a reset then the whole answer).
 * It speaks AI SDK stream parts, so it lives in the adapter; the stream guard's `GuardedCall` uses it.
 */
import type {
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart as Part,
  SharedV4ProviderMetadata,
} from '@ai-sdk/provider';
import { sameJson } from '../../src/util/shape.js';
import { resetPart } from './reset-part.js';

type Metadata = SharedV4ProviderMetadata | undefined;

/** A block the stream ended: where its characters are in the text shown of its kind, and its last metadata. */
interface ClosedBlock {
  from: number;
  to: number;
  metadata: Metadata;
}

/** What the consumer has seen of one kind of block (text or reasoning). */
class ShownBlocks {
  /** Every character shown, all blocks joined. */
  text = '';
  /** Ids of every block started, in order. */
  readonly ids: string[] = [];
  /** Open blocks by id: where each began in `text`, and its metadata so far (the SDK keeps a block's last). */
  readonly open = new Map<string, { from: number; metadata: Metadata }>();
  readonly closed: ClosedBlock[] = [];

  start(id: string, metadata: Metadata): void {
    this.ids.push(id);
    this.open.set(id, { from: this.text.length, metadata });
  }

  delta(id: string, delta: string, metadata: Metadata): void {
    this.text += delta;
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

  /** Whether a block the stream ended, over characters in [from, to), carries metadata. */
  signedWithin(from: number, to: number): boolean {
    return this.closed.some((b) => b.metadata !== undefined && b.from < to && b.to > from);
  }
}

/**
 * What the consumer has seen of the current model call: text and reasoning per block, open blocks and tool
 * calls. It knows how to complete that output with a full non-streamed answer.
 */
export class EmittedContent {
  chars = 0;
  readonly #shown = { text: new ShownBlocks(), reasoning: new ShownBlocks() };
  readonly #openToolInputs = new Set<string>();
  readonly #toolCalls = new Set<string>();

  /** Records a part on its way to the consumer. */
  track(part: Part): void {
    switch (part.type) {
      case 'text-start':
      case 'reasoning-start':
        this.#shown[part.type === 'text-start' ? 'text' : 'reasoning'].start(part.id, part.providerMetadata);
        return;
      case 'text-delta':
      case 'reasoning-delta':
        this.chars += part.delta.length;
        this.#shown[part.type === 'text-delta' ? 'text' : 'reasoning'].delta(
          part.id,
          part.delta,
          part.providerMetadata,
        );
        return;
      case 'text-end':
      case 'reasoning-end':
        this.#shown[part.type === 'text-end' ? 'text' : 'reasoning'].end(part.id, part.providerMetadata);
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
   * The parts that turn what was emitted into `result`'s complete answer, in the answer's order. When the answer
   * begins with what was emitted — its text, and the metadata of every block the stream already ended — only the
   * remainder follows; otherwise a reset part, then the whole answer. Every text and reasoning part of the answer
   * carries its `providerMetadata` (signatures, redacted thinking, item ids) onto the block it completes or opens, so
   * the next step sends the provider what it needs. Tool calls already emitted (same tool, same input) are never
   * emitted again.
   */
  completeWith(result: LanguageModelV4GenerateResult, attempt: number): Part[] {
    const continued = this.#continuation(result, attempt);
    if (continued !== undefined) return continued;
    const { text, reasoning } = this.#shown;
    const parts = this.#closeOpen();
    parts.push(
      resetPart({
        textIds: text.ids,
        reasoningIds: reasoning.ids,
        toolInputIds: [...this.#openToolInputs],
        discardedChars: this.chars,
      }),
    );
    this.#eachPart(
      result,
      attempt,
      (kind, content, id) => block(kind, id, content.text, content.providerMetadata),
      parts,
    );
    return parts;
  }

  /** The remainder of `result` after what was emitted, or `undefined` when the answer does not continue it. */
  #continuation(result: LanguageModelV4GenerateResult, attempt: number): Part[] | undefined {
    const cursors = {
      text: new AnswerCursor(this.#shown.text),
      reasoning: new AnswerCursor(this.#shown.reasoning),
    };
    if (
      !cursors.text.begins(textsOf(result, 'text')) ||
      !cursors.reasoning.begins(textsOf(result, 'reasoning'))
    )
      return undefined;
    const parts: Part[] = [];
    let matches = true;
    this.#eachPart(
      result,
      attempt,
      (kind, content, id) => {
        const next = cursors[kind].next(kind, content.text, content.providerMetadata, id);
        if (next === undefined) matches = false;
        return next ?? [];
      },
      parts,
    );
    if (!matches || !cursors.text.done() || !cursors.reasoning.done()) return undefined;
    for (const kind of ['text', 'reasoning'] as const)
      for (const id of cursors[kind].completed) this.#shown[kind].open.delete(id);
    parts.push(...this.#closeOpen());
    return parts;
  }

  /** Walks the answer in order into `parts`: text and reasoning through `each`, other parts once (no repeated call). */
  #eachPart(
    result: LanguageModelV4GenerateResult,
    attempt: number,
    each: (kind: Kind, content: { text: string; providerMetadata?: Metadata }, id: string) => Part[],
    parts: Part[],
  ): void {
    result.content.forEach((content, index) => {
      if (content.type === 'text' || content.type === 'reasoning') {
        parts.push(...each(content.type, content, `graceful-ai-${attempt}-${content.type}-${index}`));
        return;
      }
      const repeated =
        content.type === 'tool-call' && this.#toolCalls.has(toolCallKey(content.toolName, content.input));
      if (!repeated) parts.push(content as Part);
    });
  }

  /** Ends every block the failed stream left open, so the consumer's parts stay well-formed. */
  #closeOpen(): Part[] {
    const parts: Part[] = [];
    for (const id of this.#shown.reasoning.open.keys()) parts.push({ type: 'reasoning-end', id });
    for (const id of this.#shown.text.open.keys()) parts.push({ type: 'text-end', id });
    this.#shown.reasoning.open.clear();
    this.#shown.text.open.clear();
    return parts;
  }
}

/**
 * Matches an answer's parts of one kind, in order, against what was shown of that kind. A part shown in full must
 * be where the stream showed it, with the same metadata (a block the stream ended cannot be changed); the part in
 * which what was shown ends completes the open block (its end brings the answer's metadata), and every later part
 * is a new block. `next` returns `undefined` when the answer does not continue what was shown.
 */
class AnswerCursor {
  /** Where, in the text shown, the answer's next part begins. */
  #at = 0;
  #reached = false;
  readonly #usedEmpty = new Set<ClosedBlock>();
  /** Open blocks this answer completed. */
  readonly completed: string[] = [];

  constructor(private readonly shown: ShownBlocks) {}

  /** Whether the answer's text of this kind (its parts' `texts`) begins with the text shown. */
  begins(texts: readonly string[]): boolean {
    return texts.join('').startsWith(this.shown.text);
  }

  next(kind: Kind, text: string, metadata: Metadata, newId: string): Part[] | undefined {
    if (this.#reached) return block(kind, newId, text, metadata);
    const { shown } = this;
    const from = this.#at;
    const to = from + text.length;
    const end = shown.text.length;
    const open = shown.lastOpen();
    if (text === '') {
      const empty = shown.closed.find((b) => b.from === from && b.to === from && !this.#usedEmpty.has(b));
      if (empty !== undefined) {
        this.#usedEmpty.add(empty);
        return sameJson(empty.metadata, metadata) ? [] : undefined;
      }
      if (from < end) return undefined; // an empty part the stream never showed, within what it showed
    } else if (to < end || (to === end && (open === undefined || open.from === end))) {
      // Shown in full: it ends before what was shown does, or with it while the open block (if any) holds none of it.
      // Its metadata must be what the block the stream ended over exactly its text has; plain text may be merged.
      this.#at = to;
      const exact = shown.closed.find((b) => b.from === from && b.to === to);
      if (exact !== undefined) return sameJson(exact.metadata, metadata) ? [] : undefined;
      return metadata === undefined && !shown.signedWithin(from, to) ? [] : undefined;
    }
    // The part in which what was shown ends.
    this.#reached = true;
    const rest = text.slice(end - from);
    if (open !== undefined) {
      // Partly in a block the stream ended, partly in the open one: only plain text may be split so.
      if (from < open.from && (metadata !== undefined || shown.signedWithin(from, open.from)))
        return undefined;
      this.completed.push(open.id);
      return completion(kind, open.id, rest, metadata);
    }
    // Partly shown in a block the stream ended: only plain text may go on in a new block.
    if (from < end && (metadata !== undefined || shown.signedWithin(from, end))) return undefined;
    return block(kind, newId, rest, metadata);
  }

  /** Whether every empty block the stream ended with metadata (redacted thinking, a signature alone) was matched. */
  done(): boolean {
    return this.shown.closed.every(
      (b) => b.from !== b.to || b.metadata === undefined || this.#usedEmpty.has(b),
    );
  }
}

type Kind = 'text' | 'reasoning';

/** `{ providerMetadata }` when there is any: parts without metadata stay exactly as the guard always sent them. */
function withMetadata(metadata: Metadata): { providerMetadata?: SharedV4ProviderMetadata } {
  return metadata === undefined ? {} : { providerMetadata: metadata };
}

/**
 * A whole block for one part of the answer. An empty part is kept when it carries metadata (redacted reasoning is
 * an empty part whose data the next request needs).
 */
function block(kind: Kind, id: string, text: string, metadata: Metadata): Part[] {
  if (text === '' && metadata === undefined) return [];
  const meta = withMetadata(metadata);
  const parts: Part[] = [{ type: `${kind}-start`, id, ...meta }];
  if (text !== '') parts.push({ type: `${kind}-delta`, id, delta: text, ...meta });
  parts.push({ type: `${kind}-end`, id, ...meta });
  return parts;
}

/**
 * The remainder of an open block, then its end. The SDK keeps a block's last `providerMetadata` (a delta or an end
 * that carries one replaces it), so the end carries the answer's: what was streamed before the cut had none yet, or
 * the failed response's.
 */
function completion(kind: Kind, id: string, rest: string, metadata: Metadata): Part[] {
  const meta = withMetadata(metadata);
  const parts: Part[] = [];
  if (rest !== '') parts.push({ type: `${kind}-delta`, id, delta: rest, ...meta });
  parts.push({ type: `${kind}-end`, id, ...meta });
  return parts;
}

function textsOf(result: LanguageModelV4GenerateResult, type: Kind): string[] {
  const texts: string[] = [];
  for (const part of result.content) if (part.type === type) texts.push(part.text);
  return texts;
}

/** Identity of a tool call across requests (ids differ per request): the tool and its input, JSON-normalised. */
function toolCallKey(toolName: string, input: string): string {
  try {
    return `${toolName}\u0000${JSON.stringify(JSON.parse(input))}`;
  } catch {
    return `${toolName}\u0000${input}`;
  }
}
