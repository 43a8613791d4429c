/**
 * The stream guard's public face: its options and events, their defaults and validation, and the `streamGuard()`
 * middleware factory. The work of one guarded call lives in `guarded-call.ts` (with `stream-attempt.ts` and
 * `emitted-content.ts`), so this file reads as the guard's contract.
 */
import type { LanguageModelV4, LanguageModelV4Middleware } from '@ai-sdk/provider';
import type { ClassifyOverrides } from '../../src/classify/types.js';
import type { EventOf, EventSink } from '../../src/observe/emitter.js';
import { defaultLogger } from '../../src/observe/logger.js';
import { type BackoffOptions, validateBackoff } from '../../src/policy/backoff.js';
import { type Coordination, checkCoordination } from '../../src/policy/coordination.js';
import { abortableSleep } from '../../src/policy/sleep.js';
import type { AttemptRecord } from '../../src/stream/attempt-record.js';
import { deprecatedOption } from '../../src/util/deprecated.js';
import { type Clock, type Random, type Sleep, systemClock, systemRandom } from '../../src/util/time.js';
import {
  checkBoolean,
  checkClock,
  checkCount,
  checkDelayMs,
  checkFunction,
  checkOneOf,
  checkOptionsObject,
  checkTimeoutMs,
} from '../../src/util/validate.js';
import { type ContinuationOption, continuationOptions } from './continuation.js';
import { coordinatedModel } from './coordinated-model.js';
import { GuardedCall } from './guarded-call.js';

/**
 * Events of the stream guard. Each carries the record of the attempt it is about. A type alias, not an interface:
 * it satisfies `EventMap` without an index signature, so a misspelled event name does not compile.
 */
export type StreamGuardEventMap = {
  /** A failure before any content, or of a streamed recovery: a new streamed request follows after `delayMs`. */
  stream_retry: { attempt: AttemptRecord; nextAttempt: number; delayMs: number };
  /**
   * A transient failure after content: a recovery request follows (never the spent stream again): non-streaming or
   * streamed (`recovery`), continuing the shown text or answering anew (`continuation`).
   */
  stream_degraded: { attempt: AttemptRecord; charsEmitted: number };
  /** The call failed for good; `error` is what the stream ends with. */
  stream_failed: { attempt: AttemptRecord; attempts: AttemptRecord[]; error: unknown };
};

/** One stream guard event as an `onEvent` listener receives it: the payload with its `type`. */
export type StreamGuardEvent = EventOf<StreamGuardEventMap>;

/** Options of {@link streamGuard}. Every field is optional. */
export interface StreamGuardOptions {
  /**
   * New streamed requests after a transient failure before any content was emitted (retries after the first
   * request, the AI SDK's word). After content there is never a second stream: see `degrade`.
   * @default 2
   */
  maxRetries?: number;
  /** @deprecated Use `maxRetries` (the same count); kept through 0.x. */
  maxStreamRetries?: number;
  /**
   * Delay before the first new request, in ms.
   * @default 1000
   */
  initialDelayMs?: number;
  /**
   * Growth of the delay per retry.
   * @default 2
   */
  multiplier?: number;
  /**
   * Cap of one backoff delay in ms, jitter included.
   * @default 30000
   */
  maxDelayMs?: number;
  /**
   * Random spread of each delay as a fraction: 0.1 = ±10%. In [0, 1].
   * @default 0.1
   */
  jitter?: number;
  /** @deprecated Use the top-level `initialDelayMs`, `multiplier`, `maxDelayMs`, `jitter`; kept through 0.x. */
  backoff?: Partial<BackoffOptions>;
  /**
   * The longest server-requested delay (retry-after) honoured, in ms; a longer one ends the retries at once.
   * @default 60000
   */
  maxRetryAfterMs?: number;
  /**
   * After content, recover a transient failure (see `recovery` and `continuation`); `false` makes such failures
   * terminal.
   * @default true
   */
  degrade?: boolean;
  /**
   * How a failure after content is recovered. `'generate'`: one non-streaming request, reconciled with what was
   * shown once it answered. `'stream'`: a new streamed request (never the spent one), reconciled as it arrives:
   * swallowed while it repeats what was shown, streamed live once past it, a reset part the moment it diverges; its
   * own transient failures get new streamed requests with backoff, counted against `maxRetries`.
   * @default 'generate'
   */
  recovery?: RecoveryMode;
  /**
   * Whether a recovery after content asks the model to continue the text it showed (the request ends with that
   * text as an assistant message) instead of answering anew. `'auto'`: where the provider is known to support it
   * (`continuationByProvider`: Anthropic Messages); `'off'`: always answer anew; a style for an OpenAI-compatible
   * server that supports it: `'vllm'` (`continue_final_message`), `'prefix'` (DeepSeek, Mistral), or `'anthropic'`.
   * It falls back to answering anew when the step showed anything but text, with extended thinking, and when the
   * provider rejects the prefill (HTTP 400/422).
   * @default 'auto'
   */
  continuation?: ContinuationOption;
  /**
   * Abort an attempt whose stream sends nothing for this long, in ms, and recover it (default: off). Only the time a
   * read from the provider is pending counts: a consumer that pauses between parts is never a stall. The wait for the
   * provider's `doStream` counts too (packages read ahead to the first output before they return): keep it above your
   * model's longest time to first output. Keep it below the SDK's `timeout.chunkMs`: the SDK's timer aborts the whole
   * call, which the guard cannot recover.
   */
  stallTimeoutMs?: number;
  /**
   * Overrides for the shared classifier (`classifyError`). An error no rule recognises is, by default, reported at
   * once before content (as the SDK reports it) and recovered after content; `unknown` sets one verdict for both.
   */
  classify?: ClassifyOverrides;
  /**
   * Cool-downs shared with other processes (`redisCoordination(client)` from `graceful-ai/redis`), keyed by
   * provider, model and a fingerprint of the API key: every request first waits out a cool-down another caller was
   * given (a 429's retry-after), or fails at once with `CooldownError` when it is longer than `maxRetryAfterMs`; a
   * failure with a retry-after announces one. Default: none.
   */
  coordination?: Coordination;
  /** Receives `stream_retry`, `stream_degraded` and `stream_failed`; a throwing listener is logged and ignored. */
  onEvent?: (event: StreamGuardEvent) => void;
  /** @deprecated Use `onEvent`; any object with an `emit(type, payload)` method still works through 0.x. */
  events?: EventSink<StreamGuardEventMap>;
  /** Injected for tests (default: the system clock). */
  clock?: Clock;
  /** The backoff waits, injected for tests (default: `abortableSleep`). The stall watch runs on the global timers. */
  sleep?: Sleep;
  /** Injected for tests (default: `Math.random`). */
  random?: Random;
}

/** The defaults of {@link StreamGuardOptions}. */
export const defaultStreamGuardOptions = {
  maxRetries: 2,
  initialDelayMs: 1000,
  multiplier: 2,
  maxDelayMs: 30_000,
  jitter: 0.1,
  maxRetryAfterMs: 60_000,
  degrade: true,
  recovery: 'generate',
  continuation: 'auto',
} as const;

/** How a failure after content is recovered (see {@link StreamGuardOptions.recovery}). */
export type RecoveryMode = 'generate' | 'stream';

const recoveryModes: readonly RecoveryMode[] = ['generate', 'stream'];

/** The key under which the guard writes its attempt records into `providerMetadata`. */
export const GUARD_METADATA_KEY = 'graceful-ai';

/**
 * Checks the guard's options: a `RangeError`/`TypeError` naming `<prefix><option>` (the drop-ins pass
 * `streamGuard.`, so a bad guard count is not mistaken for the call's own `maxRetries`).
 */
export function checkStreamGuardOptions(options: StreamGuardOptions, prefix = ''): void {
  checkOptionsObject(prefix === '' ? 'streamGuard' : prefix.slice(0, -1), options);
  checkCount(`${prefix}maxRetries`, options.maxRetries);
  checkCount(`${prefix}maxStreamRetries`, options.maxStreamRetries);
  validateBackoff(options, prefix);
  checkOptionsObject(`${prefix}backoff`, options.backoff);
  if (options.backoff) validateBackoff(options.backoff, `${prefix}backoff.`);
  checkDelayMs(`${prefix}maxRetryAfterMs`, options.maxRetryAfterMs);
  checkBoolean(`${prefix}degrade`, options.degrade);
  checkOneOf(`${prefix}recovery`, options.recovery, recoveryModes);
  checkOneOf(`${prefix}continuation`, options.continuation, continuationOptions);
  checkTimeoutMs(`${prefix}stallTimeoutMs`, options.stallTimeoutMs);
  checkOptionsObject(`${prefix}classify`, options.classify);
  checkCoordination(`${prefix}coordination`, options.coordination);
  checkFunction(`${prefix}onEvent`, options.onEvent);
  checkOptionsObject(`${prefix}events`, options.events);
  checkClock(`${prefix}clock`, options.clock);
  checkFunction(`${prefix}sleep`, options.sleep);
  checkFunction(`${prefix}random`, options.random);
}

/**
 * The drop-ins' private option (a symbol key, so no user option can collide): the guard then surfaces a failure it
 * cannot recover the AI SDK's way — an `error` part, so `onError`, `onEnd` and the UI error chunk happen — and
 * reports it here, so the drop-in can make `result.text` reject with it instead of passing a partial (or empty) answer
 * off as complete. Without it (the guard as plain middleware) such a failure errors the stream.
 */
export const reportFailureKey: unique symbol = Symbol('graceful-ai.streamGuard.reportFailure');

/** The guard's options with the drop-ins' private failure reporter. */
export type DropInGuardOptions = StreamGuardOptions & { [reportFailureKey]?: (error: unknown) => void };

/** The guard's options, checked (a `RangeError`/`TypeError` naming the option) and with every default filled in. */
function resolveOptions(options: DropInGuardOptions): Resolved {
  checkStreamGuardOptions(options);
  if (options.maxStreamRetries !== undefined) deprecatedOption('maxStreamRetries', 'maxRetries');
  if (options.backoff !== undefined)
    deprecatedOption('backoff', 'initialDelayMs, multiplier, maxDelayMs, jitter');
  if (options.events !== undefined) deprecatedOption('events', 'onEvent');
  const d = defaultStreamGuardOptions;
  const legacy = options.backoff ?? {};
  const { onEvent, events } = options;
  return {
    maxRetries: options.maxRetries ?? options.maxStreamRetries ?? d.maxRetries,
    backoff: {
      initialDelayMs: options.initialDelayMs ?? legacy.initialDelayMs ?? d.initialDelayMs,
      multiplier: options.multiplier ?? legacy.multiplier ?? d.multiplier,
      maxDelayMs: options.maxDelayMs ?? legacy.maxDelayMs ?? d.maxDelayMs,
      jitter: options.jitter ?? legacy.jitter ?? d.jitter,
    },
    maxRetryAfterMs: options.maxRetryAfterMs ?? d.maxRetryAfterMs,
    degrade: options.degrade ?? d.degrade,
    recovery: options.recovery ?? d.recovery,
    continuation: options.continuation ?? d.continuation,
    stallTimeoutMs: options.stallTimeoutMs,
    classify: options.classify,
    coordination: options.coordination,
    emit: (type, payload) => {
      events?.emit(type, payload);
      if (onEvent) emitTo(onEvent, type, payload);
    },
    clock: options.clock ?? systemClock,
    sleep: options.sleep ?? abortableSleep,
    random: options.random ?? systemRandom,
    reportFailure: options[reportFailureKey],
  };
}

/** Calls a user's listener; a throwing one is logged, never fails the call. */
function emitTo<K extends keyof StreamGuardEventMap>(
  listener: (event: StreamGuardEvent) => void,
  type: K,
  payload: StreamGuardEventMap[K],
): void {
  try {
    listener({ type, ...payload } as StreamGuardEvent);
  } catch (error) {
    defaultLogger.warn(`graceful-ai: a '${type}' onEvent listener threw; ignored`, { error });
  }
}

/** The guard's options as its parts use them (`GuardedCall`, `StreamAttempt`); not part of the package's API. */
export interface Resolved {
  maxRetries: number;
  backoff: BackoffOptions;
  maxRetryAfterMs: number;
  degrade: boolean;
  recovery: RecoveryMode;
  continuation: ContinuationOption;
  stallTimeoutMs: number | undefined;
  classify: ClassifyOverrides | undefined;
  coordination: Coordination | undefined;
  emit<K extends keyof StreamGuardEventMap>(type: K, payload: StreamGuardEventMap[K]): void;
  clock: Clock;
  sleep: Sleep;
  random: Random;
  /** Set by the drop-ins: surface failures as `error` parts and report those after content (see `reportFailureKey`). */
  reportFailure: ((error: unknown) => void) | undefined;
}

/**
 * A LanguageModelV4 middleware that recovers failed model calls without ever re-streaming a spent request:
 * - before the first content part (what a consumer can see: a non-empty delta, a tool call, a file, a source), a
 *   transient failure (thrown, rejected, `error` part, in-band provider error, stall, an end without a finish or with
 *   one that is no completion) starts a NEW streamed request after backoff, up to `maxRetries`; an error no rule
 *   recognises is passed on at once, as the SDK would; only the winning attempt's preamble (every part before its
 *   first content part) reaches the consumer;
 * - after content, a transient failure gets a recovery request: ONE `doGenerate` (default) or a NEW streamed
 *   request (`recovery: 'stream'`), reconciled with what was emitted: the remainder only, or a `graceful-ai.reset`
 *   part then the complete answer, its provider metadata (signatures, redacted thinking, item ids) kept. Where the
 *   provider can continue an assistant prefix (`continuation`, by default Anthropic Messages), the request ends
 *   with the shown text and only the continuation follows;
 * - anything else (permanent, overflow, abort) errors the stream with the original error, so `result.text` rejects
 *   (the drop-ins instead end it with an `error` part, as the SDK does, and make `result.text` reject themselves).
 * When a retry or a recovery happened, the attempt records land on the finish part's
 * `providerMetadata['graceful-ai'].attempts`; a clean first attempt adds nothing.
 *
 * @example wrapLanguageModel({ model: openai('gpt-4o'), middleware: streamGuard() })
 */
export function streamGuard(options: StreamGuardOptions = {}): LanguageModelV4Middleware {
  return guardMiddleware(options);
}

/** {@link streamGuard} with the drop-ins' private failure reporter (not exported from the package). */
export function guardMiddleware(options: DropInGuardOptions): LanguageModelV4Middleware {
  const resolved = resolveOptions(options);
  const { coordination } = resolved;
  // Shared cool-downs wrap the provider model, so every attempt the guard makes is gated and reported.
  const modelOf = (model: LanguageModelV4) =>
    coordination === undefined
      ? model
      : coordinatedModel(model, { ...resolved, coordination, maxWaitMs: resolved.maxRetryAfterMs });
  return {
    specificationVersion: 'v4',
    wrapStream: ({ model, params }) => new GuardedCall(modelOf(model), params, resolved).stream(),
    wrapGenerate: ({ model, params }) => new GuardedCall(modelOf(model), params, resolved).generate(),
  };
}
