/**
 * How a failure the stream guard cannot recover reaches the caller. As plain middleware the guard errors its
 * stream; for the drop-ins it ends the stream the way the AI SDK ends a failed provider stream (an `error` part, the
 * provider's own finish or one of the guard's), and shapes errors before output as the SDK's own retries would.
 * Kept apart from `guarded-call.ts`, which decides WHEN a call has failed for good.
 */
import type { LanguageModelV4Usage, LanguageModelV4StreamPart as Part } from '@ai-sdk/provider';
import { RetryError } from 'ai';
import { EmptyAnswerError } from '../../../../src/errors/empty-answer-error.js';
import { type StreamErrorFields, StreamFailedError } from '../../../../src/errors/stream-failed-error.js';
import type { StreamAttempt } from './stream-attempt.js';

/** The in-band error payload of a provider stream (`Symbol.for('vercel.ai.providerStreamError')`). */
function isProviderStreamError(error: unknown): error is StreamErrorFields {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as Record<symbol, unknown>)[Symbol.for('vercel.ai.providerStreamError')] === true
  );
}

/** What a guarded stream errors with: Errors unchanged; in-band payloads as a {@link StreamFailedError}. */
export function toError(error: unknown): unknown {
  return isProviderStreamError(error) ? new StreamFailedError(error) : error;
}

/** The SDK's own rendering of an error in its `RetryError` messages (`getErrorMessage` of `@ai-sdk/provider`). */
function sdkErrorMessage(error: unknown): string {
  if (error == null) return 'unknown error';
  if (typeof error === 'string') return error;
  if (error instanceof Error) return error.toString();
  return JSON.stringify(error);
}

/**
 * The `RetryError` the SDK's own retries would end with after `errors` (every attempt's, oldest first):
 * `maxRetriesExceeded` when the retries were used up, `errorNotRetryable` when the last attempt failed for good.
 */
/**
 * For the drop-ins, the error the SDK's own retries would have ended with, given every error before content (the
 * last ended the call): that error after one attempt (or with `maxRetries: 0`), else a `RetryError` listing each, as
 * `maxRetriesExceeded` when the retries were used up and `errorNotRetryable` when a later attempt failed for good.
 */
export function asTheSdkWould(
  errors: readonly unknown[],
  call: { dropIn: boolean; aborted: boolean; maxRetries: number; exhausted: boolean },
): unknown {
  const error = errors.at(-1);
  const single =
    !call.dropIn ||
    // The SDK would have passed an empty answer on: no `RetryError` to keep, the error says what happened.
    EmptyAnswerError.isInstance(error) ||
    call.aborted ||
    call.maxRetries === 0 ||
    errors.length === 1;
  return single ? error : sdkRetryError(errors, call.exhausted);
}

function sdkRetryError(errors: readonly unknown[], exhausted: boolean): RetryError {
  const text = sdkErrorMessage(errors.at(-1));
  return exhausted
    ? new RetryError({
        message: `Failed after ${errors.length} attempts. Last error: ${text}`,
        reason: 'maxRetriesExceeded',
        errors: [...errors],
      })
    : new RetryError({
        message: `Failed after ${errors.length} attempts with non-retryable error: '${text}'`,
        reason: 'errorNotRetryable',
        errors: [...errors],
      });
}

/** A stream that errors with `error` when first read. */
export function erroredStream(error: unknown): ReadableStream<Part> {
  return new ReadableStream<Part>({ pull: (controller) => controller.error(error) }, { highWaterMark: 0 });
}

/** `head`, then whatever the attempt's provider stream still sends (its finish after an error part). */
export function relayRest(attempt: StreamAttempt, head: Part[]): ReadableStream<Part> {
  return new ReadableStream<Part>(
    {
      pull: async (controller) => {
        for (const part of head.splice(0)) controller.enqueue(part);
        try {
          const next = await attempt.read();
          if (!next.done) return controller.enqueue(next.value);
        } catch {
          // The provider stream broke after reporting its error: the error part already says what happened.
        }
        attempt.stop();
        controller.close();
      },
      cancel: (reason) => attempt.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

/**
 * Ends the consumer's stream the SDK's way after a failure nothing recovers: an `error` part, then the rest of
 * `relayFrom`'s provider stream (the provider sent the error as a part, so its finish follows), or else a finish of
 * the guard's own (a broken stream or a failed recovery leaves no provider finish to relay).
 */
export function endWithErrorPart(
  controller: ReadableStreamDefaultController<Part>,
  error: unknown,
  relayFrom: StreamAttempt | undefined,
): void {
  controller.enqueue({ type: 'error', error });
  if (relayFrom !== undefined) {
    void drainInto(relayFrom, controller);
    return;
  }
  controller.enqueue({
    type: 'finish',
    finishReason: { unified: 'error', raw: undefined },
    usage: unknownUsage,
  });
  controller.close();
}

/** Relays the rest of a failed attempt's provider stream (after its error part), then closes. */
async function drainInto(
  attempt: StreamAttempt,
  controller: ReadableStreamDefaultController<Part>,
): Promise<void> {
  try {
    for (let next = await attempt.read(); !next.done; next = await attempt.read())
      controller.enqueue(next.value);
  } catch {
    // The provider stream broke after reporting its error: the error part already says what happened.
  }
  attempt.stop();
  controller.close();
}

/** The usage of a call whose provider never reported it. */
const unknownUsage: LanguageModelV4Usage = {
  inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};
