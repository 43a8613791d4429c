/**
 * `graceful-ai/policy`: the resilience building blocks under `gracefulTool`, usable on any async function: retry
 * with backoff and one retry decision, circuit breaker and its store, timeout, turn deadline, tool plans, the
 * composed tool policy. See docs/resilience.md.
 */

export { CooldownError } from '../errors/cooldown-error.js';
export type { Clock, Random, Sleep } from '../util/time.js';
export { maxTimerMs } from '../util/validate.js';
export { type BackoffOptions, backoffDelay } from './backoff.js';
export { type BreakerState, type BreakerStore, InMemoryBreakerStore } from './breaker-store.js';
export {
  type BreakerOutcome,
  type BreakerPermit,
  CircuitBreaker,
  type CircuitBreakerOptions,
  defaultBreakerOptions,
} from './circuit-breaker.js';
export { type CooldownWait, type Coordination, toolCooldownKey } from './coordination.js';
export {
  type AttemptContext,
  defaultRetryOptions,
  type PolicyRuntime,
  type ResolvedRetryOptions,
  type RetryOptions,
  type RetryOutcome,
  type RetryPolicy,
  retry,
  retryWithOutcome,
} from './retry.js';
export { type ResolvedRetryConfig, type RetryConfig, resolveRetryConfig } from './retry-config.js';
export { decideRetry, type RetryDecision, type RetryDecisionInput } from './retry-decision.js';
export { notExecutedErrorCodes, notExecutedStatuses, provesNotExecuted } from './safe-retry.js';
export { type CoordinationOptions, InMemoryCoordination, SharedCooldowns } from './shared-cooldowns.js';
export { abortableSleep } from './sleep.js';
export { type TimeoutOptions, withTimeout } from './timeout.js';
export {
  type PlanResult,
  type PlanStep,
  type PlanStepResult,
  type PlanTool,
  runToolPlan,
  type StepOutcome,
  type ToolPlanOptions,
} from './tool-plan.js';
export {
  createToolPolicy,
  type PolicyCall,
  type PolicyFallback,
  type ToolPolicy,
  type ToolPolicyOptions,
  type ToolPolicyOutcome,
} from './tool-policy.js';
export {
  defaultTurnTimeoutMs,
  TurnDeadline,
  type TurnDeadlineOptions,
  type TurnDeadlineReport,
} from './turn-deadline.js';
