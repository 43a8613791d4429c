/**
 * The stream guard's contract: its options and events, their defaults, validation and resolution, and the key of
 * its attempt records. The middleware factory is `stream-guard.ts`; one guarded call is `guarded-call.ts`.
 */
import type { ClassifyOverrides } from '../../../src/classify/types.js';
import type { EventOf } from '../../../src/observe/emitter.js';
import { defaultLogger } from '../../../src/observe/logger.js';
import { type Coordination, checkCoordination } from '../../../src/policy/coordination.js';
import {
  type ResolvedRetryConfig,
  type RetryConfig,
  resolveRetryConfig,
} from '../../../src/policy/retry-config.js';
import { abortableSleep } from '../../../src/policy/sleep.js';
import type { AttemptRecord } from '../../../src/stream/attempt-record.js';
import type { ToolHistoryRepair } from '../../../src/stream/tool-history-repair.js';
import { type Clock, type Random, type Sleep, systemClock, systemRandom } from '../../../src/util/time.js';
import {
  checkBoolean,
  checkClock,
  checkFunction,
  checkOneOf,
  checkOptionsObject,
  checkTimeoutMs,
} from '../../../src/util/validate.js';
import { type ContinuationOption, continuationOptions } from './recovery/continuation.js';
import type { RecoveryMode } from './recovery/recovery.js';

/**
 * Events of the stream guard. Each carries the record of the attempt it is about (but `tool_history_repaired`, which
 * is about the call's prompt). A type alias, not an interface:
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
  /**
   * The call's history was repaired before its first attempt (tool calls without a result answered, results without
   * a call dropped); every attempt record of the call carries the same `toolHistoryRepair`.
   */
  tool_history_repaired: { repair: ToolHistoryRepair };
};

/** One stream guard event as an `onEvent` listener receives it: the payload with its `type`. */
export type StreamGuardEvent = EventOf<StreamGuardEventMap>;

/**
 * Options of {@link streamGuard}. Every field is optional. The retry fields are the shared `RetryConfig`; for the guard
 * `maxRetries` counts new streamed requests after a transient failure before any content was emitted (after content
 * there is never a second stream: see `degrade`), with defaults 2 retries, 1000 ms × 2 capped at 30 s, ±10%, server
 * delays up to 60 s.
 */
export interface StreamGuardOptions extends RetryConfig {
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
  /**
   * Receives `stream_retry`, `stream_degraded`, `stream_failed` and `tool_history_repaired`; a throwing listener is
   * logged and ignored.
   */
  onEvent?: (event: StreamGuardEvent) => void;
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

const recoveryModes: readonly RecoveryMode[] = ['generate', 'stream'];

/** The key under which the guard writes its attempt records into `providerMetadata`. */
export const GUARD_METADATA_KEY = 'graceful-ai';

/**
 * The drop-ins' private option (a symbol key, so no user option can collide): the guard then surfaces a failure it
 * cannot recover the AI SDK's way — an `error` part, so `onError`, `onEnd` and the UI error chunk happen — and
 * reports it here, so the drop-in can make `result.text` reject with it instead of passing a partial (or empty) answer
 * off as complete. Without it (the guard as plain middleware) such a failure errors the stream.
 */
export const reportFailureKey: unique symbol = Symbol('graceful-ai.streamGuard.reportFailure');

/** The guard's options with the drop-ins' private failure reporter. */
export type DropInGuardOptions = StreamGuardOptions & { [reportFailureKey]?: (error: unknown) => void };

/**
 * The guard's options, checked where they are given (a `RangeError`/`TypeError` naming `<prefix><option>`; the
 * drop-ins pass `streamGuard.`, so a bad guard count is not mistaken for the call's own `maxRetries`) and with every
 * default filled in.
 */
export function resolveOptions(options: DropInGuardOptions, prefix = ''): Resolved {
  checkOptionsObject(prefix === '' ? 'streamGuard' : prefix.slice(0, -1), options);
  const retry = resolveRetryConfig(options, defaultStreamGuardOptions, prefix);
  checkBoolean(`${prefix}degrade`, options.degrade);
  checkOneOf(`${prefix}recovery`, options.recovery, recoveryModes);
  checkOneOf(`${prefix}continuation`, options.continuation, continuationOptions);
  checkTimeoutMs(`${prefix}stallTimeoutMs`, options.stallTimeoutMs);
  checkOptionsObject(`${prefix}classify`, options.classify);
  checkCoordination(`${prefix}coordination`, options.coordination);
  checkFunction(`${prefix}onEvent`, options.onEvent);
  checkClock(`${prefix}clock`, options.clock);
  checkFunction(`${prefix}sleep`, options.sleep);
  checkFunction(`${prefix}random`, options.random);
  const d = defaultStreamGuardOptions;
  const { onEvent } = options;
  return {
    retry,
    degrade: options.degrade ?? d.degrade,
    recovery: options.recovery ?? d.recovery,
    continuation: options.continuation ?? d.continuation,
    stallTimeoutMs: options.stallTimeoutMs,
    classify: options.classify,
    coordination: options.coordination,
    emit: onEvent === undefined ? () => {} : (type, payload) => emitTo(onEvent, type, payload),
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
  /** `maxRetries`, the backoff and `maxRetryAfterMs`. */
  retry: ResolvedRetryConfig;
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
