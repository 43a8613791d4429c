// graceful-ai public entry point (package `.`). Shared file: add exports with small insertions only.
export { classifyError, isContextOverflow } from '../../src/classify/classify.js';
export {
  defaultPatterns,
  limitPatterns,
  networkErrorCodes,
  overflowPatterns,
  permanentErrorNames,
  permanentPatterns,
  providerCodes,
  retryablePatterns,
  timeoutErrorNames,
} from '../../src/classify/patterns.js';
export { parseRetryAfter, type RetryAfterOptions } from '../../src/classify/retry-after.js';
export type {
  Classification,
  ClassifyOptions,
  ClassifyOverrides,
  ErrorKind,
  ErrorMatcher,
  ErrorPattern,
  PatternSetOverride,
  PatternSets,
} from '../../src/classify/types.js';
export { AggregateToolError, type ToolFailure } from '../../src/errors/aggregate-tool-error.js';
export { CircuitOpenError } from '../../src/errors/circuit-open-error.js';
export { ContextOverflowError } from '../../src/errors/context-overflow-error.js';
export {
  defaultMaxErrorChars,
  formatToolError,
  type ToolErrorContext,
  type ToolErrorGuidance,
} from '../../src/errors/format-for-model.js';
export { InvalidToolPlanError } from '../../src/errors/invalid-tool-plan-error.js';
export { ModelRetry } from '../../src/errors/model-retry.js';
export { type RedactOption, redactSecrets } from '../../src/errors/redact.js';
export {
  RetryCancelledError,
  RetryDelayTooLongError,
  RetryExhaustedError,
  SessionBusyError,
  SessionFileCorruptError,
  SessionLockedError,
  SessionStoreClosedError,
} from '../../src/errors/session-errors.js';
export { StreamConsumedError } from '../../src/errors/stream-consumed-error.js';
export { type StreamErrorFields, StreamFailedError } from '../../src/errors/stream-failed-error.js';
export { StreamStalledError } from '../../src/errors/stream-stalled-error.js';
export { ToolTimeoutError } from '../../src/errors/tool-timeout-error.js';
export { TurnDeadlineError, type TurnDeadlinePhase } from '../../src/errors/turn-deadline-error.js';
export { UnexpectedModelBehavior } from '../../src/errors/unexpected-model-behavior.js';
export {
  getToolMetrics,
  resetToolMetrics,
  ToolMetrics,
  type ToolMetricsSnapshot,
} from '../../src/observe/metrics.js';
export {
  type CircuitState,
  type FailureDecision,
  onToolEvent,
  type ToolEvent,
  type ToolEventMap,
  toolEvents,
} from '../../src/observe/tool-events.js';
export { type TelemetryOptions, ToolTelemetry } from '../../src/observe/tool-telemetry.js';
export { type TraceEntry, TurnTrace, type TurnTraceOptions } from '../../src/observe/trace.js';
export {
  type BreakerState,
  type BreakerStore,
  InMemoryBreakerStore,
} from '../../src/policy/breaker-store.js';
export {
  type BreakerOutcome,
  type BreakerPermit,
  CircuitBreaker,
  type CircuitBreakerOptions,
} from '../../src/policy/circuit-breaker.js';
export {
  type AttemptContext,
  defaultRetryOptions,
  type PolicyRuntime,
  type RetryOptions,
  type RetryOutcome,
  type RetryPolicy,
  retry,
  retryWithOutcome,
} from '../../src/policy/retry.js';
export { type TimeoutOptions, withTimeout } from '../../src/policy/timeout.js';
export {
  type PlanResult,
  type PlanStep,
  type PlanTool,
  runToolPlan,
  type StepOutcome,
  type StepResult,
  type ToolPlanOptions,
} from '../../src/policy/tool-plan.js';
export {
  createToolPolicy,
  type PolicyCall,
  type PolicyFallback,
  type ToolPolicy,
  type ToolPolicyOptions,
  type ToolPolicyOutcome,
} from '../../src/policy/tool-policy.js';
export {
  TurnDeadline,
  type TurnDeadlineOptions,
  type TurnDeadlineReport,
} from '../../src/policy/turn-deadline.js';
export { type CompactionContext, type CompactStrategy, trimContext } from '../../src/session/compaction.js';
export { contextFromEntries, type SessionEntry } from '../../src/session/entries.js';
export type {
  SerializedError,
  SessionEvent,
  SessionEventMap,
  SessionEventType,
  SessionListener,
} from '../../src/session/events.js';
export { JsonlSessionStore, type JsonlSessionStoreOptions } from '../../src/session/jsonl-store.js';
export type { SessionMessage } from '../../src/session/message.js';
export {
  defaultRetrySettings,
  type RetrySettings,
  type SessionSettings,
  type SessionSettingsInput,
} from '../../src/session/settings.js';
export { InMemorySessionStore, type SessionStore } from '../../src/session/store.js';
export type { AttemptMode, AttemptRecord } from '../../src/stream/attempt-record.js';
export { type Reconciliation, reconcile } from '../../src/stream/reconcile.js';
export {
  AgentSession,
  type AgentSessionOptions,
  type TurnResult,
  type UsageLimitAnswer,
} from './agent-session.js';
export { generateText } from './generate-text.js';
export { type GracefulRepairOptions, gracefulRepairToolCall } from './graceful-repair-tool-call.js';
export {
  type GracefulToolOptions,
  getRetryInfo,
  gracefulTool,
  gracefulTools,
  type RetryInfo,
} from './graceful-tool.js';
export type { GracefulCallOptions } from './guard-call-options.js';
export {
  type GracefulResetPart,
  isResetPart,
  RESET_KIND,
  type ResetDetails,
  removeDiscarded,
} from './reset-part.js';
export {
  GUARD_METADATA_KEY,
  type StreamGuardEventMap,
  type StreamGuardOptions,
  streamGuard,
} from './stream-guard.js';
export { streamText } from './stream-text.js';
export { type FallbackOption, type ToolResilienceOptions, traceTurn } from './tool-resilience.js';
export { type TurnDeadlineRun, type TurnDeadlineSettings, withTurnDeadline } from './turn-deadline.js';
