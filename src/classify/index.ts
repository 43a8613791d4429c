/**
 * `graceful-ai/classify`: the one classifier (abort | overflow | permanent | transient), its pattern data and
 * retry-after parsing. The main entry re-exports `classifyError` and `isContextOverflow`. See docs/classification.md.
 */
export { classifyError, isContextOverflow } from './classify.js';
export { type FailureKind, failureKindOf } from './failure-kind.js';
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
} from './patterns.js';
export { parseRetryAfter, type RetryAfterOptions } from './retry-after.js';
export type {
  Classification,
  ClassifyOptions,
  ClassifyOverrides,
  ErrorKind,
  ErrorMatcher,
  ErrorPattern,
  PatternSetOverride,
  PatternSets,
} from './types.js';
