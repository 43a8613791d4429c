import { errorMarker, hasMarker } from '../errors/graceful-error.js';
import { systemClock } from '../util/time.js';
import { checkClock, checkDelayMs, checkFunction } from '../util/validate.js';
import { type ErrorFacts, errorFacts } from './error-facts.js';
import { mcpTransportFailure } from './mcp-transport.js';
import {
  defaultPatterns,
  networkErrorCodes,
  permanentErrorNames,
  providerCodes,
  timeoutErrorNames,
} from './patterns.js';
import { retryAfterFromFacts } from './retry-after.js';
import type {
  Classification,
  ClassifyOptions,
  ClassifyOverrides,
  ErrorKind,
  ErrorMatcher,
  ErrorPattern,
  PatternSets,
} from './types.js';

/** Default of {@link ClassifyOptions.shortRetryWindowMs}. */
const defaultShortRetryWindowMs = 60_000;

const lower = (values: readonly string[]): ReadonlySet<string> => new Set(values.map((v) => v.toLowerCase()));
const overflowCodes = lower(providerCodes.overflow);
const limitCodes = lower(providerCodes.limit);
const retryableCodes = lower(providerCodes.retryable);
const permanentCodes = lower(providerCodes.permanent);
const networkCodes = new Set(networkErrorCodes);
const abortCodes = new Set(['ABORT_ERR', 'UND_ERR_ABORTED']);
const permanentNames = new Set(permanentErrorNames);
const timeoutNames = new Set(timeoutErrorNames);
/** graceful-ai's own errors carry their verdict, whatever their cause says (reason `name:<error>`). */
const ownVerdicts = Object.entries({
  ToolTimeoutError: 'transient',
  StreamStalledError: 'transient',
  StreamInterruptedError: 'transient',
  ModelRetry: 'permanent',
  CircuitOpenError: 'permanent',
  CooldownError: 'transient',
  EmptyAnswerError: 'transient',
  ContextOverflowError: 'overflow',
} satisfies Record<string, ErrorKind>).map(([name, kind]): [marker: symbol, verdict: Rule] => [
  errorMarker(name),
  [kind, `name:${name}`],
]);

/**
 * Decides what to do about an error: `transient` (retry it), `permanent` (give up), `overflow` (the context is
 * full: compact, never retry as is) or `abort` (the caller stopped: never retried, never counted).
 *
 * Order: the caller's aborted `signal` → the per-call overrides (`classify` hook, then `treatAsPermanent`, then
 * `treatAsTransient`) → graceful-ai's own errors (ToolTimeoutError, StreamStalledError, StreamInterruptedError,
 * CooldownError and EmptyAnswerError transient; ModelRetry and CircuitOpenError permanent; ContextOverflowError overflow) → abort
 * (AbortError) → an MCP client's transport failure (`mcp:session-expired`, `mcp:not-connected`,
 * `mcp:connection-closed`: transient) → context overflow (provider code, the AI SDK's `failureReason`, text,
 * status 413) → quota/billing/usage limits (permanent, even on a 429, unless the quota is per minute/second or the
 * server asked for a retry within `shortRetryWindowMs`) → retryable provider code → HTTP status (408, 409, 425, 429
 * and 5xx except 501 transient, other 4xx permanent; 424 is left to what follows) → provider code → Node and Bun
 * network code → timeout/validation error names → `isRetryable` → retryable text → permanent text →
 * `isRetryable: false` → a 424 permanent → `options.unknown` (default `'transient'`). Structured fields are read
 * along the whole cause chain before any text; the text (messages and response bodies) is scanned only in a bounded
 * view (first 16 KiB and last 4 KiB). Never throws for any input; only a throwing `classify` hook propagates (and a
 * bad option: a `RangeError`/`TypeError` naming it).
 */
export function classifyError(error: unknown, options: ClassifyOptions = {}): Classification {
  checkDelayMs('shortRetryWindowMs', options.shortRetryWindowMs);
  checkClock('clock', options.clock);
  checkFunction('classify', options.classify);
  const facts = errorFacts(error);
  let retryAfter: number | undefined | null = null;
  const retryAfterMs = (): number | undefined => {
    if (retryAfter === null) retryAfter = retryAfterFromFacts(facts, options.clock ?? systemClock);
    return retryAfter;
  };
  const verdict = (kind: ErrorKind, reason: string): Classification => {
    if (kind === 'abort') return { kind, reason };
    const ms = retryAfterMs();
    return ms === undefined ? { kind, reason } : { kind, reason, retryAfterMs: ms };
  };

  // An aborted call is a fact about the call, not about the error: no override makes it retryable.
  if (options.signal?.aborted) return { kind: 'abort', reason: 'signal:aborted' };
  const hooked = options.classify?.(error);
  if (hooked !== undefined) return typeof hooked === 'string' ? verdict(hooked, 'override:classify') : hooked;
  const permanentMatch = matchManifest(options.treatAsPermanent, facts);
  if (permanentMatch !== undefined)
    return verdict('permanent', `override:treatAsPermanent:${permanentMatch}`);
  const transientMatch = matchManifest(options.treatAsTransient, facts);
  if (transientMatch !== undefined)
    return verdict('transient', `override:treatAsTransient:${transientMatch}`);

  try {
    const rule = classifyByRules(facts, options, retryAfterMs);
    if (rule) return verdict(rule[0], rule[1]);
  } catch {
    // A hostile object defeated a guard: fall through to the unknown verdict rather than throw.
  }
  return verdict(options.unknown ?? 'transient', 'unknown');
}

/**
 * Whether `error` means the conversation no longer fits the model's context window (provider codes and the
 * overflow patterns of OpenAI, Anthropic, Gemini, xAI, Groq, OpenRouter, Mistral, Bedrock, llama.cpp, LM Studio,
 * Ollama, vLLM, DashScope, Zhipu GLM, Baidu Qianfan, Volcengine Ark, Chinese wordings, …), i.e.
 * `classifyError(error, options).kind === 'overflow'`. Never throws for any `error`.
 */
export function isContextOverflow(error: unknown, options?: ClassifyOptions): boolean {
  return classifyError(error, options).kind === 'overflow';
}

type Rule = [ErrorKind, string];

/** A quota whose window is a minute or a second is a rate limit (Google's quota ids: `…PerMinutePerProject…`). */
const rateWindow = /per[ _-]?(?:minute|second)|\b[RT]PM\b/i;

/**
 * 408 timeout, 409 conflict (a lock; the AI SDK and OpenAI's client retry it), 425 too early, 429 and 5xx except
 * 501 (an unsupported operation gets the same answer again).
 */
const transientStatus = (status: number): boolean =>
  status === 408 || status === 409 || status === 425 || status === 429 || (status >= 500 && status !== 501);

/**
 * 424 Failed Dependency means opposite things: Bedrock's `ModelStreamErrorException` asks for a retry, the AI
 * Gateway's `failed_dependency` asks for a different request. The status does not decide; the code, the flag and the
 * text do, and a 424 that says nothing more is permanent (the AI SDK and OpenAI's client do not retry it).
 */
const ambiguousStatus = 424;

function classifyByRules(
  facts: ErrorFacts,
  options: ClassifyOptions,
  retryAfterMs: () => number | undefined,
): Rule | undefined {
  const patterns = resolvePatterns(options.patterns);
  const codes = facts.codes.map((c) => c.toLowerCase());

  for (const node of facts.nodes) {
    const own = ownVerdicts.find(([marker]) => hasMarker(node, marker));
    if (own) return own[1];
  }

  if (facts.names.includes('AbortError')) return ['abort', 'name:AbortError'];
  const abortCode = facts.codes.find((c) => abortCodes.has(c));
  if (abortCode) return ['abort', `code:${abortCode}`];
  // Before the status: an expired MCP session is a 404 that a new session answers.
  const mcp = mcpTransportFailure(facts);
  if (mcp) return ['transient', mcp.reason];

  const overflowCode = codes.find((c) => overflowCodes.has(c));
  if (overflowCode) return ['overflow', `provider:${overflowCode}`];
  const overflow = firstMatch(patterns.overflow, facts.text);
  if (overflow) return ['overflow', `pattern:${overflow}`];
  // 413: the request is too large to accept; it must shrink (compaction), asking again never helps.
  if (facts.status === 413) return ['overflow', 'status:413'];

  const limitCode = codes.find((c) => limitCodes.has(c));
  if (limitCode) return ['permanent', `provider:${limitCode}`];
  if (facts.status === 402) return ['permanent', 'status:402'];
  const limit = firstMatch(patterns.limit, facts.text);
  // Gemini words a per-minute free-tier limit like a spent balance; a per-minute/second window or a short retry
  // hint means it is a rate limit.
  if (limit && !rateWindow.test(facts.text)) {
    const ms = retryAfterMs();
    const shortWindow = options.shortRetryWindowMs ?? defaultShortRetryWindowMs;
    if (ms === undefined || ms > shortWindow) return ['permanent', `pattern:${limit}`];
  }

  // The most specific provider code decides: codes are listed `code` before `type` (OpenAI's in-band
  // `{ type: 'server_error', code: 'invalid_api_key' }` is a revoked key, not an outage).
  const providerCode = codes.find((c) => retryableCodes.has(c) || permanentCodes.has(c));
  const retryableCode =
    providerCode !== undefined && retryableCodes.has(providerCode) ? providerCode : undefined;
  const { status } = facts;
  if (status !== undefined && status !== ambiguousStatus) {
    if (transientStatus(status)) return ['transient', `status:${status}`];
    // A provider's retryable code wins over a 4xx status (Bedrock's 400 ServiceQuotaExceededException, Groq's 498).
    if (retryableCode) return ['transient', `provider:${retryableCode}`];
    return ['permanent', `status:${status}`];
  }
  if (providerCode) return [retryableCode ? 'transient' : 'permanent', `provider:${providerCode}`];
  const networkCode = facts.codes.find((c) => networkCodes.has(c));
  if (networkCode) return ['transient', `code:${networkCode}`];
  const timeoutName = facts.names.find((n) => timeoutNames.has(n));
  if (timeoutName) return ['transient', `name:${timeoutName}`];
  const permanentName = facts.names.find((n) => permanentNames.has(n));
  if (permanentName) return ['permanent', `name:${permanentName}`];
  if (facts.isRetryable === true) return ['transient', 'retryable:true'];

  const retryable = firstMatch(patterns.retryable, facts.text);
  if (retryable) return ['transient', `pattern:${retryable}`];
  const permanent = firstMatch(patterns.permanent, facts.text);
  if (permanent) return ['permanent', `pattern:${permanent}`];
  if (facts.isRetryable === false) return ['permanent', 'retryable:false'];
  if (status === ambiguousStatus) return ['permanent', `status:${status}`];
  return undefined;
}

function firstMatch(patterns: readonly ErrorPattern[], text: string): string | undefined {
  for (const { id, pattern } of patterns) {
    if (pattern.global || pattern.sticky) pattern.lastIndex = 0;
    if (pattern.test(text)) return id;
  }
  return undefined;
}

/** The matcher that matches: a number the status, a string a code or name (any case), a RegExp the text. */
function matchManifest(matchers: readonly ErrorMatcher[] | undefined, facts: ErrorFacts): string | undefined {
  if (!matchers?.length) return undefined;
  for (const matcher of matchers) {
    if (typeof matcher === 'number') {
      if (facts.status === matcher) return String(matcher);
    } else if (typeof matcher === 'string') {
      const wanted = matcher.toLowerCase();
      if (
        facts.codes.some((c) => c.toLowerCase() === wanted) ||
        facts.names.some((n) => n.toLowerCase() === wanted)
      )
        return matcher;
    } else if (firstMatch([{ id: String(matcher), pattern: matcher }], facts.text)) {
      return String(matcher);
    }
  }
  return undefined;
}

const resolved = new WeakMap<NonNullable<ClassifyOverrides['patterns']>, PatternSets>();

/** The default sets with the caller's additions (checked first) or replacements applied; cached per object. */
export function resolvePatterns(overrides: ClassifyOverrides['patterns']): PatternSets {
  if (!overrides) return defaultPatterns;
  let sets = resolved.get(overrides);
  if (!sets) {
    const one = (key: keyof PatternSets): readonly ErrorPattern[] => {
      const change = overrides[key];
      if (change === undefined) return defaultPatterns[key];
      return typeof change === 'function'
        ? change(defaultPatterns[key])
        : [...change, ...defaultPatterns[key]];
    };
    sets = {
      overflow: one('overflow'),
      limit: one('limit'),
      retryable: one('retryable'),
      permanent: one('permanent'),
    };
    resolved.set(overrides, sets);
  }
  return sets;
}
