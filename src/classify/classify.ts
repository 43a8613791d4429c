import { errorMarker, hasMarker } from '../errors/graceful-error.js';
import { systemClock } from '../util/time.js';
import { checkClock, checkDelayMs, checkFunction } from '../util/validate.js';
import { type ErrorFacts, errorFacts } from './error-facts.js';
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
/** graceful-ai's own errors carry their verdict, whatever their cause says. */
const ownVerdicts: ReadonlyArray<[marker: symbol, kind: ErrorKind, reason: string]> = [
  [errorMarker('ToolTimeoutError'), 'transient', 'name:ToolTimeoutError'],
  [errorMarker('StreamStalledError'), 'transient', 'name:StreamStalledError'],
  [errorMarker('ModelRetry'), 'permanent', 'name:ModelRetry'],
  [errorMarker('CircuitOpenError'), 'permanent', 'name:CircuitOpenError'],
  [errorMarker('CooldownError'), 'transient', 'name:CooldownError'],
  [errorMarker('ContextOverflowError'), 'overflow', 'name:ContextOverflowError'],
];

/**
 * Decides what to do about an error: `transient` (retry it), `permanent` (give up), `overflow` (the context is
 * full: compact, never retry as is) or `abort` (the caller stopped: never retried, never counted).
 *
 * Order: the caller's aborted `signal` → the per-call overrides (`classify` hook, then `treatAsPermanent`, then
 * `treatAsTransient`) → graceful-ai's own errors (ToolTimeoutError, StreamStalledError and CooldownError transient; ModelRetry and CircuitOpenError
 * permanent; ContextOverflowError overflow) → abort (AbortError) → context overflow → quota/billing/usage limits
 * (permanent, even on a 429, unless the server asked for a retry within `shortRetryWindowMs`) → HTTP status
 * (408, 429 and 5xx except 501 transient, other 4xx permanent) → provider code → Node network code →
 * timeout/validation error names → `isRetryable` → retryable text →
 * permanent text → `options.unknown` (default `'transient'`). Structured fields are read along the whole cause
 * chain before any text; the text (messages and response bodies) is scanned only in a bounded view
 * (first 16 KiB and last 4 KiB). Never throws for any input; only a throwing `classify` hook propagates (and a
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
 * Ollama, vLLM, …), i.e. `classifyError(error, options).kind === 'overflow'`.
 */
export function isContextOverflow(error: unknown, options?: ClassifyOptions): boolean {
  return classifyError(error, options).kind === 'overflow';
}

type Rule = [ErrorKind, string];

function classifyByRules(
  facts: ErrorFacts,
  options: ClassifyOptions,
  retryAfterMs: () => number | undefined,
): Rule | undefined {
  const patterns = resolvePatterns(options.patterns);
  const codes = facts.codes.map((c) => c.toLowerCase());

  for (const node of facts.nodes) {
    const own = ownVerdicts.find(([marker]) => hasMarker(node, marker));
    if (own) return [own[1], own[2]];
  }

  if (facts.names.includes('AbortError')) return ['abort', 'name:AbortError'];
  const abortCode = facts.codes.find((c) => abortCodes.has(c));
  if (abortCode) return ['abort', `code:${abortCode}`];

  const overflowCode = codes.find((c) => overflowCodes.has(c));
  if (overflowCode) return ['overflow', `provider:${overflowCode}`];
  const overflow = firstMatch(patterns.overflow, facts.text);
  if (overflow) return ['overflow', `pattern:${overflow}`];

  const limitCode = codes.find((c) => limitCodes.has(c));
  if (limitCode) return ['permanent', `provider:${limitCode}`];
  if (facts.status === 402) return ['permanent', 'status:402'];
  const limit = firstMatch(patterns.limit, facts.text);
  if (limit) {
    // Gemini says "quota exceeded" for per-minute limits too; a short retry window means it is a rate limit.
    const ms = retryAfterMs();
    const shortWindow = options.shortRetryWindowMs ?? defaultShortRetryWindowMs;
    if (ms === undefined || ms > shortWindow) return ['permanent', `pattern:${limit}`];
  }

  const { status } = facts;
  if (status !== undefined) {
    // 501 Not Implemented is an unsupported operation: asking again gets the same answer.
    const transient = status === 408 || status === 429 || (status >= 500 && status !== 501);
    return [transient ? 'transient' : 'permanent', `status:${status}`];
  }
  const retryableCode = codes.find((c) => retryableCodes.has(c));
  if (retryableCode) return ['transient', `provider:${retryableCode}`];
  const permanentCode = codes.find((c) => permanentCodes.has(c));
  if (permanentCode) return ['permanent', `provider:${permanentCode}`];
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
