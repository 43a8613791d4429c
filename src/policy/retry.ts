import { classifyError } from '../classify/classify.js';
import type { Classification } from '../classify/types.js';
import { CircuitOpenError } from '../errors/circuit-open-error.js';
import type { CooldownError } from '../errors/cooldown-error.js';
import { errorMarker, hasMarker } from '../errors/graceful-error.js';
import { ToolTimeoutError } from '../errors/tool-timeout-error.js';
import { ToolAttemptSpans } from '../observe/otel/tool-attempt-spans.js';
import type { CircuitState, FailureDecision } from '../observe/tool-events.js';
import { defaultTelemetry, type ToolTelemetry } from '../observe/tool-telemetry.js';
import { isThenable } from '../util/shape.js';
import { type Clock, type Random, type Sleep, systemClock, systemRandom } from '../util/time.js';
import {
  checkBoolean,
  checkBudgetMs,
  checkClock,
  checkFunction,
  checkOptionsObject,
  checkTimeoutMs,
} from '../util/validate.js';
import type { BreakerOutcome, CircuitBreaker } from './circuit-breaker.js';
import { cooldownGate } from './cooldown-gate.js';
import { type Coordination, checkCoordination, toolCooldownKey } from './coordination.js';
import { sleepAfter, startEarly } from './early-check.js';
import { recordSuccess } from './record-success.js';
import { type ResolvedRetryConfig, type RetryConfig, resolveRetryConfig } from './retry-config.js';
import { decideRetry } from './retry-decision.js';
import { provesNotExecuted } from './safe-retry.js';
import { abortableSleep } from './sleep.js';
import { withTimeout } from './timeout.js';

/**
 * Automatic retry settings (`autoRetry` of a tool; `retry()`'s policy): the shared {@link RetryConfig} (defaults for
 * tools: 4 retries, 100 ms × 2 capped at 30 s, ±10%, server delays up to 60 s) and a total time budget. Every field
 * is optional.
 */
export interface RetryOptions extends RetryConfig {
  /**
   * No attempt starts later than this many ms after the first (`Infinity` = no budget).
   * @default 2000
   */
  maxTotalTimeMs?: number;
}

/** Where a policy gets its time, randomness and reporting (all injectable for tests). */
export interface PolicyRuntime {
  /** Default: the system clock. */
  clock?: Clock;
  /** Default: `abortableSleep`. */
  sleep?: Sleep;
  /** Default: `Math.random`. */
  random?: Random;
  /** Default: process-wide events and metrics. */
  telemetry?: ToolTelemetry;
}

/** Checks an injected runtime (a `TypeError` naming `<prefix>clock`, `<prefix>sleep`, …). */
export function checkPolicyRuntime(runtime: PolicyRuntime, prefix = ''): void {
  checkClock(`${prefix}clock`, runtime.clock);
  checkFunction(`${prefix}sleep`, runtime.sleep);
  checkFunction(`${prefix}random`, runtime.random);
  checkOptionsObject(`${prefix}telemetry`, runtime.telemetry);
}

/** Everything `retry(fn, policy)` accepts. */
export interface RetryPolicy extends RetryOptions, PolicyRuntime {
  /** Hard limit per attempt in ms, capped at what remains of the budget (default: none). */
  timeoutMs?: number;
  /** The error's kind; only `transient` is retried (default: `classifyError`). */
  classify?: (error: unknown) => Classification;
  /** The caller's signal: aborting it ends a backoff sleep at once and abandons a running attempt. */
  signal?: AbortSignal;
  /** A breaker checked before, and told about, every attempt (default: none). */
  breaker?: CircuitBreaker;
  /** The name used in events, logs and errors (default `'anonymous'`). */
  name?: string;
  /**
   * Whether running `fn` again is safe whatever its failure was (a read, an upsert by key, a request with an
   * idempotency key). `false`: a transient failure is retried only when the error proves the call never took
   * effect (`provesNotExecuted`: a refused connection, an unresolved host, 429, 503, a dependency's open circuit);
   * any other one ends the call at once with the decision `not_idempotent`.
   *
   * `true` by default here: `retry` is a general-purpose helper, and wrapping a function in it is the decision to
   * run it again. Tools default to `false` (`createToolPolicy`, `gracefulTool`): a tool's side effects are not
   * known, and a tool that throws after sending an e-mail must not send five.
   * @default true
   */
  idempotent?: boolean;
  /**
   * `true`: when the breaker ends the call after an attempt ran (that failure opened it, or it was open when the
   * retry was due), the caller receives that attempt's own error instead of a `CircuitOpenError`; the decision is
   * still `circuit_open`. For a caller that must pass the original error on (a `graceful: false` tool).
   * @default false
   */
  keepOwnError?: boolean;
  /**
   * Cool-downs shared with other callers (other processes, through `graceful-ai/redis`), keyed `tool:<name>`: an
   * attempt waits out a cool-down that fits `maxRetryAfterMs` and the budget, or the call ends at once with
   * `CooldownError` (decision `retry_after`); a retry-after hint starts one for everyone, and so does a failure that
   * opens the breaker when the coordination has no `breakerStore` (with one, the breaker itself is shared).
   */
  coordination?: Coordination;
}

/** What a function under `retry` receives. */
export interface AttemptContext {
  /** 1 for the first attempt. */
  attempt: number;
  /** Fires when this attempt times out or the caller aborts. */
  signal: AbortSignal;
}

/** How a retried call ended, with the reason when it failed. */
export type RetryOutcome<T> =
  | { ok: true; value: T; attempts: number }
  | {
      ok: false;
      /**
       * What the caller receives: the tool's last error, `CircuitOpenError` (the tool's own error with
       * `keepOwnError`), or the caller's abort reason.
       */
      error: unknown;
      classification: Classification;
      decision: FailureDecision;
      attempts: number;
      /** When to try again, if known (a server hint beyond the budget, or the open circuit). */
      retryAfterMs?: number;
    };

/**
 * The defaults of every {@link RetryOptions} field: 4 retries, delays 100, 200, 400, 800 ms (initial 100 ms,
 * multiplier 2, capped at 30 s), ±10% jitter, server delays up to 60 s, and no attempt started after 2 s in total.
 */
export const defaultRetryOptions = {
  maxRetries: 4,
  initialDelayMs: 100,
  multiplier: 2,
  maxDelayMs: 30_000,
  jitter: 0.1,
  maxRetryAfterMs: 60_000,
  maxTotalTimeMs: 2_000,
} as const satisfies Required<RetryOptions>;

/** `RetryOptions` with every default filled in. */
export type ResolvedRetryOptions = ResolvedRetryConfig & { readonly maxTotalTimeMs: number };

/** Checks every field (a `RangeError` or `TypeError` naming `<prefix><field>`) and fills in the defaults. */
export function resolveRetryOptions(options: RetryOptions, prefix = 'autoRetry.'): ResolvedRetryOptions {
  checkOptionsObject(prefix.slice(0, -1), options);
  checkBudgetMs(`${prefix}maxTotalTimeMs`, options.maxTotalTimeMs);
  return {
    ...resolveRetryConfig(options, defaultRetryOptions, prefix),
    maxTotalTimeMs: options.maxTotalTimeMs ?? defaultRetryOptions.maxTotalTimeMs,
  };
}

const abortClassification: Classification = { kind: 'abort', reason: 'caller-abort' };

/**
 * Runs `fn` under the retry policy and reports how it ended instead of throwing. Per attempt: breaker check ▸
 * timeout ▸ call. Only transient errors are retried, after `initialDelayMs × multiplier^(n−1)` ±jitter (or the
 * server's retry-after hint when it fits the budget), and only when running `fn` again is safe (`idempotent`, or
 * an error that proves the call never took effect; else the decision is `not_idempotent`); an attempt never starts
 * after `maxTotalTimeMs`; a failed attempt that opens the breaker ends the call with `CircuitOpenError` (or its own
 * error, with `keepOwnError`); the caller's abort ends it at once.
 */
export async function retryWithOutcome<T>(
  fn: (context: AttemptContext) => Promise<T> | T,
  policy: RetryPolicy = {},
): Promise<RetryOutcome<T>> {
  const settings = resolveRetryOptions(policy, '');
  // Checked here, not by the attempt's `withTimeout`: its RangeError would be classified and retried.
  checkTimeoutMs('timeoutMs', policy.timeoutMs);
  checkPolicyRuntime(policy);
  checkFunction('classify', policy.classify);
  checkBoolean('idempotent', policy.idempotent);
  checkBoolean('keepOwnError', policy.keepOwnError);
  checkCoordination('coordination', policy.coordination);
  return runRetries(fn, {
    settings,
    timeoutMs: policy.timeoutMs,
    classify: policy.classify ?? ((error: unknown) => classifyError(error)),
    signal: policy.signal,
    breaker: policy.breaker,
    name: policy.name ?? policy.breaker?.name ?? 'anonymous',
    idempotent: policy.idempotent ?? true,
    keepOwnError: policy.keepOwnError ?? false,
    coordination: policy.coordination,
    clock: policy.clock ?? systemClock,
    sleep: policy.sleep,
    random: policy.random ?? systemRandom,
    telemetry: policy.telemetry ?? defaultTelemetry,
  });
}

/** A retried call's settings, checked and resolved where they were given (`retryWithOutcome`, a tool's policy). */
export interface RetryRun {
  settings: ResolvedRetryOptions;
  timeoutMs: number | undefined;
  classify: (error: unknown) => Classification;
  signal: AbortSignal | undefined;
  breaker: CircuitBreaker | undefined;
  name: string;
  idempotent: boolean;
  keepOwnError: boolean;
  coordination: Coordination | undefined;
  clock: Clock;
  /** `undefined`: `abortableSleep`. */
  sleep: Sleep | undefined;
  random: Random;
  telemetry: ToolTelemetry;
}

/** {@link retryWithOutcome} on settings already checked: nothing is validated per call. */
export async function runRetries<T>(
  fn: (context: AttemptContext) => Promise<T> | T,
  run: RetryRun,
): Promise<RetryOutcome<T>> {
  const { settings, clock, random, classify, telemetry, signal, breaker, sleep, coordination } = run;
  const { idempotent, keepOwnError, name: tool, timeoutMs } = run;
  const budget = settings.maxTotalTimeMs;
  const gate = coordination && cooldownGate(coordination, toolCooldownKey(tool));
  const start = clock.now();
  // Under the SDK's tool span (when it records one): a span per attempt.
  const spans = ToolAttemptSpans.forCall(tool);
  let circuitState: CircuitState | undefined;
  let asyncBreaker = false; // the breaker's store answers asynchronously (a shared one, e.g. in Redis)
  /** The previous attempt's failure, kept for `keepOwnError`. */
  let lastFailure: { error: unknown; classification: Classification } | undefined;

  const fail = (
    error: unknown,
    classification: Classification,
    decision: FailureDecision,
    attempts: number,
    ranTool: boolean,
    retryAfterMs?: number,
  ): RetryOutcome<T> => {
    telemetry.failed({ toolName: tool, attempts, error, classification, decision, ranTool, circuitState });
    spans?.end({ decision: `give_up:${decision}`, error, classification });
    return retryAfterMs === undefined
      ? { ok: false, error, classification, decision, attempts }
      : { ok: false, error, classification, decision, attempts, retryAfterMs };
  };

  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) return fail(signal.reason, abortClassification, 'abort', attempt - 1, false);

    let permit: Awaited<ReturnType<CircuitBreaker['acquire']>> | undefined;
    const cooldownCheck = (admitted?: PromiseLike<unknown>) => () =>
      gate?.admit({
        maxWaitMs: Math.max(0, Math.min(settings.maxRetryAfterMs, budget - (clock.now() - start))),
        sleep: sleepAfter(admitted, sleep ?? abortableSleep),
        signal,
      });
    let cooldown = cooldownCheck();
    if (breaker) {
      try {
        // Admitted in the same tick when the store allows, so the first attempt starts synchronously.
        const admitted = breaker.admit(telemetry);
        asyncBreaker = isThenable(admitted);
        // A shared store's answer takes a round trip: the cool-down is read in the same one (sent together), and
        // waited out only once the breaker admitted the call.
        if (coordination && isThenable(admitted)) cooldown = startEarly(cooldownCheck(admitted));
        permit = isThenable(admitted) ? await admitted : admitted;
      } catch (error) {
        const retryAfterMs = CircuitOpenError.isInstance(error) ? error.retryAfterMs : undefined;
        circuitState = await breaker.state();
        // Opened (by another call) while this one waited to retry: its own failure is what it has to report.
        if (keepOwnError && lastFailure) {
          const own = lastFailure;
          return fail(own.error, own.classification, 'circuit_open', attempt - 1, false, retryAfterMs);
        }
        return fail(error, classify(error), 'circuit_open', attempt - 1, false, retryAfterMs);
      }
    }

    if (coordination) {
      try {
        // After the breaker (an open shared breaker fails fast as such); answered in the same tick when the
        // coordination answers synchronously and nothing cools down.
        const waited = cooldown();
        if (isThenable(waited)) await waited;
      } catch (caught) {
        // A trial slot the breaker granted is given back: the call never ran.
        if (breaker && permit) circuitState = await breaker.record(permit, 'ignored', telemetry);
        // Only the caller's abort ends the wait otherwise.
        if (!hasMarker(caught, errorMarker('CooldownError')))
          return fail(caught, abortClassification, 'abort', attempt - 1, false);
        const { retryAfterMs } = caught as CooldownError;
        const own = keepOwnError ? lastFailure : undefined;
        if (own) return fail(own.error, own.classification, 'retry_after', attempt - 1, false, retryAfterMs);
        return fail(caught, classify(caught), 'retry_after', attempt - 1, false, retryAfterMs);
      }
    }

    const remaining = budget - (clock.now() - start);
    // At least 1 ms: a retry admitted just inside the budget still gets its (short) attempt.
    const attemptTimeoutMs =
      timeoutMs === undefined ? undefined : Math.max(1, Math.min(timeoutMs, remaining));
    try {
      const call = (attemptSignal: AbortSignal) => () => fn({ attempt, signal: attemptSignal });
      const value = await withTimeout((s) => (spans ? spans.run(attempt, call(s)) : call(s)()), {
        timeoutMs: attemptTimeoutMs,
        signal,
        toolName: tool,
        sleep,
      });
      if (breaker && permit) circuitState = await recordSuccess(breaker, permit, asyncBreaker, telemetry);
      telemetry.succeeded({ toolName: tool, attempts: attempt, circuitState });
      spans?.end({ decision: 'ok' });
      return { ok: true, value, attempts: attempt };
    } catch (error) {
      const aborted = signal?.aborted === true;
      const classification = aborted ? abortClassification : classify(error);
      if (ToolTimeoutError.isInstance(error) && attemptTimeoutMs !== undefined) {
        telemetry.timedOut({ toolName: tool, attempt, timeoutMs: attemptTimeoutMs });
      }
      const transient = classification.kind === 'transient';
      if (breaker && permit) {
        const outcome: BreakerOutcome = transient ? 'failure' : 'ignored';
        circuitState = await breaker.record(permit, outcome, telemetry);
      }
      if (coordination && transient) {
        // Told once, for everyone sharing the coordination: the server's hint, and an opened breaker's open time
        // unless the breaker's state is shared already (the coordination's breaker store).
        const hint = classification.retryAfterMs ?? 0;
        const opened =
          breaker && circuitState === 'open' && coordination.breakerStore === undefined ? breaker.openMs : 0;
        const ms = Math.max(hint, opened);
        await gate?.failed(ms);
      }
      if (aborted || classification.kind === 'abort')
        return fail(error, classification, 'abort', attempt, false);
      const decision = decideRetry({
        retriesDone: attempt - 1,
        classification,
        config: settings,
        random,
        remainingMs: budget - (clock.now() - start),
      });
      if (!decision.retry) {
        return fail(error, classification, decision.reason, attempt, true, decision.retryAfterMs);
      }
      // A retry is due; it runs only when running `fn` again cannot do anything twice.
      if (!idempotent && !provesNotExecuted(error)) {
        return fail(error, classification, 'not_idempotent', attempt, true);
      }
      const { delayMs } = decision;
      // The breaker is checked before each retry: once open, stop instead of sleeping (cause: this failure).
      if (breaker && circuitState === 'open') {
        if (keepOwnError) return fail(error, classification, 'circuit_open', attempt, true, breaker.openMs);
        const opened = new CircuitOpenError({
          toolName: breaker.name,
          retryAfterMs: breaker.openMs,
          reopensAt: clock.now() + breaker.openMs,
          cause: error,
        });
        return fail(opened, classification, 'circuit_open', attempt, true, breaker.openMs);
      }

      lastFailure = { error, classification };
      telemetry.retrying({
        toolName: tool,
        attempt,
        maxRetries: settings.maxRetries,
        delayMs,
        error,
        classification,
        circuitState,
      });
      spans?.end({ decision: 'retry', error, classification, delayMs });
      try {
        await (sleep ?? abortableSleep)(delayMs, signal);
      } catch (reason) {
        return fail(reason, abortClassification, 'abort', attempt, false);
      }
    }
  }
}

/**
 * Runs `fn` under the retry policy (see {@link retryWithOutcome}) and returns its value, or throws what the
 * outcome holds: the last error, a `CircuitOpenError`, or the caller's abort reason.
 */
export async function retry<T>(
  fn: (context: AttemptContext) => Promise<T> | T,
  policy: RetryPolicy = {},
): Promise<T> {
  const outcome = await retryWithOutcome(fn, policy);
  if (outcome.ok) return outcome.value;
  throw outcome.error;
}
