/**
 * The stream guard's commit point, in one place: what counts as content (what a consumer can see), and an attempt's
 * preamble (everything its stream sends before that), held back until the attempt commits. A failure during the
 * preamble is a failure before content: a new streamed request, with backoff. Provider-agnostic on purpose: a
 * provider's own early parts (a `custom` message-start part, `text-start` before the first token) are preamble
 * because of what they are, not because of who sent them.
 */
import type { LanguageModelV4StreamPart as Part } from '@ai-sdk/provider';
import { StreamInterruptedError } from '../../../../src/errors/stream-interrupted-error.js';
import { emptyAnswer } from './empty-answer.js';
import type { StreamAttempt } from './stream-attempt.js';

/**
 * Whether the consumer can see `part`: a non-empty text, reasoning or tool-input delta, a tool call or result, an
 * approval request, a file or a source. `stream-start`, `response-metadata`, `custom`, `*-start`/`*-end`, empty
 * deltas (a signature alone), `raw` and `ping` are not content.
 */
export function isContent(part: Part): boolean {
  switch (part.type) {
    case 'text-delta':
    case 'reasoning-delta':
    case 'tool-input-delta':
      return part.delta !== '';
    case 'tool-call':
    case 'tool-result':
    case 'tool-approval-request':
    case 'file':
    case 'reasoning-file':
    case 'source':
      return true;
    default:
      return false;
  }
}

type Finish = Extract<Part, { type: 'finish' }>;

/**
 * Raw finish reasons that name no completion, although the SDK maps them to `'other'`: Gemini's unset value, vLLM's
 * `abort` (the server aborted the request) and `error` (OpenRouter's finish for a failure mid-stream).
 */
const incompleteRawReasons = new Set(['finish_reason_unspecified', 'abort', 'error']);

/**
 * The failure a finish part stands for, or `undefined` when it reports a real completion (`stop`, `length`,
 * `tool-calls`, `content-filter`, or `other` with a reason of the provider's). Not a completion: `'interrupted'`,
 * `'error'`, and `'other'` with no provider reason (Bedrock, xAI, DeepSeek and Azure when the body closes without its
 * completion event) or one that names none ({@link incompleteRawReasons}).
 */
export function incompleteFinish(finish: Finish, charsEmitted: number): StreamInterruptedError | undefined {
  const { unified, raw } = finish.finishReason;
  const rawFinishReason = raw === undefined || raw.trim() === '' ? undefined : raw;
  const incomplete =
    unified === 'interrupted' ||
    unified === 'error' ||
    (unified === 'other' &&
      (rawFinishReason === undefined || incompleteRawReasons.has(rawFinishReason.toLowerCase())));
  if (!incomplete) return undefined;
  return new StreamInterruptedError({
    ending: unified,
    charsEmitted,
    ...(rawFinishReason !== undefined && { rawFinishReason }),
  });
}

/** The failure a stream that closed without a finish part stands for. */
export const missingFinish = (charsEmitted: number): StreamInterruptedError =>
  new StreamInterruptedError({ ending: 'no-finish', charsEmitted });

/** A provider's `error` part, thrown inside the guard so the part itself can be relayed if nothing recovers. */
export class InBandError {
  constructor(readonly part: Extract<Part, { type: 'error' }>) {}
}

/**
 * Reads `attempt` up to its commit point, appending each part read to `held`: the preamble, then the part the
 * attempt commits on — its first content part, or a finish that reports a complete, deliberately empty answer
 * (`'stop'`, `'length'`, `'tool-calls'`). Throws {@link InBandError} for an error part, {@link StreamInterruptedError}
 * when the stream ends without a finish or with one that is no completion ({@link incompleteFinish}), and an
 * `EmptyAnswerError` for any other empty answer (`emptyAnswer`): all are failures before content.
 */
export async function readPreamble(attempt: StreamAttempt, held: Part[]): Promise<void> {
  for (;;) {
    const next = await attempt.read();
    if (next.done) throw missingFinish(0);
    const part = next.value;
    if (part.type === 'error') throw new InBandError(part);
    if (part.type === 'finish') {
      // Nothing came before it: an ending that is no completion, or an empty answer, is a failure before content.
      const failure = incompleteFinish(part, 0) ?? emptyAnswer(part.finishReason);
      if (failure) throw failure;
    }
    held.push(part);
    if (part.type === 'finish' || isContent(part)) return;
  }
}
