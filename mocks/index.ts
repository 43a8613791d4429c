/**
 * `graceful-ai/testing`: a fault kit for tests that speaks the OpenAI (chat, responses), Anthropic Messages and
 * Gemini wires: scripts and the loopback server. Its MSW 3 handlers are `graceful-ai/testing/msw`, so that this
 * entry needs no msw, in its code or its types. See docs/testing.md.
 */
export type { NetworkFailure } from './network-failure.js';
export type { MockOptions } from './player.js';
export {
  assistantPrefill,
  lastToolResults,
  lastUserText,
  offeredToolNames,
  type ToolResultSeen,
} from './request.js';
export { fault, reply, streamFault } from './script.js';
export {
  type MockServer,
  type MockServerOptions,
  startMockServer,
} from './server.js';
export type {
  AnswerOptions,
  Api,
  ApiError,
  ApiErrorStep,
  FinishReason,
  HttpStep,
  InBandErrorFormat,
  LatencyOptions,
  NetworkErrorStep,
  RateLimitBudget,
  RateLimitHeaderOptions,
  RateLimitWording,
  Reasoning,
  RecordedRequest,
  ResponseFailedOptions,
  ResponseFailureCode,
  Script,
  ScriptContext,
  ScriptFunction,
  Step,
  StreamFault,
  TextStep,
  ToolCallSpec,
  ToolCallsStep,
  Usage,
} from './vocabulary.js';
