/**
 * The rules a script step must follow, checked by every builder and again when a transport gets a script.
 * A number outside its rule throws a `RangeError`, anything else that is wrong a `TypeError` (see `checks.ts`);
 * the message names where the step was given (a builder, or `mock script step N (kind)`) and the field.
 */
import { checkFields, type Fields, rule } from './checks.js';
import { NETWORK_FAILURES } from './network-failure.js';
import { checkRateLimit } from './openai-errors.js';
import type { ApiErrorStep, Step, StreamFault, ToolCallSpec } from './vocabulary.js';

const KINDS = new Set(['text', 'toolCalls', 'http', 'networkError', 'apiError']);
const FINISH_REASONS = new Set<string>(['stop', 'length', 'tool_calls', 'content_filter']);
const FAULT_KINDS = new Set(['cut', 'stall', 'endEarly', 'error', 'garbled']);
const ERROR_FORMATS = new Set<string>(['openai', 'response.failed', 'anthropic', 'gemini']);
const API_ERRORS = new Set<string>([
  'rateLimit',
  'insufficientQuota',
  'overloaded',
  'serverError',
  'unauthorized',
  'forbidden',
  'notFound',
  'contextLengthExceeded',
]);

/** The numeric fields of each step and fault, with their rules (see `checks.ts`). */
const LATENCY_FIELDS: Fields = [['delayMs', rule.delayMs]];
const ANSWER_FIELDS: Fields = [
  ...LATENCY_FIELDS,
  ['frameDelayMs', rule.delayMs],
  ['chunkChars', rule.size],
  ['usage', rule.object],
  ['usage.inputTokens', rule.count],
  ['usage.outputTokens', rule.count],
];
const HTTP_FIELDS: Fields = [['status', rule.status], ...LATENCY_FIELDS];
const AT_FIELDS: Fields = [['afterChars', rule.count]];
const CUT_FIELDS: Fields = [...AT_FIELDS, ['afterFrames', rule.count]];
/** The fields of each provider error besides `delayMs` (a rate limit's are checked by `checkRateLimit`). */
const API_ERROR_FIELDS: Partial<Record<ApiErrorStep['error'], Fields>> = {
  serverError: [['status', rule.status]],
  contextLengthExceeded: [
    ['maxTokens', rule.count],
    ['requestedTokens', rule.count],
  ],
};
/** The text fields of each provider error. */
const API_ERROR_TEXTS: Partial<Record<ApiErrorStep['error'], string[]>> = {
  notFound: ['model'],
};

const isText = (value: unknown): value is string => typeof value === 'string';

type Fail = (field: string, problem: string) => never;

const failAt =
  (where: string): Fail =>
  (field, problem) => {
    throw new TypeError(`${where}: ${field} ${problem}`);
  };

/** Checks a stream fault built by a `streamFault` builder named `where`. */
export function checkStreamFault(f: unknown, where: string): void {
  checkFault(f, where, '');
}

/** Checks a stream fault given at `where`; `prefix` is `fault.` inside a step, empty in a `streamFault` builder. */
function checkFault(f: unknown, where: string, prefix: string): void {
  if (f === undefined) return;
  const fail = failAt(where);
  if (typeof f !== 'object' || f === null || !FAULT_KINDS.has((f as { kind?: string }).kind ?? '')) {
    fail(`${prefix}kind`, `must be one of ${[...FAULT_KINDS].join(', ')}`);
  }
  const fault = f as StreamFault;
  checkFields(where, fault, fault.kind === 'cut' ? CUT_FIELDS : AT_FIELDS, prefix);
  if (fault.kind === 'cut') {
    if ((fault.afterChars === undefined) === (fault.afterFrames === undefined)) {
      fail(prefix ? 'fault' : 'options', 'a cut needs exactly one of afterChars or afterFrames');
    }
  } else if (fault.afterChars === undefined) {
    fail(`${prefix}afterChars`, 'is required');
  }
  if (fault.kind === 'error') checkErrorFault(fault, prefix, fail);
  if (fault.kind === 'endEarly' && fault.finish !== undefined && fault.finish !== 'other') {
    fail(`${prefix}finish`, `must be 'other' or left out, got ${String(fault.finish)}`);
  }
}

/** The fields of an in-band error fault. */
function checkErrorFault(fault: Extract<StreamFault, { kind: 'error' }>, prefix: string, fail: Fail): void {
  if (fault.format !== undefined) {
    if (!ERROR_FORMATS.has(fault.format)) {
      fail(`${prefix}format`, `must be one of ${[...ERROR_FORMATS].join(', ')}, got ${String(fault.format)}`);
    }
  }
  for (const name of ['message', 'code', 'type'] as const) {
    if (fault[name] !== undefined && !isText(fault[name])) fail(`${prefix}${name}`, 'must be a string');
  }
  if (fault.param !== undefined && fault.param !== null && !isText(fault.param)) {
    fail(`${prefix}param`, 'must be a string or null');
  }
  if (fault.errorEvent !== undefined && typeof fault.errorEvent !== 'boolean') {
    fail(`${prefix}errorEvent`, 'must be a boolean');
  }
}

function isJsonValue(value: unknown, seen = new Set<object>()): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object' || seen.has(value)) return false;
  const proto = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return false;
  seen.add(value);
  const ok = Object.values(value).every((v) => isJsonValue(v, seen));
  seen.delete(value);
  return ok;
}

function validateCall(call: unknown, i: number, fail: Fail): void {
  const at = `calls[${i}]`;
  if (typeof call !== 'object' || call === null) fail(at, 'must be an object');
  const c = call as ToolCallSpec;
  if (typeof c.name !== 'string' || c.name === '') fail(`${at}.name`, 'must be a non-empty string');
  if (c.id !== undefined && (typeof c.id !== 'string' || c.id === ''))
    fail(`${at}.id`, 'must be a non-empty string');
  if (c.rawArgs !== undefined) {
    if (typeof c.rawArgs !== 'string') fail(`${at}.rawArgs`, 'must be a string');
    if (c.args !== undefined) fail(`${at}`, 'give args or rawArgs, not both');
    return;
  }
  if (typeof c.args === 'string') {
    try {
      JSON.parse(c.args);
    } catch {
      fail(
        `${at}.args`,
        `is a string but not JSON text: ${JSON.stringify(c.args.slice(0, 40))} (use rawArgs for malformed JSON)`,
      );
    }
  } else if (c.args !== undefined && !isJsonValue(c.args)) {
    fail(
      `${at}.args`,
      'must be JSON-serialisable (plain objects, arrays, strings, finite numbers, booleans, null)',
    );
  }
}

/** A `reasoning` option: thinking text (a string, or `{ text, signature? }`) or `{ redacted }`. */
function checkReasoning(reasoning: unknown, fail: Fail): void {
  if (reasoning === undefined || isText(reasoning)) return;
  const shape = 'must be a string, { text, signature? } or { redacted }';
  if (typeof reasoning !== 'object' || reasoning === null) fail('reasoning', shape);
  const r = reasoning as { text?: unknown; signature?: unknown; redacted?: unknown };
  if ('redacted' in r) {
    if (!isText(r.redacted) || r.redacted === '') fail('reasoning.redacted', 'must be a non-empty string');
    if ('text' in r || 'signature' in r) fail('reasoning', 'give text (and signature) or redacted, not both');
    return;
  }
  if (!isText(r.text)) fail('reasoning.text', 'must be a string');
  if (r.signature !== undefined && (!isText(r.signature) || r.signature === ''))
    fail('reasoning.signature', 'must be a non-empty string');
}

function checkApiError(s: ApiErrorStep, where: string, fail: Fail): void {
  if (!API_ERRORS.has(s.error)) {
    fail('error', `must be one of ${[...API_ERRORS].join(', ')}, got ${JSON.stringify(s.error)}`);
  }
  checkFields(where, s, [...LATENCY_FIELDS, ...(API_ERROR_FIELDS[s.error] ?? [])]);
  if (s.error === 'rateLimit') checkRateLimit(where, s);
  for (const name of API_ERROR_TEXTS[s.error] ?? []) {
    const value = (s as unknown as Record<string, unknown>)[name];
    if (value !== undefined && !isText(value)) fail(name, 'must be a string');
  }
  if (s.error === 'serverError' && s.html !== undefined && typeof s.html !== 'boolean')
    fail('html', 'must be a boolean');
}

/**
 * Checks one step of a script and throws naming `where` (e.g. `step 2`) and the field: a `RangeError` for a
 * number outside its rule, a `TypeError` for anything else.
 * @returns the same step, typed.
 */
export function validateStep(step: unknown, where: string): Step {
  const kind = (step as { kind?: unknown } | null)?.kind;
  return checkStep(step, `mock script ${where}${typeof kind === 'string' ? ` (${kind})` : ''}`);
}

/** Checks one step; errors start with `where` (a builder's name, or `mock script step N (kind)`). */
export function checkStep(step: unknown, where: string): Step {
  const fail = failAt(where);
  const kind = (step as { kind?: unknown } | null)?.kind;
  if (typeof step !== 'object' || step === null)
    fail('step', 'must be an object built with reply.* or fault.*');
  if (typeof kind !== 'string' || !KINDS.has(kind)) {
    fail('kind', `must be one of ${[...KINDS].join(', ')}, got ${JSON.stringify(kind)}`);
  }
  const s = step as Step;
  if (s.kind === 'apiError') {
    checkApiError(s, where, fail);
    return s;
  }
  const answer = s.kind === 'text' || s.kind === 'toolCalls';
  checkFields(where, s, answer ? ANSWER_FIELDS : s.kind === 'http' ? HTTP_FIELDS : LATENCY_FIELDS);
  if (answer) {
    if (s.finishReason !== undefined && !FINISH_REASONS.has(s.finishReason)) {
      fail('finishReason', `must be one of ${[...FINISH_REASONS].join(', ')}, got ${String(s.finishReason)}`);
    }
    checkReasoning(s.reasoning, fail);
    checkFault(s.fault, where, 'fault.');
  }
  if (s.kind === 'text' && typeof s.text !== 'string') fail('text', 'must be a string');
  if (s.kind === 'toolCalls') {
    if (!Array.isArray(s.calls) || s.calls.length === 0) fail('calls', 'must be a non-empty array');
    for (const [i, call] of s.calls.entries()) validateCall(call, i, fail);
    if (s.text !== undefined && typeof s.text !== 'string') fail('text', 'must be a string');
  }
  if (s.kind === 'networkError' && s.failure !== undefined && !NETWORK_FAILURES.has(s.failure)) {
    fail('failure', `must be one of ${[...NETWORK_FAILURES].join(', ')}, got ${String(s.failure)}`);
  }
  if (s.kind === 'http') {
    for (const [name, value] of Object.entries(s.headers ?? {})) {
      if (typeof value !== 'string') fail(`headers.${name}`, 'must be a string');
    }
  }
  return s;
}
