/**
 * graceful-ai public entry point (package `.`): what an agent author needs. Building blocks live in subpaths:
 * `graceful-ai/policy`, `graceful-ai/classify`, `graceful-ai/observe`, `graceful-ai/session`, plus
 * `graceful-ai/testing` and `graceful-ai/rpc`. No name here shares a name with an export of `ai` except the
 * drop-ins `streamText`, `generateText`, `ToolLoopAgent`, `createAgentUIStream`, `createAgentUIStreamResponse`,
 * `pipeAgentUIStreamToResponse` and `toUIMessageStream` (a test enforces it).
 */
export { classifyError, isContextOverflow } from '../../src/classify/classify.js';
export type { Classification, ClassifyOverrides, ErrorKind } from '../../src/classify/types.js';
export {
  AggregateToolError,
  type AggregateToolErrorOptions,
  type ToolFailure,
} from '../../src/errors/aggregate-tool-error.js';
export { CircuitOpenError, type CircuitOpenErrorOptions } from '../../src/errors/circuit-open-error.js';
export { ContextOverflowError } from '../../src/errors/context-overflow-error.js';
export { EmptyAnswerError, type EmptyAnswerErrorOptions } from '../../src/errors/empty-answer-error.js';
export {
  type FailedModel,
  FailoverError,
  type FailoverErrorOptions,
  type ModelRef,
} from '../../src/errors/failover-error.js';
export { GracefulError } from '../../src/errors/graceful-error.js';
export {
  InvalidToolPlanError,
  type InvalidToolPlanErrorOptions,
} from '../../src/errors/invalid-tool-plan-error.js';
export { McpToolError, type McpToolErrorOptions } from '../../src/errors/mcp-tool-error.js';
export { ModelRetry, type ModelRetryOptions } from '../../src/errors/model-retry.js';
export {
  RepeatedToolCallError,
  type RepeatedToolCallErrorOptions,
} from '../../src/errors/repeated-tool-call-error.js';
export {
  RetryCancelledError,
  type RetryCancelledErrorOptions,
  RetryDelayTooLongError,
  type RetryDelayTooLongErrorOptions,
  RetryExhaustedError,
  type RetryExhaustedErrorOptions,
  SessionBusyError,
  SessionFileCorruptError,
  type SessionFileCorruptErrorOptions,
  SessionLockedError,
  type SessionLockedErrorOptions,
  SessionStoreClosedError,
  type SessionStoreClosedErrorOptions,
} from '../../src/errors/session-errors.js';
export {
  StreamConsumedError,
  type StreamConsumedErrorOptions,
} from '../../src/errors/stream-consumed-error.js';
export { type StreamErrorFields, StreamFailedError } from '../../src/errors/stream-failed-error.js';
export {
  type StreamEnding,
  StreamInterruptedError,
  type StreamInterruptedErrorOptions,
} from '../../src/errors/stream-interrupted-error.js';
export {
  StreamStalledError,
  type StreamStalledErrorOptions,
} from '../../src/errors/stream-stalled-error.js';
export { ToolTimeoutError } from '../../src/errors/tool-timeout-error.js';
export { TurnDeadlineError, type TurnDeadlinePhase } from '../../src/errors/turn-deadline-error.js';
export { UnexpectedModelBehavior } from '../../src/errors/unexpected-model-behavior.js';
export {
  UnfinishedToolCallError,
  type UnfinishedToolCallErrorOptions,
} from '../../src/errors/unfinished-tool-call-error.js';
export {
  formatToolError,
  type ToolErrorContext,
  type ToolErrorGuidance,
} from '../../src/model-text/format-for-model.js';
export type { EventSink } from '../../src/observe/emitter.js';
export { getToolMetrics, resetToolMetrics, type ToolMetricsSnapshot } from '../../src/observe/metrics.js';
export { onToolEvent, type ToolEvent, type ToolEventMap } from '../../src/observe/tool-events.js';
export { type TraceEntry, TurnTrace, type TurnTraceOptions } from '../../src/observe/trace.js';
export type { BackoffOptions } from '../../src/policy/backoff.js';
export type { BreakerStore } from '../../src/policy/breaker-store.js';
export type { CircuitBreakerOptions } from '../../src/policy/circuit-breaker.js';
export type { Coordination } from '../../src/policy/coordination.js';
export type { PolicyRuntime, RetryOptions } from '../../src/policy/retry.js';
export type { ResolvedRetryConfig, RetryConfig } from '../../src/policy/retry-config.js';
export {
  type PlanResult,
  type PlanStep,
  type PlanStepResult,
  type PlanTool,
  runToolPlan,
  type ToolPlanOptions,
} from '../../src/policy/tool-plan.js';
export type { ToolPolicyOptions } from '../../src/policy/tool-policy.js';
export type { TurnDeadlineReport } from '../../src/policy/turn-deadline.js';
export { type RedactOption, redactSecrets } from '../../src/redact/redact.js';
export type { SessionEvent, SessionEventMap, SessionListener } from '../../src/session/events.js';
export { JsonlSessionStore, type JsonlSessionStoreOptions } from '../../src/session/jsonl-store.js';
export type { RetrySettings, SessionSettings, SessionSettingsInput } from '../../src/session/settings.js';
export { InMemorySessionStore, type SessionStore } from '../../src/session/store.js';
export type { AttemptMode, AttemptRecord, RecoveryKind } from '../../src/stream/attempt-record.js';
export {
  type GracefulResetPart,
  isResetPart,
  RESET_KIND,
  type ResetDetails,
  removeDiscarded,
} from '../../src/stream/reset-part.js';
export type { ToolHistoryRepair } from '../../src/stream/tool-history-repair.js';
export type { Logger } from '../../src/util/logger.js';
export type { Clock, Random, Sleep } from '../../src/util/time.js';
export { type GracefulToolLoopAgentSettings, ToolLoopAgent } from './agent/tool-loop-agent.js';
export { defaults } from './defaults.js';
export { type GracefulGenerateTextOptions, generateText } from './drop-in/generate-text.js';
export type { GracefulCallOptions } from './drop-in/guard-call-options.js';
export { type GracefulStreamTextOptions, streamText } from './drop-in/stream-text.js';
export {
  AgentSession,
  type AgentSessionCallOptions,
  type AgentSessionOptions,
  type AgentSessionOwnedOption,
  type TurnResult,
  type UsageLimitAnswer,
} from './session/agent-session.js';
export {
  GUARD_METADATA_KEY,
  type StreamGuardEvent,
  type StreamGuardEventMap,
  type StreamGuardOptions,
} from './stream-guard/options.js';
export type { ContinuationOption, ContinuationStyle } from './stream-guard/recovery/continuation.js';
export type { RecoveryMode } from './stream-guard/recovery/recovery.js';
export { streamGuard } from './stream-guard/stream-guard.js';
export { type GracefulRepairOptions, gracefulRepairToolCall } from './tools/graceful-repair-tool-call.js';
export {
  type GracefulToolOptions,
  getRetryInfo,
  gracefulTool,
  gracefulTools,
  type RetryInfo,
} from './tools/graceful-tool.js';
export { type FallbackOption, type ToolResilienceOptions, traceTurn } from './tools/tool-resilience.js';
export {
  type TurnDeadlineCallOptions,
  type TurnDeadlineRun,
  type TurnDeadlineSettings,
  withTurnDeadline,
} from './tools/turn-deadline.js';
export {
  createAgentUIStream,
  createAgentUIStreamResponse,
  pipeAgentUIStreamToResponse,
} from './ui-stream/agent-ui-stream.js';
export { toUIMessageStream } from './ui-stream/ui-message-stream.js';
