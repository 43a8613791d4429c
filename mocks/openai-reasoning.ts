/**
 * Reasoning on the Responses wire: a `reasoning` item whose `encrypted_content` is the signature and whose summary
 * is the thinking text (redacted reasoning: `encrypted_content` only), as in vercel/ai
 * packages/openai/src/responses/__fixtures__/openai-reasoning-encrypted-content.1.chunks.txt: output_item.added,
 * reasoning_summary_part.added, reasoning_summary_text.delta…, reasoning_summary_text.done,
 * reasoning_summary_part.done, output_item.done.
 */

import type { AnswerMeta, AnswerStep } from './vocabulary.js';
import { type ReasoningBlock, reasoningOf, splitOutput } from './wire.js';

/** One Responses event before its `sequence_number`, with the output characters it carries. */
export interface ReasoningEvent {
  data: Record<string, unknown> & { type: string };
  chars: number;
}

const summaryPart = (text: string) => ({ type: 'summary_text', text });

function item(block: ReasoningBlock, meta: AnswerMeta, done: boolean) {
  const redacted = 'redacted' in block;
  return {
    id: `rs_mock_${meta.n}`,
    type: 'reasoning',
    encrypted_content: redacted ? block.redacted : block.signature,
    summary: done && !redacted ? [summaryPart(block.text)] : [],
  };
}

/** The reasoning output item of a finished response (`[]` without reasoning). */
export function reasoningItems(step: AnswerStep, meta: AnswerMeta) {
  const block = reasoningOf(step, meta);
  return block === undefined ? [] : [item(block, meta, true)];
}

/** The streamed events of the reasoning item at `output_index` 0 (`[]` without reasoning); its text starts output. */
export function reasoningEvents(
  step: AnswerStep,
  meta: AnswerMeta,
  size: number,
  breakAt: number | undefined,
): ReasoningEvent[] {
  const block = reasoningOf(step, meta);
  if (block === undefined) return [];
  const at = { item_id: `rs_mock_${meta.n}`, output_index: 0 };
  const events: ReasoningEvent[] = [
    {
      data: { type: 'response.output_item.added', output_index: 0, item: item(block, meta, false) },
      chars: 0,
    },
  ];
  if (!('redacted' in block)) {
    const summary = { ...at, summary_index: 0 };
    const push = (data: ReasoningEvent['data'], chars = 0) => events.push({ data, chars });
    push({ type: 'response.reasoning_summary_part.added', ...summary, part: summaryPart('') });
    for (const delta of splitOutput(block.text, size, 0, breakAt)) {
      push({ type: 'response.reasoning_summary_text.delta', ...summary, delta }, delta.length);
    }
    push({ type: 'response.reasoning_summary_text.done', ...summary, text: block.text });
    push({ type: 'response.reasoning_summary_part.done', ...summary, part: summaryPart(block.text) });
  }
  events.push({
    data: { type: 'response.output_item.done', output_index: 0, item: item(block, meta, true) },
    chars: 0,
  });
  return events;
}
