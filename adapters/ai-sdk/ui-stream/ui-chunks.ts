/**
 * The UI chunks graceful-ai sends, made from the AI SDK's own: a stream guard's resets as `reset-step`
 * ({@link resetStepRenderer}), and a `finish` after an error that ended the stream without one.
 */
import type { UIMessageChunk } from 'ai';
import { resetStepRenderer } from './reset-step.js';

/**
 * `stream`, the SDK's UI chunks, as graceful-ai sends them: resets rendered as `reset-step`; a stream that ends with
 * an `error` chunk and no `finish` (the SDK's shape for a run that failed before its first step, e.g. a revoked key)
 * gets `{ type: 'finish', finishReason: 'error' }` after it, unless `sendFinish` is `false`, so a client always reads
 * the error, then finish. The SDK's callbacks have seen the SDK's chunks (`onEnd`'s outcome stays its own).
 * Cancelling it cancels `stream` before the cancel resolves (the SDK's UI stream calls `onEnd` there).
 */
export function gracefulUIChunks<T extends UIMessageChunk>(
  stream: ReadableStream<T>,
  sendFinish: boolean | undefined,
): ReadableStream<T> {
  const reader = stream.getReader();
  const render = resetStepRenderer<T>();
  let last: string | undefined;
  return new ReadableStream<T>(
    {
      async pull(controller) {
        const next = await reader.read();
        if (next.done) {
          if (last === 'error' && sendFinish !== false)
            controller.enqueue({ type: 'finish', finishReason: 'error' } as T);
          return controller.close();
        }
        last = next.value.type;
        for (const chunk of render(next.value)) controller.enqueue(chunk);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}
