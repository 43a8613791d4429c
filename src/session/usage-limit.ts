import { resolvePatterns } from '../classify/classify.js';
import { providerCodes } from '../classify/patterns.js';
import type { Classification, ClassifyOverrides } from '../classify/types.js';

/**
 * Recognises the classifier's verdicts for quota, billing and usage limits — the permanent errors an
 * `onUsageLimit` hook may fix by switching model or credentials: HTTP 402, a limit provider code, or a match of
 * the (possibly overridden) limit patterns.
 */
export function usageLimitMatcher(
  patterns: ClassifyOverrides['patterns'],
): (classification: Classification) => boolean {
  const reasons = new Set([
    'status:402',
    ...providerCodes.limit.map((code) => `provider:${code.toLowerCase()}`),
    ...resolvePatterns(patterns).limit.map((pattern) => `pattern:${pattern.id}`),
  ]);
  return (classification) => classification.kind === 'permanent' && reasons.has(classification.reason);
}
