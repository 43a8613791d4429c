/**
 * How to finish a stream that was cut after `emitted` reached the consumer, given the complete answer.
 * - `continue`: the answer begins with what was emitted; send only `remainder`.
 * - `reset`: the answer differs; tell the consumer to discard what it has, then send `text` in full.
 */
export type Reconciliation =
  | { kind: 'continue'; remainder: string }
  | { kind: 'reset'; discardedChars: number; text: string };

/** Reconciles the text already streamed with the complete answer of a new (non-streamed) request. */
export function reconcile(emitted: string, answer: string): Reconciliation {
  if (answer.startsWith(emitted)) return { kind: 'continue', remainder: answer.slice(emitted.length) };
  return { kind: 'reset', discardedChars: emitted.length, text: answer };
}
