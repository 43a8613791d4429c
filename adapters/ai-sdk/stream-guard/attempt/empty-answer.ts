/**
 * Empty answers: no content at all, with a finish reason that is no deliberate end (`'content-filter'`, `'other'`,
 * `'error'`, `'interrupted'`). The AI SDK resolves `text` to `''` for them as if the model had answered; the guard
 * makes them failures, streamed or not. A stream that ends so before content is caught earlier when its ending is
 * no completion (`incompleteFinish`: retried like a cut); what is left here — `'content-filter'`, `'other'` with a
 * reason of the provider's, and every non-streaming answer — is retried once, then the call fails.
 */
import type { LanguageModelV4Content, LanguageModelV4FinishReason } from '@ai-sdk/provider';
import { EmptyAnswerError } from '../../../../src/errors/empty-answer-error.js';

/** Finish reasons that, with no content, are no answer. `'stop'`, `'length'` and `'tool-calls'` are. */
const noAnswerEndings = new Set<string>(['content-filter', 'other', 'error', 'interrupted']);

/**
 * The AI SDK's markers (`Symbol.for`), so code written for `ai`'s `NoOutputGeneratedError.isInstance` (and
 * `AISDKError.isInstance`) recognises the failure too.
 */
const sdkMarkers = ['vercel.ai.error', 'vercel.ai.error.AI_NoOutputGeneratedError'];

/** The failure an answer without content that ended with `finishReason` stands for, or `undefined`. */
export function emptyAnswer(finishReason: LanguageModelV4FinishReason): EmptyAnswerError | undefined {
  if (!noAnswerEndings.has(finishReason.unified)) return undefined;
  const raw = finishReason.raw?.trim();
  const error = new EmptyAnswerError({
    finishReason: finishReason.unified,
    ...(raw ? { rawFinishReason: raw } : {}),
  });
  for (const marker of sdkMarkers) Object.defineProperty(error, Symbol.for(marker), { value: true });
  return error;
}

/** Whether a non-streaming answer holds anything a consumer can see (see `isContent` for stream parts). */
function hasContent(content: readonly LanguageModelV4Content[]): boolean {
  return content.some((part) =>
    part.type === 'text' || part.type === 'reasoning' ? part.text !== '' : part.type !== 'custom',
  );
}

/** The failure a non-streaming answer stands for when it is empty (see {@link emptyAnswer}), or `undefined`. */
export function emptyResult(result: {
  content: readonly LanguageModelV4Content[];
  finishReason: LanguageModelV4FinishReason;
}): EmptyAnswerError | undefined {
  return hasContent(result.content) ? undefined : emptyAnswer(result.finishReason);
}

/**
 * The rule of one guarded call: its first empty answer is classified as any error is (`EmptyAnswerError` is
 * transient, so it is retried within `maxRetries`); a second one is final.
 */
export class EmptyAnswers {
  #seen = 0;

  /** Whether `error` is an empty answer after an earlier one in this call. */
  again(error: unknown): boolean {
    return EmptyAnswerError.isInstance(error) && this.#seen++ > 0;
  }
}
