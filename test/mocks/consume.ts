/** What a consumer of `streamText` sees for one scripted answer: deltas, error parts, a throw, `text`, the finish. */
import { type LanguageModel, streamText } from 'ai';

/**
 * `abortMs`: the caller gives up after that long; `abortAfter`: the caller aborts 20 ms after the text so far is
 * exactly this (a stalled stream, checked without racing the first byte against a timer).
 */
export async function consume(model: LanguageModel, options: { abortMs?: number; abortAfter?: string } = {}) {
  const caller = new AbortController();
  const result = streamText({
    model,
    prompt: 'hi',
    maxRetries: 0,
    onError: () => {},
    ...(options.abortMs ? { abortSignal: AbortSignal.timeout(options.abortMs) } : {}),
    ...(options.abortAfter !== undefined ? { abortSignal: caller.signal } : {}),
  });
  const deltas: string[] = [];
  const reasoning: string[] = [];
  const errors: unknown[] = [];
  let thrown: unknown;
  try {
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') deltas.push(part.text);
      if (part.type === 'text-delta' && deltas.join('') === options.abortAfter) {
        setTimeout(() => caller.abort(), 20);
      }
      if (part.type === 'reasoning-delta') reasoning.push(part.text);
      if (part.type === 'error') errors.push(part.error);
    }
  } catch (e) {
    thrown = e;
  }
  const text = await result.text.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  const finishReason = await Promise.resolve(result.finishReason).catch(() => undefined);
  return { deltas, reasoning, errors, thrown, text, finishReason, result };
}

export const errorName = (e: unknown) => (e as { name?: string } | undefined)?.name;

/** The first `code` along an error's cause chain. */
export function causeCode(error: unknown): unknown {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code !== undefined) return e.code;
  }
  return undefined;
}
