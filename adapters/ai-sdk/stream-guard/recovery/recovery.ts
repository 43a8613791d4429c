/**
 * The recovery after content, in one place: a stream that failed after the consumer saw part of the answer is never
 * streamed again. One recovery request follows — a non-streaming `doGenerate` (default), or a new streamed request
 * (`recovery: 'stream'`) — continuing the shown text where the provider can (`continuation.ts`), reconciled with
 * what was shown (`reconciliation.ts`), so the consumer sees each character once. A continuation the provider
 * rejects (400/422) gets one request that answers anew; a streamed recovery's transient failure gets a new one after
 * backoff, within `maxRetries`. The call it recovers (`GuardedCall`) keeps the records and decides retries.
 */
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4StreamPart as Part,
} from '@ai-sdk/provider';
import type { Classification } from '../../../../src/classify/types.js';
import type { AttemptMode, AttemptRecord, AttemptRecorder } from '../../../../src/stream/attempt-record.js';
import { isResetPart } from '../../../../src/stream/reset-part.js';
import { SingleUseRequest } from '../../../../src/stream/single-use-request.js';
import { incompleteFinish, missingFinish } from '../attempt/preamble.js';
import { type AttemptOptions, StreamAttempt } from '../attempt/stream-attempt.js';
import type { Admission } from '../models/model-chain.js';
import {
  type ContinuationOption,
  continuationStyle,
  isPrefillRejection,
  prefill,
  rememberPrefillRejection,
} from './continuation.js';
import type { EmittedContent } from './emitted-content.js';
import { Reconciliation } from './reconciliation.js';

/** How a failure after content is recovered (see `StreamGuardOptions.recovery`). */
export type RecoveryMode = 'generate' | 'stream';

type Finish = Extract<Part, { type: 'finish' }>;

/** What a recovery needs of the guard's options. */
export interface RecoveryOptions extends AttemptOptions {
  recovery: RecoveryMode;
}

/** The request a consumer's cancel must reach (the committed attempt, then a streamed recovery), and whether it came. */
export interface Sink {
  attempt: StreamAttempt;
  cancelled: boolean;
}

/**
 * What a recovery needs of the call it recovers: its request (the model it is on now and that model's params), its
 * records, its retry and failover rules and its way to fail.
 */
export interface RecoveredCall {
  readonly model: LanguageModelV4;
  readonly params: LanguageModelV4CallOptions;
  /** The `continuation` option as it holds for the current model. */
  readonly continuation: ContinuationOption;
  readonly options: RecoveryOptions;
  /** Asks the current model's breaker to admit a request; throws `CircuitOpenError` while it is open. */
  admit(): Promise<Admission>;
  /** A fresh record for attempt `n`. */
  recorder(n: number, mode: AttemptMode): AttemptRecorder;
  /** Keeps an attempt's record. */
  record(record: AttemptRecord): void;
  /** Classifies a failure after content. */
  classify(error: unknown): Classification;
  /** After a failed streamed recovery: whether a new one follows (within `maxRetries`, after the backoff). */
  retryAfter(n: number, record: AttemptRecord, classification: Classification): Promise<boolean>;
  /** After the current model failed for good: whether the call moved on to the next model. */
  failOver(record: AttemptRecord, error: unknown, classification: Classification): boolean;
  /** Ends the consumer's stream with a failure nothing recovers. */
  fail(record: AttemptRecord, error: unknown, controller: ReadableStreamDefaultController<Part>): void;
  /** The recovered answer's finish part as the consumer gets it (attempt records in its metadata). */
  finishPart(finish: Finish): Finish;
}

/**
 * Recovers the call after content, from attempt `first` on, into `controller`: the remainder of the answer, or a
 * reset part and the whole answer, then a finish; or the failure that ended the last request.
 */
export async function recover(
  call: RecoveredCall,
  first: number,
  emitted: EmittedContent,
  controller: ReadableStreamDefaultController<Part>,
  sink: Sink,
): Promise<void> {
  const streamed = call.options.recovery === 'stream';
  // The model whose answer the consumer started reading: a fallback that finishes it names itself in the response.
  const committed = call.model;
  let style = continuationStyle(call.continuation, call.model);
  for (let n = first; ; n++) {
    const { model } = call;
    const texts = style === undefined ? undefined : emitted.prefillTexts();
    const plan = style && texts ? prefill(style, model, call.params, texts) : undefined;
    const recorder = call.recorder(n, streamed ? 'stream' : 'generate');
    recorder.recovery = plan ? 'continue' : 'regenerate';
    const reconciliation = new Reconciliation(emitted, n, plan);
    const emit = (part: Part) => {
      if (part.type === 'text-delta' || part.type === 'reasoning-delta')
        recorder.charsEmitted += part.delta.length;
      else if (isResetPart(part))
        recorder.telemetry?.reset(part.providerMetadata['graceful-ai'].reset.discardedChars);
      controller.enqueue(part);
    };
    const request: RecoveryRequest = {
      model,
      params: plan?.params ?? call.params,
      options: call.options,
      recorder,
      announceResponse: model !== committed,
    };
    let finish: Finish;
    let admission: Admission | undefined;
    try {
      admission = await call.admit();
      finish = streamed
        ? await streamedRecovery(request, reconciliation, emit, (attempt) => {
            sink.attempt = attempt;
          })
        : await generatedRecovery(request, reconciliation, emit);
    } catch (error) {
      if (sink.cancelled) {
        await admission?.settle('ignored');
        return;
      }
      const classification = call.classify(error);
      const record = recorder.finish({ error, classification });
      call.record(record);
      await admission?.settle(classification.kind === 'transient' ? 'failure' : 'ignored');
      if (plan !== undefined && isPrefillRejection(error)) {
        rememberPrefillRejection(model);
        style = undefined;
        continue;
      }
      // A request the model's breaker refused is not retried on it: the next model answers at once.
      if (admission !== undefined && streamed && (await call.retryAfter(n, record, classification))) continue;
      if (call.failOver(record, error, classification)) {
        style = continuationStyle(call.continuation, call.model);
        continue;
      }
      call.fail(record, error, controller);
      return;
    }
    call.record(recorder.finish());
    await admission.settle('success');
    controller.enqueue(call.finishPart(finish));
    controller.close();
    return;
  }
}

/** One recovery request: the model, the params to send (a prefill, maybe), the attempt's options and record. */
interface RecoveryRequest {
  model: LanguageModelV4;
  params: LanguageModelV4CallOptions;
  options: AttemptOptions;
  /** Its record: names the request in errors, and counts the characters it passed on. */
  recorder: AttemptRecorder;
  /** Pass the request's response metadata on: another model answers (the SDK's `response.modelId` then names it). */
  announceResponse: boolean;
}

/** One non-streaming recovery request; its answer goes through `reconciliation` at once. Returns its finish. */
async function generatedRecovery(
  { model, params, recorder, announceResponse }: RecoveryRequest,
  reconciliation: Reconciliation,
  emit: (part: Part) => void,
): Promise<Finish> {
  const result = await new SingleUseRequest(recorder.request, () =>
    recorder.run(() => model.doGenerate(params)),
  ).stream();
  if (announceResponse && result.response) {
    const { id, timestamp, modelId } = result.response;
    emit({ type: 'response-metadata', id, timestamp, modelId });
  }
  for (const part of reconciliation.whole(result)) emit(part);
  const { usage, finishReason, providerMetadata } = result;
  recorder.usage = usage;
  return { type: 'finish', usage, finishReason, ...(providerMetadata && { providerMetadata }) };
}

/**
 * One streamed recovery request, reconciled part by part as it arrives (`started` learns the attempt, so the
 * consumer's cancel reaches it). It fails like any attempt: thrown, rejected, an error part, a stall, or an end
 * without a complete finish. Returns its finish.
 */
async function streamedRecovery(
  { model, params, options, recorder, announceResponse }: RecoveryRequest,
  reconciliation: Reconciliation,
  emit: (part: Part) => void,
  started: (attempt: StreamAttempt) => void,
): Promise<Finish> {
  const attempt = new StreamAttempt(model, params, options, recorder);
  started(attempt);
  try {
    await attempt.open();
    for (;;) {
      const next = await attempt.read();
      if (next.done) throw missingFinish(recorder.charsEmitted);
      const part = next.value;
      if (part.type === 'error') throw part.error;
      if (part.type === 'response-metadata' && announceResponse) emit(part);
      if (part.type === 'finish') {
        recorder.usage = part.usage;
        const incomplete = incompleteFinish(part, recorder.charsEmitted);
        if (incomplete) throw incomplete;
        for (const out of reconciliation.end()) emit(out);
        return part;
      }
      for (const out of reconciliation.push(part)) emit(out);
    }
  } finally {
    attempt.stop();
  }
}
