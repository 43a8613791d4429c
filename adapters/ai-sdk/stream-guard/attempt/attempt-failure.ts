/**
 * How the guard classifies an attempt's failure. Before content it changes the SDK's behaviour only on evidence: an
 * error no rule recognises is reported at once, as the SDK reports it (unless the caller set `classify.unknown`).
 * After content it is recovered: the alternative is a partial answer.
 */
import { classifyError } from '../../../../src/classify/classify.js';
import type { Classification, ClassifyOverrides } from '../../../../src/classify/types.js';
import { CircuitOpenError } from '../../../../src/errors/circuit-open-error.js';
import { StreamInterruptedError } from '../../../../src/errors/stream-interrupted-error.js';
import { StreamStalledError } from '../../../../src/errors/stream-stalled-error.js';
import type { Clock } from '../../../../src/util/time.js';
import type { EmptyAnswers } from './empty-answer.js';

/** Whether the attempt failed before its first content part or after it. */
export type AttemptPhase = 'before content' | 'after content';

export function classifyAttemptFailure(
  error: unknown,
  phase: AttemptPhase,
  options: { classify: ClassifyOverrides | undefined; clock: Clock },
  signal: AbortSignal | undefined,
  emptyAnswers: EmptyAnswers,
): Classification {
  // A stall, a clean but incomplete end, an open model breaker: ours to recover, whatever the caller set.
  if (!signal?.aborted) {
    // One empty answer is retried (`EmptyAnswerError` is transient); a second one ends the call.
    if (emptyAnswers.again(error)) return { kind: 'permanent', reason: 'empty-answer:again' };
    if (StreamStalledError.isInstance(error)) return { kind: 'transient', reason: 'stall' };
    if (CircuitOpenError.isInstance(error)) return { kind: 'transient', reason: 'circuit_open' };
    if (StreamInterruptedError.isInstance(error)) {
      return {
        kind: 'transient',
        reason: error.ending === 'no-finish' ? 'finish:missing' : `finish:${error.ending}`,
      };
    }
  }
  return classifyError(error, {
    ...options.classify,
    unknown: options.classify?.unknown ?? (phase === 'before content' ? 'permanent' : 'transient'),
    signal,
    clock: options.clock,
  });
}
