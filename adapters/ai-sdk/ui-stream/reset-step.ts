/**
 * The stream guard's reset as the AI SDK's own UI chunk: `reset-step` makes `useChat` and `readUIMessageStream`
 * remove every part the current step added, so the chunks of what the step keeps follow it again.
 */
import type { UIMessageChunk } from 'ai';
import { isResetPart, type ResetDetails } from '../../../src/stream/reset-part.js';

type Chunk = UIMessageChunk;

/**
 * What to send for each chunk of a UI stream so that each `graceful-ai.reset` custom chunk becomes
 * `{ type: 'reset-step' }`, followed by the chunks of the step that the reset keeps, in their order: what
 * `withoutDiscarded` keeps of the step (tool calls and their results, sources, files, data, other custom parts),
 * without the text and reasoning shown before the reset and without the tool inputs it lists as incomplete. A client
 * then holds the step as recovered, with every tool call once. Chunks that add no part (metadata, transient data,
 * errors) are not sent again. Any other chunk is sent as it is.
 */
export function resetStepRenderer<T extends Chunk>(): (chunk: T) => T[] {
  let step: T[] = [];
  return (chunk) => {
    if (chunk.type === 'start-step') step = [];
    if (!isResetPart(chunk)) {
      step.push(chunk);
      return [chunk];
    }
    const incomplete = new Set(resetDetails(chunk)?.toolInputIds ?? []);
    step = step.filter((kept) => addsKeptPart(kept, incomplete));
    return [{ type: 'reset-step' } as T, ...step];
  };
}

/** The chunks of a step that a reset does not send again: the discarded text and reasoning, and what adds no part. */
const notResent = /^(text-|reasoning-|start-step$|message-metadata$|error$)/;

/** Whether `chunk` adds to (or updates) a part the reset keeps. */
function addsKeptPart(chunk: Chunk, incompleteToolInputs: Set<string>): boolean {
  if (notResent.test(chunk.type)) return false;
  if ('toolCallId' in chunk && incompleteToolInputs.has(chunk.toolCallId)) return false;
  return !('transient' in chunk && chunk.transient === true);
}

function resetDetails(chunk: Chunk): Partial<ResetDetails> | undefined {
  const metadata = (chunk as { providerMetadata?: { 'graceful-ai'?: { reset?: Partial<ResetDetails> } } })
    .providerMetadata;
  return metadata?.['graceful-ai']?.reset;
}
