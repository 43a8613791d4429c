/**
 * The stream guard's reset as the AI SDK's own UI chunk: `reset-step` makes `useChat` and `readUIMessageStream`
 * remove every part the current step added, so the chunks of what the step keeps follow it again.
 */
import type { UIMessageChunk } from 'ai';
import { isResetPart, type ResetDetails } from '../../../src/stream/reset-part.js';

type Chunk = UIMessageChunk;

/**
 * `stream` with each `graceful-ai.reset` custom chunk as `{ type: 'reset-step' }`, followed by the chunks of the
 * step that the reset keeps, in their order: what `withoutDiscarded` keeps of the step (tool calls and their results,
 * sources, files, data, other custom parts), without the text and reasoning shown before the reset and without the
 * tool inputs it lists as incomplete. A client then holds the step as recovered, with every tool call once. Chunks
 * that add no part (metadata, transient data, errors) are not sent again. Cancelling it cancels `stream` before the
 * cancel resolves (the SDK's UI stream calls `onEnd` there).
 */
export function withResetSteps<T extends Chunk>(stream: ReadableStream<T>): ReadableStream<T> {
  const reader = stream.getReader();
  let step: T[] = [];
  return new ReadableStream<T>(
    {
      async pull(controller) {
        const next = await reader.read();
        if (next.done) return controller.close();
        const chunk = next.value;
        if (chunk.type === 'start-step') step = [];
        if (!isResetPart(chunk)) {
          step.push(chunk);
          return controller.enqueue(chunk);
        }
        const incomplete = new Set(resetDetails(chunk)?.toolInputIds ?? []);
        step = step.filter((kept) => addsKeptPart(kept, incomplete));
        controller.enqueue({ type: 'reset-step' } as T);
        for (const kept of step) controller.enqueue(kept);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
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
