import { isLoudToolFailure } from '../tools/loud-failure.js';

/**
 * An SDK callback's event as the caller should see it when a tool failure fails the run: the SDK reports the
 * wrapper's placeholder result as a success (`onToolExecutionEnd`'s `toolOutput`, `onChunk`'s `chunk`), which
 * becomes the `tool-error` it stands for, with the error the run fails with. Any other event is returned as is.
 */
export function withLoudFailuresAsErrors<E>(event: E): E {
  if (typeof event !== 'object' || event === null) return event;
  for (const key of ['toolOutput', 'chunk']) {
    const part = (event as Record<string, { type?: unknown; output?: unknown; preliminary?: boolean }>)[key];
    if (part?.type !== 'tool-result' || !isLoudToolFailure(part.output)) continue;
    const { output, preliminary: _, ...rest } = part;
    return { ...event, [key]: { ...rest, type: 'tool-error', error: output.failure.error } };
  }
  return event;
}
