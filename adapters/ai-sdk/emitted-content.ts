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
import { resetPart } from './reset-part.js';

/** What the consumer has seen of one kind of block (text or reasoning). */
class ShownBlocks {
  /** Every character shown, all blocks joined. */
  text = '';
  /** Ids of every block started, in order. */
  readonly ids: string[] = [];
  readonly open = new Set<string>();
  /** Where (offsets into `text`) blocks ended that showed no characters: a signature or redacted thinking alone. */
  readonly emptyEnds: number[] = [];
  /** The last block started and the characters it has shown, to tell which part of an answer it holds. */
  #tail: string | undefined;
  #tailChars = 0;

  start(id: string): void {
    this.ids.push(id);
    this.open.add(id);
    this.#tail = id;
    this.#tailChars = 0;
  }

  delta(id: string, delta: string): void {
    this.text += delta;
    if (id === this.#tail) this.#tailChars += delta.length;
  }

  end(id: string): void {
    this.open.delete(id);
    if (id === this.#tail && this.#tailChars === 0) this.emptyEnds.push(this.text.length);
  }

  /**
   * Whether an answer whose parts of this kind hold `texts` begins with what was shown: its text starts with the
   * text shown, and its empty parts (a signature or redacted thinking alone) are where the empty blocks shown are —
   * the same ones within the text shown, at least as many where it ends.
   */
  begin(texts: readonly string[]): boolean {
    let answer = '';
    const empties: number[] = [];
    for (const text of texts) {
      if (text === '') empties.push(answer.length);
      answer += text;
    }
    if (!answer.startsWith(this.text)) return false;
    const end = this.text.length;
    const within = (offsets: number[]) => offsets.filter((at) => at < end).join();
    const atEnd = (offsets: number[]) => offsets.filter((at) => at === end).length;
    return within(empties) === within(this.emptyEnds) && atEnd(empties) >= atEnd(this.emptyEnds);
  }

  /** The block the next characters of an answer would continue: the last one still open. */
  lastOpen(): string | undefined {
    return [...this.open].at(-1);
  }

  /** Whether open block `id` (if any) has shown no characters; an open block other than the last started has. */
  holdsNothing(id: string | undefined): boolean {
    return id === undefined || (id === this.#tail && this.#tailChars === 0);
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
        this.#shown.text.start(part.id);
        return;
      case 'text-delta':
        this.chars += part.delta.length;
        this.#shown.text.delta(part.id, part.delta);
        return;
      case 'text-end':
        this.#shown.text.end(part.id);
        return;
      case 'reasoning-start':
        this.#shown.reasoning.start(part.id);
        return;
      case 'reasoning-delta':
        this.chars += part.delta.length;
        this.#shown.reasoning.delta(part.id, part.delta);
        return;
      case 'reasoning-end':
        this.#shown.reasoning.end(part.id);
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
   * The parts that turn what was emitted into `result`'s complete answer, in the answer's order: the remainder only
   * when the answer begins with what was emitted, else a reset part and the whole answer. Every text and reasoning
   * part of the answer carries its `providerMetadata` (signatures, redacted thinking, item ids) onto the block it
   * completes or opens, so the next step sends the provider what it needs. Tool calls already emitted (same tool,
   * same input) are never emitted again.
   */
  completeWith(result: LanguageModelV4GenerateResult, attempt: number): Part[] {
    const { text, reasoning } = this.#shown;
    const continues = text.begin(textsOf(result, 'text')) && reasoning.begin(textsOf(result, 'reasoning'));
    const parts: Part[] = [];
    if (!continues) {
      parts.push(...this.#closeOpen());
      parts.push(
        resetPart({
          textIds: text.ids,
          reasoningIds: reasoning.ids,
          toolInputIds: [...this.#openToolInputs],
          discardedChars: this.chars,
        }),
      );
    }
    const match = {
      text: new AnswerCursor(text, continues),
      reasoning: new AnswerCursor(reasoning, continues),
    };
    result.content.forEach((content, index) => {
      if (content.type === 'text' || content.type === 'reasoning') {
        const newId = `graceful-ai-${attempt}-${content.type}-${index}`;
        parts.push(
          ...match[content.type].complete(content.type, content.text, content.providerMetadata, newId),
        );
        return;
      }
      const repeated =
        content.type === 'tool-call' && this.#toolCalls.has(toolCallKey(content.toolName, content.input));
      if (!repeated) parts.push(content as Part);
    });
    parts.push(...this.#closeOpen());
    return parts;
  }

  /** Ends every block the failed stream left open, so the consumer's parts stay well-formed. */
  #closeOpen(): Part[] {
    const parts: Part[] = [];
    for (const id of this.#shown.reasoning.open) parts.push({ type: 'reasoning-end', id });
    for (const id of this.#shown.text.open) parts.push({ type: 'text-end', id });
    this.#shown.reasoning.open.clear();
    this.#shown.text.open.clear();
    return parts;
  }
}

/**
 * Walks an answer's parts of one kind against what was shown of that kind: parts shown in full are skipped, the
 * part in which what was shown ends completes the open block, and every later part is a new block. Without
 * continuation (after a reset) every part is new.
 */
class AnswerCursor {
  /** Characters shown that the answer's parts have yet to account for. */
  #pending: number;
  /** Empty blocks shown and not yet matched to an empty part of the answer. */
  readonly #emptyEnds: number[];
  #reached: boolean;

  constructor(
    private readonly shown: ShownBlocks,
    continues: boolean,
  ) {
    this.#pending = continues ? shown.text.length : 0;
    this.#emptyEnds = continues ? [...shown.emptyEnds] : [];
    this.#reached = !continues;
  }

  complete(kind: Kind, text: string, metadata: SharedV4ProviderMetadata | undefined, newId: string): Part[] {
    if (this.#reached) return block(kind, newId, text, metadata);
    const open = this.shown.lastOpen();
    if (this.#shownInFull(text, open)) {
      this.#pending -= text.length;
      return [];
    }
    // The part in which what was shown ends: its remainder completes the open block, or opens a new one.
    this.#reached = true;
    const rest = text.slice(this.#pending);
    const nothingShown = this.#pending === 0;
    this.#pending = 0;
    if (open !== undefined) {
      this.shown.open.delete(open);
      return completion(kind, open, rest, metadata);
    }
    return rest !== '' || nothingShown ? block(kind, newId, rest, metadata) : [];
  }

  /**
   * Whether the consumer has this part in full in a block the stream ended, so the open block (if any) belongs to a
   * later part: more was shown than the part holds, or exactly as much and the open block holds none of it; an
   * empty part, when an empty block was shown where it stands (`begin` made sure one was, within the text shown).
   */
  #shownInFull(text: string, open: string | undefined): boolean {
    if (this.#pending > text.length) return true;
    if (text !== '') return this.#pending === text.length && this.shown.holdsNothing(open);
    const at = this.#emptyEnds.indexOf(this.shown.text.length - this.#pending);
    if (at < 0) return false;
    this.#emptyEnds.splice(at, 1);
    return true;
  }
}

type Kind = 'text' | 'reasoning';

/** `{ providerMetadata }` when there is any: parts without metadata stay exactly as the guard always sent them. */
function withMetadata(metadata: SharedV4ProviderMetadata | undefined): {
  providerMetadata?: SharedV4ProviderMetadata;
} {
  return metadata === undefined ? {} : { providerMetadata: metadata };
}

/**
 * A whole block for one part of the answer. An empty part is kept when it carries metadata (Anthropic's redacted
 * thinking is an empty reasoning part whose data the next request needs).
 */
function block(kind: Kind, id: string, text: string, metadata: SharedV4ProviderMetadata | undefined): Part[] {
  if (text === '' && metadata === undefined) return [];
  const meta = withMetadata(metadata);
  const parts: Part[] = [{ type: `${kind}-start`, id, ...meta }];
  if (text !== '') parts.push({ type: `${kind}-delta`, id, delta: text, ...meta });
  parts.push({ type: `${kind}-end`, id, ...meta });
  return parts;
}

/**
 * The remainder of an open block, then its end. The SDK keeps a block's last `providerMetadata` (start, then each
 * delta and the end replace it), so the end carries the answer's: what was streamed before the cut had none yet, or
 * the failed response's.
 */
function completion(
  kind: Kind,
  id: string,
  rest: string,
  metadata: SharedV4ProviderMetadata | undefined,
): Part[] {
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
