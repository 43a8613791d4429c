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
