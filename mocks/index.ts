/**
 * `graceful-ai/testing`: a fault kit for tests that speaks the OpenAI (chat, responses), Anthropic Messages and
 * Gemini wires: scripts and the loopback server. Its MSW 3 handlers are `graceful-ai/testing/msw`, so that this
 * entry needs no msw, in its code or its types. See docs/testing.md.
 */
export type { NetworkFailure } from './network-failure.js';
export type {
  RateLimitBudget,
  RateLimitHeaderOptions,
  RateLimitWording,
  ResponseFailedOptions,
  ResponseFailureCode,
} from './openai-errors.js';
export type { MockOptions } from './player.js';
export {
  assistantPrefill,
  lastToolResults,
  lastUserText,
  offeredToolNames,
  type ToolResultSeen,
} from './request.js';
export {
  type AnswerOptions,
  type Api,
  type ApiError,
  type ApiErrorStep,
  type FinishReason,
  fault,
  type HttpStep,
  type InBandErrorFormat,
  type LatencyOptions,
  type NetworkErrorStep,
  type Reasoning,
  type RecordedRequest,
  reply,
  type Script,
  type ScriptContext,
  type ScriptFunction,
  type Step,
  type StreamFault,
  streamFault,
  type TextStep,
  type ToolCallSpec,
  type ToolCallsStep,
  type Usage,
} from './script.js';
export {
  type MockOpenAIOptions,
  type MockOpenAIServer,
  type MockServer,
  type MockServerOptions,
  startMockOpenAI,
  startMockServer,
} from './server.js';
