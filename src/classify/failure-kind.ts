import { resolvePatterns } from './classify.js';
import { providerCodes } from './patterns.js';
import type { Classification, ClassifyOverrides } from './types.js';

/**
 * What a failure says about the service, for a caller that can wait, switch model or credentials, or give up:
 * `availability` (any transient failure: 5xx, overloaded, rate limits, network, timeouts, a cut stream, an open
 * circuit), `auth` (a key refused), `quota` (quota, billing or usage limits), `overflow` (the context no longer fits),
 * `request` (any other permanent failure: the request itself is wrong) or `abort` (the caller stopped).
 */
export type FailureKind = 'availability' | 'auth' | 'quota' | 'overflow' | 'request' | 'abort';

const authCodes = [
  'invalid_api_key',
  'authentication_error',
  'permission_error',
  'unauthenticated',
  'permission_denied',
];
/** A key the SDK could not load, a gateway that refused it (`ai` re-wraps that as a bare named `Error`). */
const authNames = ['AI_LoadAPIKeyError', 'GatewayAuthenticationError'];

/**
 * The kind of a classified failure. `patterns` are the caller's pattern overrides (the limit patterns it classified
 * with), so that its own limit wordings count as `quota` too.
 */
export function failureKindOf(
  patterns: ClassifyOverrides['patterns'],
): (classification: Classification) => FailureKind {
  const quota = new Set([
    'status:402',
    ...providerCodes.limit.map((code) => `provider:${code.toLowerCase()}`),
    ...resolvePatterns(patterns).limit.map((pattern) => `pattern:${pattern.id}`),
  ]);
  const auth = new Set([
    'status:401',
    'status:403',
    'pattern:auth',
    ...authCodes.map((code) => `provider:${code}`),
    ...authNames.map((name) => `name:${name}`),
  ]);
  return ({ kind, reason }) => {
    if (kind !== 'permanent') return kind === 'transient' ? 'availability' : kind;
    if (quota.has(reason)) return 'quota';
    return auth.has(reason) ? 'auth' : 'request';
  };
}

/**
 * Recognises the classifier's verdicts for quota, billing and usage limits — the permanent errors an
 * `onUsageLimit` hook may fix by switching model or credentials: HTTP 402, a limit provider code, or a match of
 * the (possibly overridden) limit patterns.
 */
export function usageLimitMatcher(
  patterns: ClassifyOverrides['patterns'],
): (classification: Classification) => boolean {
  const kindOf = failureKindOf(patterns);
  return (classification) => kindOf(classification) === 'quota';
}
