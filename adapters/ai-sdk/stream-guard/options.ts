/**
 * The stream guard's contract: its options and events, their defaults, validation and resolution, and the key of
 * its attempt records. The middleware factory is `stream-guard.ts`; one guarded call is `guarded-call.ts`.
 */
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { LanguageModel } from 'ai';
import { failureKindOf } from '../../../src/classify/failure-kind.js';
import type { ClassifyOverrides } from '../../../src/classify/types.js';
import type { ModelRef } from '../../../src/errors/failover-error.js';
import { Emitter, type EventOf } from '../../../src/observe/emitter.js';
import type { CircuitState } from '../../../src/observe/tool-events.js';
import { type CircuitBreakerOptions, checkBreakerOptions } from '../../../src/policy/circuit-breaker.js';
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
import { ModelBreakers } from './models/model-breakers.js';
import type { FailoverSettings } from './models/model-chain.js';
import { resolveModel } from './models/resolve-model.js';
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
   * The model `from` failed for good (`attempt` was its last attempt, or its breaker was open): the call goes on with
   * the next of `fallbackModels`, `to`, at once (not a retry). After content, the answer continues there.
   */
  stream_failover: { attempt: AttemptRecord; from: ModelRef; to: ModelRef };
  /** A model's breaker changed state (`modelBreaker`): `open` — calls skip it; `half_open` — one trial; `closed`. */
  model_breaker: { model: ModelRef; from: CircuitState; to: CircuitState };
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
   * Models to fail over to, in order, when the model the call was made with is unavailable: instances
   * (`anthropic('claude-sonnet-4-5')`) or string ids the AI SDK resolves (through the AI Gateway by default). Each
   * model gets the call's retries first; an availability failure that remains (5xx, overloaded, a rate limit whose
   * wait is too long or that remains after the retries, timeouts, network failures, a cut, an open model breaker)
   * moves the call to the next one at once, before content and after it (the answer continues on the fallback). Never
   * for a context overflow, an invalid request or the caller's abort; auth and quota failures only with
   * `fallbackOn`. Default: none.
   */
  fallbackModels?: readonly LanguageModel[];
  /**
   * Permanent failures that fail over too: `'auth'` (a refused key: another provider's key may work) and `'quota'`
   * (a spent quota or budget). Off by default: a refused key is usually a deployment mistake to see, not to hide.
   * @default []
   */
  fallbackOn?: readonly ('auth' | 'quota')[];
  /**
   * A circuit breaker per model (keyed by provider, model id and API-key fingerprint), shared through `coordination`'s
   * breaker store (every instance learns at once that a model is down) or per process: while a model's breaker is
   * open, calls go straight to the next model, with no request to the open one; after `openMs`, one trial. Thresholds
   * as for tools (`failureThreshold` 5, `successThreshold` 2, `openMs` 30000). Default: on when `fallbackModels` are
   * given, off otherwise; `false` turns it off, an object turns it on with those thresholds.
   */
  modelBreaker?: Omit<CircuitBreakerOptions, 'store' | 'clock'> | false;
  /**
   * Receives `stream_retry`, `stream_degraded`, `stream_failed`, `stream_failover`, `model_breaker` and
   * `tool_history_repaired`; a throwing listener is logged and ignored.
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

/**
 * The drop-ins' reading of the AI SDK's `telemetry` option for the call (a symbol key, as above): whether the SDK
 * records telemetry, and so whether the guard records its spans. Without it (plain middleware) the guard records
 * spans where a span is recording when the call starts.
 */
export const telemetryKey: unique symbol = Symbol('graceful-ai.streamGuard.telemetry');

/** The guard's options with the drop-ins' private failure reporter and telemetry flag. */
export type DropInGuardOptions = StreamGuardOptions & {
  [reportFailureKey]?: (error: unknown) => void;
  [telemetryKey]?: boolean;
};

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
  const fallbacks = resolveFallbackModels(options.fallbackModels, `${prefix}fallbackModels`);
  const fallbackOn = checkFallbackOn(options.fallbackOn, `${prefix}fallbackOn`);
  checkOptionsObject(`${prefix}modelBreaker`, options.modelBreaker, true);
  if (options.modelBreaker) checkBreakerOptions(options.modelBreaker, `${prefix}modelBreaker.`);
  checkClock(`${prefix}clock`, options.clock);
  checkFunction(`${prefix}sleep`, options.sleep);
  checkFunction(`${prefix}random`, options.random);
  const d = defaultStreamGuardOptions;
  // A throwing listener is logged and ignored, as for every graceful-ai event.
  const events = new Emitter<StreamGuardEventMap>();
  if (options.onEvent) events.subscribe(options.onEvent);
  const emit: Resolved['emit'] = (type, payload) => events.emit(type, payload);
  const clock = options.clock ?? systemClock;
  const breakerOn =
    options.modelBreaker !== false && (options.modelBreaker !== undefined || fallbacks.length > 0);
  return {
    retry,
    failover: {
      models: fallbacks,
      on: fallbackOn,
      breakers: breakerOn
        ? new ModelBreakers(options.modelBreaker || {}, options.coordination?.breakerStore, clock, (change) =>
            emit('model_breaker', change),
          )
        : undefined,
      kindOf: failureKindOf(options.classify?.patterns),
    },
    degrade: options.degrade ?? d.degrade,
    recovery: options.recovery ?? d.recovery,
    continuation: options.continuation ?? d.continuation,
    stallTimeoutMs: options.stallTimeoutMs,
    classify: options.classify,
    coordination: options.coordination,
    emit,
    clock,
    sleep: options.sleep ?? abortableSleep,
    random: options.random ?? systemRandom,
    reportFailure: options[reportFailureKey],
    telemetry: options[telemetryKey],
  };
}

/** The guard's options as its parts use them (`GuardedCall`, `StreamAttempt`); not part of the package's API. */
export interface Resolved {
  /** `maxRetries`, the backoff and `maxRetryAfterMs`. */
  retry: ResolvedRetryConfig;
  /** The fallbacks, the failure kinds that fail over, the model breakers. */
  failover: FailoverSettings;
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
  /** Set by the drop-ins: whether the AI SDK records telemetry for the call (see `telemetryKey`). */
  telemetry: boolean | undefined;
}

/** `fallbackModels`, checked (a `TypeError` naming the bad entry) and resolved to models. */
function resolveFallbackModels(value: unknown, option: string): LanguageModelV4[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw new TypeError(
      `graceful-ai: option '${option}' must be an array of models or model id strings; got ${typeof value}.`,
    );
  }
  return value.map((model: unknown, i) => {
    const isModel =
      typeof model === 'string'
        ? model !== ''
        : typeof model === 'object' &&
          model !== null &&
          typeof (model as LanguageModelV4).doStream === 'function' &&
          typeof (model as LanguageModelV4).doGenerate === 'function';
    if (!isModel) {
      throw new TypeError(
        `graceful-ai: option '${option}[${i}]' must be a language model (e.g. anthropic('claude-sonnet-4-5')) or a model id string; got ${model === null ? 'null' : typeof model}.`,
      );
    }
    return resolveModel(model as LanguageModel) as LanguageModelV4;
  });
}

const fallbackKinds = ['auth', 'quota'] as const;

/** `fallbackOn`, checked (a `TypeError` naming it). */
function checkFallbackOn(value: unknown, option: string): ReadonlySet<'auth' | 'quota'> {
  if (value === undefined) return new Set();
  if (!Array.isArray(value) || !value.every((kind) => fallbackKinds.includes(kind))) {
    throw new TypeError(
      `graceful-ai: option '${option}' must be an array of 'auth' and 'quota'; got ${String(value)}.`,
    );
  }
  return new Set(value);
}
