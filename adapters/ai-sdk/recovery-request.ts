/**
 * One recovery request after content, never the spent stream: a non-streaming request whose answer is reconciled at
 * once, or a new streamed request reconciled part by part as it arrives. Which request, and what happens when it
 * fails, is `GuardedCall`'s to decide.
 */
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4StreamPart as Part,
} from '@ai-sdk/provider';
import { SingleUseRequest } from '../../src/stream/single-use-request.js';
import { incompleteFinish, missingFinish } from './preamble.js';
import type { Reconciliation } from './reconciliation.js';
import { StreamAttempt } from './stream-attempt.js';
import type { Resolved } from './stream-guard.js';

/** What a recovery request needs: the model, the params to send (a prefill, maybe), the guard's options, a name. */
export interface RecoveryRequest {
  model: LanguageModelV4;
  params: LanguageModelV4CallOptions;
  options: Pick<Resolved, 'stallTimeoutMs' | 'clock'>;
  /** Names the request in errors and records, e.g. `stream attempt 2 (anthropic.messages:claude-…)`. */
  name: string;
}

type Finish = Extract<Part, { type: 'finish' }>;

/** One non-streaming recovery request; its answer goes through `reconciliation` at once. Returns its finish. */
export async function generatedRecovery(
  { model, params, name }: RecoveryRequest,
  reconciliation: Reconciliation,
  emit: (part: Part) => void,
): Promise<Finish> {
  const result = await new SingleUseRequest(name, () => model.doGenerate(params)).stream();
  for (const part of reconciliation.whole(result)) emit(part);
  const { usage, finishReason, providerMetadata } = result;
  return { type: 'finish', usage, finishReason, ...(providerMetadata && { providerMetadata }) };
}

/**
 * One streamed recovery request, reconciled part by part as it arrives (`started` learns the attempt, so the
 * consumer's cancel reaches it). It fails like any attempt: thrown, rejected, an error part, a stall, or an end
 * without a complete finish. Returns its finish.
 */
export async function streamedRecovery(
  { model, params, options, name }: RecoveryRequest,
  reconciliation: Reconciliation,
  emit: (part: Part) => void,
  started: (attempt: StreamAttempt) => void,
): Promise<Finish> {
  const attempt = new StreamAttempt(model, params, options, name);
  started(attempt);
  let chars = 0;
  const pass = (part: Part) => {
    if (part.type === 'text-delta' || part.type === 'reasoning-delta') chars += part.delta.length;
    emit(part);
  };
  try {
    await attempt.open();
    for (;;) {
      const next = await attempt.read();
      if (next.done) throw missingFinish(chars);
      const part = next.value;
      if (part.type === 'error') throw part.error;
      if (part.type === 'finish') {
        const incomplete = incompleteFinish(part, chars);
        if (incomplete) throw incomplete;
        for (const out of reconciliation.end()) pass(out);
        return part;
      }
      for (const out of reconciliation.push(part)) pass(out);
    }
  } finally {
    attempt.stop();
  }
}
