import { classifyError } from '../classify/classify.js';
import type { Classification, ClassifyOptions, ClassifyOverrides } from '../classify/types.js';
import type { FailureDecision } from '../observe/tool-events.js';
import { defaultTelemetry, type ToolTelemetry } from '../observe/tool-telemetry.js';
import { systemClock, systemRandom } from '../util/time.js';
import { checkBoolean, checkFunction, checkOptionsObject, checkTimeoutMs } from '../util/validate.js';
import { CircuitBreaker, type CircuitBreakerOptions, checkBreakerOptions } from './circuit-breaker.js';
import { type Coordination, checkCoordination } from './coordination.js';
import {
  type AttemptContext,
  checkPolicyRuntime,
  type PolicyRuntime,
  type ResolvedRetryOptions,
  type RetryOptions,
  type RetryOutcome,
  resolveRetryOptions,
  runRetries,
} from './retry.js';

/** The resilience options of one tool (the vocabulary `gracefulTool` accepts). */
export interface ToolPolicyOptions extends ClassifyOverrides {
  /**
   * Automatic retry of transient errors before the model sees anything (defaults: 4 retries, 100 ms × 2, ±10%,
   * 2 s budget); `false` = one attempt.
   */
  autoRetry?: RetryOptions | false;
  /** Hard limit per attempt in ms (default: none); capped at what remains of the retry budget. */
  timeoutMs?: number;
  /** The tool's circuit breaker (defaults: 5 failures, 30 s open, 2 trial successes); `false` = none. */
  breaker?: CircuitBreakerOptions | false;
  /**
   * Whether the tool may run again after any transient failure (`RetryPolicy.idempotent`). `false`: it is re-run
   * automatically only when the error proves the call never took effect (`provesNotExecuted`); any other transient
   * failure ends the call at once (decision `not_idempotent`), for the model to decide.
   * @default false
   */
  idempotent?: boolean;
  /**
   * What this tool shares with other processes (`redisCoordination(client)` from `graceful-ai/redis`): cool-downs
   * keyed `tool:<name>` (a retry-after or an opened breaker makes every process wait or fail fast with
   * `CooldownError`) and, unless `breaker.store` is given, the breaker's state. Default: none.
   */
  coordination?: Coordination;
}

/** A tool that answers when the primary one fails for good (permanent, retries exhausted, circuit open). */
export interface PolicyFallback<T> {
  name: string;
  run(signal: AbortSignal | undefined): Promise<T> | T;
}

/** One call's settings. */
export interface PolicyCall<T> {
  /** The caller's signal (the AI SDK's `abortSignal`): its abort is never retried nor counted. */
  signal?: AbortSignal;
  /**
   * `true`: when the breaker ends the call after an attempt ran, the outcome holds that attempt's own error, not
   * a `CircuitOpenError` (`RetryPolicy.keepOwnError`; a `graceful: false` tool must fail with its own error).
   */
  keepOwnError?: boolean;
  /** Where this call reports (e.g. with the turn's trace); default: the policy's telemetry. */
  telemetry?: ToolTelemetry;
  fallback?: PolicyFallback<T>;
}

/** How a call ended: the retry outcome, plus which tool answered when the fallback did. */
export type ToolPolicyOutcome<T> =
  | (Extract<RetryOutcome<T>, { ok: true }> & { answeredBy?: string })
  | Extract<RetryOutcome<T>, { ok: false }>;

/** The composed stack of one tool: fallback ▸ circuit breaker ▸ retry ▸ timeout ▸ call. */
export interface ToolPolicy {
  readonly name: string;
  /** The tool's breaker, shared by every call through this policy; undefined when disabled. */
  readonly breaker: CircuitBreaker | undefined;
  /** The classification this tool uses (the default rules with its overrides). */
  classify(error: unknown): Classification;
  /**
   * Runs `fn` under the stack. The first attempt starts synchronously, inside this call, unless the breaker's store
   * answers asynchronously or the caller's signal has already fired.
   */
  run<T>(
    fn: (context: AttemptContext) => Promise<T> | T,
    call?: PolicyCall<T>,
  ): Promise<ToolPolicyOutcome<T>>;
}

/**
 * Checks every option of a tool policy (a `RangeError`/`TypeError` naming the first bad one) without building
 * anything, and returns the retry settings it resolved.
 */
export function checkToolPolicyOptions(options: ToolPolicyOptions & PolicyRuntime): ResolvedRetryOptions {
  const { autoRetry } = options;
  checkOptionsObject('autoRetry', autoRetry, true);
  const retryOptions = resolveRetryOptions(
    autoRetry === false ? { maxRetries: 0, maxTotalTimeMs: Number.POSITIVE_INFINITY } : (autoRetry ?? {}),
  );
  checkTimeoutMs('timeoutMs', options.timeoutMs);
  checkOptionsObject('breaker', options.breaker, true);
  if (options.breaker) checkBreakerOptions(options.breaker);
  checkPolicyRuntime(options);
  checkFunction('classify', options.classify);
  checkBoolean('idempotent', options.idempotent);
  checkCoordination('coordination', options.coordination);
  return retryOptions;
}

/**
 * Decisions after which a fallback may answer; an abort is the caller's and ends the call. After `not_idempotent`
 * the fallback answers as after `exhausted` (what `autoRetry: false` ends with): the tool failed for good and the
 * application chose the fallback for that case. A record, so a new decision needs a choice here.
 */
const fallbackAfter: Readonly<Record<FailureDecision, boolean>> = {
  permanent: true,
  exhausted: true,
  budget: true,
  retry_after: true,
  circuit_open: true,
  not_idempotent: true,
  abort: false,
};

/**
 * Builds the resilience stack of one tool. Options are validated here (a `RangeError` names the bad option), so
 * wrap tools once, at module level: the breaker lives in the policy and is shared by every run that uses it.
 */
export function createToolPolicy(name: string, options: ToolPolicyOptions & PolicyRuntime = {}): ToolPolicy {
  const retryOptions = checkToolPolicyOptions(options);
  const { coordination } = options;
  const breaker =
    options.breaker === false
      ? undefined
      : new CircuitBreaker(name, {
          clock: options.clock,
          store: coordination?.breakerStore,
          ...(options.breaker ?? {}),
        });
  const overrides: ClassifyOptions = {
    classify: options.classify,
    treatAsPermanent: options.treatAsPermanent,
    treatAsTransient: options.treatAsTransient,
    unknown: options.unknown,
    patterns: options.patterns,
    clock: options.clock,
  };
  const classify = (error: unknown) => classifyError(error, overrides);
  const baseTelemetry = options.telemetry ?? defaultTelemetry;

  return {
    name,
    breaker,
    classify,
    async run(fn, call = {}) {
      const telemetry = call.telemetry ?? baseTelemetry;
      const outcome = await runRetries(fn, {
        settings: retryOptions,
        timeoutMs: options.timeoutMs,
        classify,
        signal: call.signal,
        breaker,
        name,
        idempotent: options.idempotent ?? false,
        keepOwnError: call.keepOwnError ?? false,
        coordination,
        clock: options.clock ?? systemClock,
        sleep: options.sleep,
        random: options.random ?? systemRandom,
        telemetry,
      });
      const { fallback } = call;
      if (outcome.ok || !fallback || !fallbackAfter[outcome.decision]) return outcome;
      try {
        const value = await fallback.run(call.signal);
        telemetry.fallbackUsed({
          toolName: name,
          fallback: fallback.name,
          error: outcome.error,
          classification: outcome.classification,
        });
        return { ok: true, value, attempts: outcome.attempts, answeredBy: fallback.name };
      } catch (error) {
        // The primary tool's failure is what the model must hear about; the fallback was a best effort.
        telemetry.logger.warn(`Fallback '${fallback.name}' of tool '${name}' failed too`, { error });
        return outcome;
      }
    },
  };
}
