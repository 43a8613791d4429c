/**
 * `graceful-ai/testing`: an OpenAI-compatible fault kit for tests (MSW 3 handlers or a loopback server).
 * See docs/testing.md.
 */
export { type OpenAIHandlers, type OpenAIHandlersOptions, openaiHandlers } from './msw.js';
export type { NetworkFailure } from './network-failure.js';
export type {
  RateLimitBudget,
  RateLimitHeaderOptions,
  RateLimitWording,
  ResponseFailedOptions,
  ResponseFailureCode,
} from './openai-errors.js';
export type { MockOptions } from './player.js';
export { lastToolResults, lastUserText, offeredToolNames, type ToolResultSeen } from './request.js';
export {
  type AnswerOptions,
  type Api,
  type FinishReason,
  fault,
  type HttpStep,
  type InBandErrorFormat,
  type LatencyOptions,
  type NetworkErrorStep,
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
export { type MockOpenAIOptions, type MockOpenAIServer, startMockOpenAI } from './server.js';
