/**
 * Reconciliation, in one place: how a recovery's answer completes what the consumer has already seen, part by part
 * as it arrives (a streamed recovery) or all at once (a non-streamed answer, fed through the same rules).
 *
 * - A regenerated answer is swallowed while it repeats what was shown, passed on once past it (in the block the
 *   stream left open, whose end brings the answer's metadata), and the moment it diverges, the shown blocks are
 *   closed, a `graceful-ai.reset` part lists them, and the whole answer so far follows in new blocks.
 * - A continuation (the request ended with the shown text as a prefill) is passed on as it comes, joined to the
 *   shown text: whitespace the prefill left out and the continuation repeats is not shown twice. A "continuation"
 *   that repeats the whole prefill is a server that ignored it: reconciled as a regenerated answer.
 *
 * Tool calls the consumer has seen (same tool, same input) are never emitted again.
 */
import type { LanguageModelV4GenerateResult, LanguageModelV4StreamPart as Part } from '@ai-sdk/provider';
import { resetPart } from '../../../../src/stream/reset-part.js';
import { isContent } from '../attempt/preamble.js';
import type { EmittedContent, Kind, Metadata } from './emitted-content.js';
import { blockParts, cursors, type KindCursor, withMetadata } from './kind-cursor.js';
import { rememberRecoveredMetadata } from './recovered-metadata.js';

/** One text or reasoning block of the recovery. */
interface Block {
  kind: Kind;
  /** Position in the recovery's content: names its new block. */
  index: number;
  /** Where, in the shown text of its kind, this block begins (regeneration). */
  from: number;
  text: string;
  metadata: Metadata;
  ended: boolean;
  /** The id it is emitted under, once it is. */
  out?: string;
}

/** Any other part of the answer (a tool call, a file, a source); `done` once emitted. */
interface Other {
  part: Part;
  done?: boolean;
}

type Entry = Block | Other;

/** The shown text a continuation continues: the prefill and the trailing whitespace it left out. */
export interface ContinuedText {
  text: string;
  whitespace: string;
}

export class Reconciliation {
  readonly #emitted: EmittedContent;
  readonly #attempt: number;
  /** Whether the recovery continues the shown text (else it is a regenerated answer). */
  #continuation: boolean;
  /** Parts other than text and reasoning are held back while a regenerated answer has not passed what was shown. */
  #matching: boolean;
  /** Whether a reset was sent: from then on the recovery is the answer. */
  #diverged = false;
  readonly #cursors: Record<Kind, KindCursor>;
  /** A continuation's first parts, held until they show whether it repeats the prefill. */
  #undecided: (ContinuedText & { held: Part[] }) | undefined;
  /** Trailing whitespace of the shown text a continuation may repeat at its start. */
  #whitespace = '';
  readonly #log: Entry[] = [];
  readonly #blocks = new Map<string, Block>();
  /** Tool inputs are passed on with their call (and dropped with a repeated one). */
  readonly #toolInputs = new Map<string, Part[]>();
  #pending: Other[] = [];
  #content = false;
  readonly #usedIds = new Set<string>();
  #out: Part[] = [];

  constructor(emitted: EmittedContent, attempt: number, continued?: ContinuedText) {
    this.#emitted = emitted;
    this.#attempt = attempt;
    this.#continuation = continued !== undefined;
    this.#matching = continued === undefined;
    this.#cursors = cursors(emitted);
    if (continued) this.#undecided = { ...continued, held: [] };
  }

  /** The parts that complete what was shown with a non-streamed answer, the answer's end included. */
  whole(result: LanguageModelV4GenerateResult): Part[] {
    this.#content = true;
    const parts: Part[] = [];
    for (const [index, content] of result.content.entries()) {
      if (content.type !== 'text' && content.type !== 'reasoning') {
        parts.push(content as Part);
        continue;
      }
      parts.push(...blockParts(content.type, `answer-${index}`, content.text, content.providerMetadata));
    }
    return [...parts.flatMap((part) => this.push(part)), ...this.end()];
  }

  /** The parts to emit for one part of the recovery (its `finish` and `error` parts are the caller's). */
  push(part: Part): Part[] {
    this.#out = [];
    if (this.#undecided) this.#hold(this.#undecided, part);
    else this.#take(part);
    return this.#out;
  }

  /** The parts to emit once the recovery answered in full: a late reset, held parts, and every block closed. */
  end(): Part[] {
    this.#out = [];
    if (this.#undecided) this.#decide(this.#undecided);
    const { text, reasoning } = this.#cursors;
    if (!this.#continuation && !this.#diverged && !(text.covered() && reasoning.covered())) this.#reset();
    this.#flushPending();
    for (const block of this.#blocks.values()) if (!block.ended) this.#endBlock(block, undefined);
    this.#closeShown();
    return this.#out;
  }

  // ---- a continuation's first text: does it repeat the prefill? ----

  #hold(undecided: ContinuedText & { held: Part[] }, part: Part): void {
    undecided.held.push(part);
    if (part.type === 'text-delta') {
      const text = textOf(undecided.held);
      const prefill = undecided.text;
      if (text.length < prefill.length && prefill.startsWith(text)) return; // it may still repeat it
      if (text.startsWith(prefill)) {
        // The server answered anew (it ignored the prefill): reconcile as a regenerated answer.
        this.#undecided = undefined;
        this.#continuation = false;
        this.#matching = true;
        for (const held of undecided.held) this.#take(held);
        return;
      }
      this.#decide(undecided);
    } else if (isContent(part)) this.#decide(undecided);
  }

  /** A continuation it is: the held parts go on, joined to the shown text. */
  #decide(undecided: ContinuedText & { held: Part[] }): void {
    this.#undecided = undefined;
    this.#whitespace = undecided.whitespace;
    for (const held of undecided.held) this.#take(held);
  }

  // ---- every part ----

  #take(part: Part): void {
    switch (part.type) {
      case 'text-start':
      case 'reasoning-start':
        this.#start(part.type === 'text-start' ? 'text' : 'reasoning', part.id, part.providerMetadata);
        return;
      case 'text-delta':
      case 'reasoning-delta':
        this.#delta(part.id, part.delta, part.providerMetadata);
        return;
      case 'text-end':
      case 'reasoning-end':
        this.#end(part.id, part.providerMetadata);
        return;
      case 'tool-input-start':
      case 'tool-input-delta':
      case 'tool-input-end': {
        const held = this.#toolInputs.get(part.id) ?? [];
        held.push(part);
        this.#toolInputs.set(part.id, held);
        return;
      }
      case 'stream-start':
      case 'response-metadata':
      case 'raw':
      case 'finish':
      case 'error':
        return;
      case 'custom':
        // Before any content it is the recovery's preamble: the consumer has seen one already.
        if (!this.#content) return;
        break;
    }
    this.#content = true;
    const entry = { part };
    this.#log.push(entry);
    if (this.#matching) this.#pending.push(entry);
    else this.#emitEntry(entry);
  }

  #start(kind: Kind, id: string, metadata: Metadata): void {
    this.#content = true;
    const block: Block = {
      kind,
      index: this.#log.length,
      from: this.#cursors[kind].at,
      text: '',
      metadata,
      ended: false,
    };
    this.#log.push(block);
    this.#blocks.set(id, block);
    if (!this.#continuation) return;
    // The first block of a continuation goes on in the text block the stream left open; anything else closes it.
    if (kind !== 'text' || this.#log.length > 1) {
      this.#whitespace = '';
      this.#closeShown();
      return;
    }
    block.out = this.#emitted.shown.text.lastOpen()?.id;
  }

  #delta(id: string, delta: string, metadata: Metadata): void {
    const block = this.#blocks.get(id);
    if (block === undefined || delta === '') {
      if (block && metadata !== undefined) block.metadata = metadata;
      return;
    }
    block.text += delta;
    if (metadata !== undefined) block.metadata = metadata;
    if (block.out !== undefined || !this.#comparing(block.kind)) {
      this.#live(block, delta, metadata);
      return;
    }
    const cursor = this.#cursors[block.kind];
    if (!cursor.agrees(block.from, block.text)) {
      this.#reset();
      return;
    }
    if (block.from + block.text.length <= cursor.end) return; // still repeating what was shown
    const crossed = cursor.cross(block.from, block.metadata, () => this.#newId(block));
    if (crossed === undefined) {
      this.#reset();
      return;
    }
    block.out = crossed.id;
    if (!crossed.open)
      this.#emit({ type: `${block.kind}-start`, id: crossed.id, ...withMetadata(block.metadata) });
    const rest = block.text.slice(cursor.end - block.from);
    this.#emit({ type: `${block.kind}-delta`, id: crossed.id, delta: rest, ...withMetadata(block.metadata) });
    this.#afterMatch();
  }

  /** Passes a delta on; the first characters of a continuation lose the whitespace the consumer has seen. */
  #live(block: Block, delta: string, metadata: Metadata): void {
    let text = delta;
    while (this.#whitespace !== '' && text !== '') {
      if (text[0] !== this.#whitespace[0]) {
        this.#whitespace = '';
        break;
      }
      text = text.slice(1);
      this.#whitespace = this.#whitespace.slice(1);
    }
    if (text === '') return;
    this.#whitespace = '';
    if (block.out === undefined) {
      block.out = this.#newId(block);
      this.#emit({ type: `${block.kind}-start`, id: block.out, ...withMetadata(block.metadata) });
    }
    this.#emit({ type: `${block.kind}-delta`, id: block.out, delta: text, ...withMetadata(metadata) });
  }

  #end(id: string, metadata: Metadata): void {
    const block = this.#blocks.get(id);
    if (block === undefined || block.ended) return;
    block.ended = true;
    if (metadata !== undefined) block.metadata = metadata;
    if (block.out !== undefined) {
      this.#endBlock(block, block.metadata);
      return;
    }
    const cursor = this.#cursors[block.kind];
    if (!this.#comparing(block.kind)) {
      this.#emitBlock(block);
      return;
    }
    const whole = cursor.whole(block.kind, block.text, block.metadata, () => this.#newId(block));
    if (whole === undefined) {
      this.#reset();
      return;
    }
    if (whole.id !== undefined) block.out = whole.id;
    if (whole.replaces !== undefined) rememberRecoveredMetadata(whole.replaces, block.metadata);
    for (const part of whole.parts) this.#emit(part);
    this.#afterMatch();
  }

  /** Ends a block emitted under `out`, unless it was closed already (a continuation that went on elsewhere). */
  #endBlock(block: Block, metadata: Metadata): void {
    if (block.out === undefined || !this.#emitted.shown[block.kind].open.has(block.out)) return;
    this.#emit({ type: `${block.kind}-end`, id: block.out, ...withMetadata(metadata) });
  }

  // ---- regeneration ----

  /** Whether blocks of this kind are still compared with what was shown (a regenerated answer, not yet past it). */
  #comparing(kind: Kind): boolean {
    return !this.#continuation && !this.#diverged && !this.#cursors[kind].reached;
  }

  /** Once every kind is past what was shown, what was held back (tool calls, files, sources) follows. */
  #afterMatch(): void {
    const { text, reasoning } = this.#cursors;
    if (!(text.past() && reasoning.past())) return;
    this.#matching = false;
    this.#flushPending();
  }

  #flushPending(): void {
    const pending = this.#pending;
    this.#pending = [];
    for (const entry of pending) this.#emitEntry(entry);
  }

  /**
   * The answer diverged from what was shown: close the shown blocks, tell the consumer to discard them, and send
   * the answer so far in new blocks; from here on the recovery streams as it comes.
   */
  #reset(): void {
    this.#closeShown();
    this.#emit(resetPart(this.#emitted.resetDetails()));
    this.#emitted.startOver();
    this.#matching = false;
    this.#diverged = true;
    this.#pending = [];
    for (const entry of this.#log) {
      if (!('kind' in entry)) {
        if (!entry.done) this.#emitEntry(entry);
        continue;
      }
      entry.out = undefined;
      if (entry.ended) this.#emitBlock(entry);
      else if (entry.text !== '' || entry.metadata !== undefined) {
        entry.out = this.#newId(entry);
        const meta = withMetadata(entry.metadata);
        this.#emit({ type: `${entry.kind}-start`, id: entry.out, ...meta });
        if (entry.text !== '')
          this.#emit({ type: `${entry.kind}-delta`, id: entry.out, delta: entry.text, ...meta });
      }
    }
  }

  // ---- output ----

  /** A whole block of the answer, in a new block. An empty one is kept when it carries metadata (redacted thinking). */
  #emitBlock(block: Block): void {
    if (block.text === '' && block.metadata === undefined) return;
    block.out = this.#newId(block);
    for (const part of blockParts(block.kind, block.out, block.text, block.metadata)) this.#emit(part);
  }

  #emitEntry(entry: Other): void {
    const { part } = entry;
    entry.done = true;
    if (this.#continuation) {
      // A continuation that goes on with something else than text ends the shown text there.
      this.#whitespace = '';
      this.#closeShown();
    }
    if (part.type === 'tool-call') {
      const inputs = this.#toolInputs.get(part.toolCallId) ?? [];
      this.#toolInputs.delete(part.toolCallId);
      if (this.#emitted.hasToolCall(part.toolName, part.input)) return;
      for (const input of inputs) this.#emit(input);
    }
    this.#emit(part);
  }

  /** Ends the blocks the failed stream left open (a continuation that goes on with something else). */
  #closeShown(): void {
    for (const part of this.#emitted.closeOpen()) this.#out.push(part);
  }

  #emit(part: Part): void {
    this.#emitted.track(part);
    this.#out.push(part);
  }

  /** `graceful-ai-<attempt>-<kind>-<position in the answer>`, unique within the step. */
  #newId(block: Block): string {
    const base = `graceful-ai-${this.#attempt}-${block.kind}-${block.index}`;
    let id = base;
    for (let n = 2; this.#usedIds.has(id); n++) id = `${base}-${n}`;
    this.#usedIds.add(id);
    return id;
  }
}

function textOf(parts: Part[]): string {
  let text = '';
  for (const part of parts) if (part.type === 'text-delta') text += part.delta;
  return text;
}
