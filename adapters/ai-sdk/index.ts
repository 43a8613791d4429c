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
export { ContextOverflowError } from '../../src/errors/context-overflow-error.js';
export { StreamConsumedError } from '../../src/errors/stream-consumed-error.js';
export { StreamFailedError, type StreamErrorFields } from '../../src/errors/stream-failed-error.js';
export { StreamStalledError } from '../../src/errors/stream-stalled-error.js';
export type { AttemptMode, AttemptRecord } from '../../src/stream/attempt-record.js';
export { type Reconciliation, reconcile } from '../../src/stream/reconcile.js';
export { generateText } from './generate-text.js';
export type { GracefulCallOptions } from './guard-call-options.js';
export { type GracefulResetPart, isResetPart, RESET_KIND, type ResetDetails, removeDiscarded } from './reset-part.js';
export { GUARD_METADATA_KEY, type StreamGuardEventMap, type StreamGuardOptions, streamGuard } from './stream-guard.js';
export { streamText } from './stream-text.js';
