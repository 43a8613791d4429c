/**
 * Matching a regenerated answer against what the consumer was shown, one kind of block (text or reasoning) at a
 * time: whether it repeats what was shown, where it gets past it, and whether a block the stream already ended
 * (which cannot be changed) is repeated exactly, metadata included. `Reconciliation` drives it.
 */
import type { LanguageModelV4StreamPart as Part, SharedV4ProviderMetadata } from '@ai-sdk/provider';
import { isDeepEqualData } from 'ai';
import type { ClosedBlock, EmittedContent, Kind, Metadata, ShownBlocks } from './emitted-content.js';

/**
 * Matches a regenerated answer's blocks of one kind, in order, against what was shown of that kind. A block shown
 * in full must be where the stream showed it, with the same metadata (a block the stream ended cannot be
 * changed); the block in which what was shown ends completes the open block (its end brings the answer's
 * metadata), and every later block is new.
 */
export class KindCursor {
  /** Where, in the text shown, the answer's next block begins. */
  at = 0;
  /** Whether the answer got past what was shown. */
  reached = false;
  /** What was shown when the recovery began (the consumer's view grows as the recovery is emitted). */
  readonly #text: string;
  readonly #closed: ClosedBlock[];
  readonly #open: { id: string; from: number } | undefined;
  readonly end: number;
  readonly #usedEmpty = new Set<ClosedBlock>();

  constructor(shown: ShownBlocks) {
    this.#text = shown.text;
    this.#closed = [...shown.closed];
    this.#open = shown.lastOpen();
    this.end = shown.text.length;
  }

  /** Whether a block beginning at `from` with `text` so far repeats what was shown (as far as it was shown). */
  agrees(from: number, text: string): boolean {
    const overlap = Math.min(text.length, this.end - from);
    return this.#text.startsWith(text.slice(0, overlap), from);
  }

  /** Whether the answer covered everything shown of this kind, and every empty block shown with metadata. */
  covered(): boolean {
    return (
      this.past() &&
      this.#closed.every((b) => b.from !== b.to || b.metadata === undefined || this.#usedEmpty.has(b))
    );
  }

  past(): boolean {
    return this.reached || this.at >= this.end;
  }

  /**
   * The block (beginning at `from`) in which what was shown ends: it goes on in the open block, or else in a new
   * one (`open: false`). `undefined` when it cannot: it spans a block the stream ended and either carries metadata.
   */
  cross(from: number, metadata: Metadata, newId: () => string): { id: string; open: boolean } | undefined {
    this.reached = true;
    const open = this.#open;
    if (open !== undefined) {
      if (from < open.from && (metadata !== undefined || this.#signedWithin(from, open.from)))
        return undefined;
      return { id: open.id, open: true };
    }
    if (from < this.end && (metadata !== undefined || this.#signedWithin(from, this.end))) return undefined;
    return { id: newId(), open: false };
  }

  /**
   * A whole block of the answer that does not go past what was shown: nothing to emit when it repeats a shown
   * block (`replaces`: the shown block's metadata, when the answer's differs), the end of the open block when what
   * was shown ends with it, a new block when it lies beyond; `undefined` when it does not repeat what was shown.
   */
  whole(
    kind: Kind,
    text: string,
    metadata: Metadata,
    newId: () => string,
  ): { parts: Part[]; id?: string; replaces?: SharedV4ProviderMetadata } | undefined {
    const from = this.at;
    const to = from + text.length;
    const open = this.#open;
    if (text === '') {
      const empty = this.#closed.find((b) => b.from === from && b.to === from && !this.#usedEmpty.has(b));
      if (empty !== undefined) {
        this.#usedEmpty.add(empty);
        return isDeepEqualData(empty.metadata, metadata) ? { parts: [] } : undefined;
      }
      if (from < this.end) return undefined; // an empty block the stream never showed, within what it showed
    } else if (to < this.end || (to === this.end && (open === undefined || open.from === this.end))) {
      // Shown in full: it ends before what was shown does, or with it while the open block (if any) holds none of it.
      // Its metadata must be what the block the stream ended over exactly its text has; plain text may be merged.
      this.at = to;
      const exact = this.#closed.find((b) => b.from === from && b.to === to);
      if (exact !== undefined) {
        if (isDeepEqualData(exact.metadata, metadata)) return { parts: [] };
        // The same characters under the recovery's own metadata: the consumer keeps what it read, later prompts get
        // the recovery's metadata (`recovered-metadata.ts`). Shown without metadata, it has nothing to be found by.
        return exact.metadata === undefined ? undefined : { parts: [], replaces: exact.metadata };
      }
      return metadata === undefined && !this.#signedWithin(from, to) ? { parts: [] } : undefined;
    }
    // What was shown ends with this block (or before it): it completes the open block, or is a new one.
    const crossed = this.cross(from, metadata, newId);
    if (crossed === undefined) return undefined;
    this.at = to;
    const meta = withMetadata(metadata);
    if (crossed.open) return { parts: [{ type: `${kind}-end`, id: crossed.id, ...meta }], id: crossed.id };
    if (text === '' && metadata === undefined) return { parts: [] };
    return { id: crossed.id, parts: blockParts(kind, crossed.id, text, metadata) };
  }

  /** Whether a block the stream ended, over characters in [from, to), carries metadata. */
  #signedWithin(from: number, to: number): boolean {
    return this.#closed.some((b) => b.metadata !== undefined && b.from < to && b.to > from);
  }
}

export function cursors(emitted: EmittedContent): Record<Kind, KindCursor> {
  return { text: new KindCursor(emitted.shown.text), reasoning: new KindCursor(emitted.shown.reasoning) };
}

/** `{ providerMetadata }` when there is any: parts without metadata stay exactly as the guard always sent them. */
export function withMetadata(metadata: Metadata): { providerMetadata?: SharedV4ProviderMetadata } {
  return metadata === undefined ? {} : { providerMetadata: metadata };
}

/** A whole block as stream parts: its start, its text in one delta (none when empty) and its end. */
export function blockParts(kind: Kind, id: string, text: string, metadata: Metadata): Part[] {
  const meta = withMetadata(metadata);
  const start: Part = { type: `${kind}-start`, id, ...meta };
  const end: Part = { type: `${kind}-end`, id, ...meta };
  return text === '' ? [start, end] : [start, { type: `${kind}-delta`, id, delta: text, ...meta }, end];
}
