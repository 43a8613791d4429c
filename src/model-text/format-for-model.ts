import { ModelRetry } from '../errors/model-retry.js';
import { isTokenChar, type RedactOption, redactPieces, type TextPiece } from '../redact/redact.js';
import { read, safeJson } from '../util/guarded.js';
import { truncateText } from '../util/truncate.js';
import { checkSize } from '../util/validate.js';
import { modelText, type ToolErrorGuidance } from './model-text.js';

export type { ToolErrorGuidance } from './model-text.js';

/** Default bound of the model-visible text, in characters. */
export const defaultMaxErrorChars = 2000;
/** How many `Caused by:` lines at most. */
const MAX_CAUSE_DEPTH = 5;
/** How many inner errors of an `AggregateError` are listed. */
const MAX_INNER_ERRORS = 5;

/** How to render a tool error for the model. Every field is optional. */
export interface ToolErrorContext {
  /** The closing guidance line (default `'retry'`: "Fix the errors and try again."). */
  guidance?: ToolErrorGuidance;
  /** Extra actionable lines placed before the guidance, e.g. the available tool names. */
  details?: string;
  /**
   * Upper bound of the whole text in characters, guidance included.
   * @default 2000
   */
  maxErrorChars?: number;
  /** Extra redaction on top of the built-in secret rules. */
  redact?: RedactOption;
}

const formattedText = Symbol.for('graceful-ai.modelText');

/** The model-visible text already attached to an error, if any (so it is never wrapped twice). */
function attachedModelText(error: unknown): string | undefined {
  try {
    if ((typeof error === 'object' && error !== null) || typeof error === 'function') {
      const text = (error as Record<symbol, unknown>)[formattedText];
      return typeof text === 'string' ? text : undefined;
    }
  } catch {
    // A hostile proxy: fall through to a fresh rendering.
  }
  return undefined;
}

/**
 * Makes `error.toString()` return `text` (the AI SDK sends exactly `toString()` to the model) and remembers
 * the text so a later `formatToolError` returns it unchanged. Returns false when the error cannot carry
 * it (a primitive or a frozen object).
 */
export function attachModelText(error: unknown, text: string): boolean {
  if (!((typeof error === 'object' && error !== null) || typeof error === 'function')) return false;
  try {
    if (!Object.isExtensible(error)) return false;
    Object.defineProperty(error, formattedText, { value: text, configurable: true, writable: true });
    Object.defineProperty(error, 'toString', { value: () => text, configurable: true, writable: true });
    return true;
  } catch {
    return false;
  }
}

function tag(value: unknown): string {
  try {
    return Object.prototype.toString.call(value);
  } catch {
    return '[object Unknown]';
  }
}

/** Lines of a stack trace (`    at fn (file:1:2)`) some libraries put into messages. */
const STACK_LINE = /^\s+at\s\S.*$/gm;

/** How far back a cut looks for the start of the token it would split. */
const MAX_TOKEN_CUT = 256;

/**
 * `text` cut to `limit` characters. A token the cut would split is dropped whole: half a key is too short to be
 * recognised as one, and it is still half a secret.
 */
function bounded(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let end = limit;
  if (isTokenChar(text.charCodeAt(limit))) {
    const stop = Math.max(0, limit - MAX_TOKEN_CUT);
    while (end > stop && isTokenChar(text.charCodeAt(end - 1))) end--;
    if (end === stop) end = limit;
  }
  return text.slice(0, end);
}

function clean(text: string, limit: number): string {
  // Cut attacker-sized text before any regex runs over it.
  return bounded(text, limit)
    .replace(STACK_LINE, '')
    .replace(/\n{2,}/g, '\n')
    .trim();
}

function isErrorLike(value: object): boolean {
  if (value instanceof Error) return true;
  return typeof read(value, 'message') === 'string' && typeof read(value, 'name') === 'string';
}

/**
 * One rendered value: `lead` is our wording (a name, "Thrown value: "), `text` what the value itself says, and
 * whether cleaning trimmed whitespace before or after it (what was split there was split at a space).
 */
interface Described {
  readonly lead: string;
  readonly text: string;
  readonly spaceBefore?: boolean;
  readonly spaceAfter?: boolean;
}

const said = (lead: string, text = ''): Described => ({ lead, text });

const isSpace = (c: number): boolean => c === 0x20 || (c >= 0x09 && c <= 0x0d);

/** `raw` cleaned (see `clean`) as what a value says after `lead`. */
function saidCleaned(lead: string, raw: string, limit: number): Described {
  const last = Math.min(raw.length, limit) - 1;
  return {
    lead,
    text: clean(raw, limit),
    spaceBefore: isSpace(raw.charCodeAt(0)),
    spaceAfter: last >= 0 && isSpace(raw.charCodeAt(last)),
  };
}

/** One line for one thrown value, whatever it is. Never throws. */
function describe(value: unknown, limit: number): Described {
  switch (typeof value) {
    case 'string': {
      const described = saidCleaned('', value, limit);
      return described.text ? described : said('Error (empty message)');
    }
    case 'undefined':
      return said('Unknown error (the tool threw undefined)');
    case 'symbol':
      return said(
        'Thrown value: ',
        safeString(() => value.toString()),
      );
    case 'number':
    case 'bigint':
    case 'boolean':
      return said('Thrown value: ', String(value));
    case 'function':
      return said('Thrown value: function ', safeString(() => value.name) || '(anonymous)');
  }
  if (value === null) return said('Unknown error (the tool threw null)');
  const object = value as object;
  if (isErrorLike(object)) {
    const rawName = read(object, 'name');
    const rawMessage = read(object, 'message');
    const name = typeof rawName === 'string' && rawName ? clean(rawName, 200) : 'Error';
    const issues = issuesText(object, limit);
    const message =
      issues !== undefined
        ? said(`${name}: `, issues)
        : saidCleaned(`${name}: `, typeof rawMessage === 'string' ? rawMessage : '', limit);
    return message.text ? message : said(name);
  }
  if (Array.isArray(object)) {
    const json = safeJson(object);
    return json === undefined
      ? said('Thrown value: ', tag(object))
      : said('Thrown value: ', bounded(json, limit));
  }
  const message = read(object, 'message');
  if (typeof message === 'string' && message) return saidCleaned('Error: ', message, limit);
  const json = safeJson(object);
  if (json !== undefined && json !== '{}') return said('Thrown object: ', bounded(json, limit));
  const text = safeString(() => String(object));
  return text && text !== '[object Object]'
    ? saidCleaned('Thrown value: ', text, limit)
    : said('Thrown value: ', tag(object));
}

/**
 * Validation errors (Zod, any Standard Schema) as `path: message; …` instead of their pretty-printed JSON,
 * which costs the model many characters for the same facts.
 */
export function issuesText(value: unknown, limit = defaultMaxErrorChars * 2): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const issues = read(value, 'issues');
  if (!Array.isArray(issues) || issues.length === 0) return undefined;
  const parts: string[] = [];
  for (const issue of issues.slice(0, 20)) {
    if (typeof issue !== 'object' || issue === null) return undefined;
    const message = read(issue, 'message');
    if (typeof message !== 'string') return undefined;
    const path = read(issue, 'path');
    const where =
      Array.isArray(path) && path.length > 0
        ? path.map((p) => safeString(() => String(p))).join('.')
        : '(root)';
    parts.push(`${where}: ${message}`);
  }
  if (issues.length > 20) parts.push(`… and ${issues.length - 20} more issues`);
  return clean(parts.join('; '), limit);
}

function safeString(fn: () => unknown): string {
  try {
    const s = fn();
    return typeof s === 'string' ? s : '';
  } catch {
    return '';
  }
}

function innerErrors(value: unknown): unknown[] {
  if (typeof value !== 'object' || value === null) return [];
  const errors = read(value, 'errors');
  if (!(value instanceof AggregateError) || !Array.isArray(errors)) return [];
  return errors;
}

/**
 * The error, its inner errors (AggregateError) and its cause chain, one line each. Not the classifier's
 * `errorChain`: that one flattens a tree (a RetryError's `lastError`, aggregates' errors newest first) into facts,
 * while the model needs the `cause` links in order, with the cycle and depth cut said out loud. Returned as pieces,
 * so redaction also finds a key whose halves are in two messages.
 */
function renderChain(error: unknown, limit: number): TextPiece[] {
  const pieces: TextPiece[] = [];
  const lines: string[] = [];
  let spaceAfterPrevious = false;
  const add = (prefix: string, { lead, text, spaceBefore, spaceAfter }: Described): void => {
    const glue = `${lines.length > 0 ? '\n' : ''}${prefix}${lead}`;
    pieces.push(spaceAfterPrevious || spaceBefore ? { glue, join: ' ' } : { glue }, text);
    lines.push(`${prefix}${lead}${text}`);
    spaceAfterPrevious = spaceAfter === true;
  };
  const seen = new Set<unknown>();
  let current: unknown = error;
  for (let depth = 0; depth <= MAX_CAUSE_DEPTH; depth++) {
    seen.add(current);
    const described = describe(current, limit);
    // Skip a cause that only repeats what its parent already said (common with wrapping libraries).
    if (depth === 0) add('', described);
    else if (!repeats(lines, described.lead + described.text)) add('Caused by: ', described);
    const inner = innerErrors(current);
    inner.slice(0, MAX_INNER_ERRORS).forEach((e, i) => {
      add(`  [${i + 1}] `, describe(e, limit));
    });
    if (inner.length > MAX_INNER_ERRORS) add('', said(`  … and ${inner.length - MAX_INNER_ERRORS} more`));
    const next = typeof current === 'object' && current !== null ? read(current, 'cause') : undefined;
    if (next === undefined) return pieces;
    if (seen.has(next)) {
      add('', said('Caused by: (cycle: an earlier error in this chain)'));
      return pieces;
    }
    current = next;
  }
  add('', said('Caused by: … (deeper causes omitted)'));
  return pieces;
}

/** Whether `line` (or its message after `Name: `) already appears in an earlier line. */
function repeats(lines: readonly string[], line: string): boolean {
  const colon = line.indexOf(': ');
  const message = colon > 0 ? line.slice(colon + 2) : line;
  return lines.some((l) => l.includes(line) || (message.length >= 12 && l.includes(message)));
}

/**
 * The text the model sees for a tool error: the single place that renders it.
 *
 * - `ModelRetry`: its message, then "\n\nFix the errors and try again." (never wrapped twice).
 * - Any other error: `<Name>: <message>`, then one `Caused by: <Name>: <message>` line per cause (at most 5,
 *   cycles detected), inner errors of an `AggregateError`, any `details`, then the guidance line.
 * - Strings, numbers, null, undefined, objects, arrays, symbols, throwing getters all render; nothing throws.
 * - Secrets are redacted (see `redactSecrets`), also a key split between two messages; stack traces are dropped; the text is at most
 *   `maxErrorChars` long (default 2000), with the cut marked.
 * An error that already carries its model text (see `attachModelText`) returns that text unchanged.
 */
export function formatToolError(error: unknown, context: ToolErrorContext = {}): string {
  // A bad option is the caller's mistake: say so at once (the error itself is rendered whatever it is).
  checkSize('maxErrorChars', context.maxErrorChars, 64);
  try {
    const already = attachedModelText(error);
    if (already !== undefined) return already;
    const max = context.maxErrorChars ?? defaultMaxErrorChars;
    const guidance = modelText.guidance[context.guidance ?? 'retry'] ?? '';
    // Each piece is cut to about twice the bound before any regex (redaction) sees it.
    const limit = max * 2;
    const pieces: TextPiece[] = ModelRetry.isInstance(error)
      ? [
          withoutGuidance(
            clean(
              safeString(() => error.message),
              limit,
            ),
            guidance,
          ),
        ]
      : renderChain(error, limit);
    // Details are graceful-ai's own lines: scanned, but never joined to a message.
    if (context.details) pieces.push({ glue: `\n${clean(context.details, limit)}` });
    const tail = guidance ? `\n\n${guidance}` : '';
    const head = redactPieces(pieces, context.redact);
    return `${truncateText(head, Math.max(0, max - tail.length))}${tail}`;
  } catch {
    return `${modelText.unrenderable}\n\n${modelText.guidance.retry}`;
  }
}

/** A ModelRetry whose message already ends with the guidance keeps one copy of it. */
function withoutGuidance(message: string, guidance: string): string {
  return guidance && message.endsWith(guidance) ? message.slice(0, -guidance.length).trimEnd() : message;
}
