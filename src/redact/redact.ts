import { truncateText } from '../util/truncate.js';
import { decodedView, originalIndex } from './decoded-view.js';
import { scanSecrets } from './scan.js';

/** What replaces a secret in model-visible text. */
export const REDACTED = '[REDACTED]';

/**
 * Extra redaction on top of the built-in rules: patterns whose matches are replaced with `[REDACTED]`
 * (a pattern without the `g` flag still replaces every match), or a function that returns the cleaned text.
 * Keep patterns linear: they run over text of up to `MAX_REDACTED_CHARS` characters.
 */
export type RedactOption = RegExp | readonly RegExp[] | ((text: string) => string);

/**
 * Text made of pieces: content is scanned in place AND read joined with the content around it, so a key split
 * between two pieces (the end of one cause's message, the start of the next) is found; glue (`\nCaused by: Error: `)
 * is scanned in place only and kept when a split key around it is replaced. `join` is how the joined reading sees
 * the glue's place (see `splitSecrets`).
 */
export type TextPiece = string | { readonly glue: string; readonly join?: ' ' };

/**
 * The most characters a redaction reads: every caller cuts its text to about twice its output bound first (4000
 * characters for the default 2000), and a cause chain's messages together may be longer. Text past it is cut
 * before any rule runs, and the cut is marked (`… [truncated N chars]`).
 */
export const MAX_REDACTED_CHARS = 8192;
/** How far before the cap the cut looks for a line break or a space, so it does not cut a secret in half. */
const MAX_CUT_BACK = 1024;

const SECRET_ENV_NAME = /KEY|TOKEN|SECRET|PASSWORD/i;
/** Shorter values (`1`, `true`, `dev`) would redact ordinary words. */
const MIN_ENV_SECRET_LENGTH = 8;

/** Values of environment variables that look secret, read at call time. */
function envSecrets(): string[] {
  const values: string[] = [];
  const env = typeof process === 'object' && process ? process.env : undefined;
  if (!env) return values;
  for (const name of Object.keys(env)) {
    if (!SECRET_ENV_NAME.test(name)) continue;
    const value = env[name];
    if (value !== undefined && value.length >= MIN_ENV_SECRET_LENGTH) values.push(value);
  }
  return values;
}

function eachOccurrence(text: string, value: string, found: (start: number, end: number) => void): void {
  for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + value.length)) {
    found(at, at + value.length);
  }
}

/** Secrets in `text` as [start, end) pairs: found in the decoded view, mapped back to the original. */
function secretSpans(text: string, envValues: readonly string[]): number[] {
  const view = decodedView(text);
  const found = scanSecrets(view.text);
  const spans: number[] = view.maps === undefined ? found : [];
  for (let k = 0; spans !== found && k < found.length; k += 2) {
    spans.push(originalIndex(view, found[k]!), originalIndex(view, found[k + 1]!));
  }
  for (const value of envValues) {
    eachOccurrence(text, value, (start, end) => spans.push(start, end));
    if (view.maps !== undefined) {
      eachOccurrence(view.text, value, (start, end) =>
        spans.push(originalIndex(view, start), originalIndex(view, end)),
      );
    }
  }
  return spans;
}

/** A character of a key, token or escape: a cut between two of them may split a secret. */
export const isTokenChar = (c: number): boolean => /[\w+/=.%\\-]/.test(String.fromCharCode(c));

const isLetter = (c: number): boolean => (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;

/**
 * Whether `text` ends a clause, so the next message starts afresh: with `?`, `)`, `]`, `}`, or a word and dots
 * ("Required."). A `.` after anything else may be inside a key (a JWT, `ya29.`); a quote may open a value; `!` is
 * common in passwords; `;` and `,` occur inside ANSI sequences.
 */
function endsClause(text: string): boolean {
  let k = text.length - 1;
  const last = text.charCodeAt(k);
  if (last === 0x3f || last === 0x29 || last === 0x5d || last === 0x7d) return true;
  if (last !== 0x2e) return false;
  while (k >= 0 && text.charCodeAt(k) === 0x2e) k--;
  let word = k;
  while (word >= 0 && isLetter(text.charCodeAt(word))) word--;
  return word < k && (word < 0 || !isTokenChar(text.charCodeAt(word)));
}

/**
 * Secrets found in the content read joined (a key cut in two between two messages, or a value whose `Bearer` or
 * `api_key=` ends the previous message), cut at the borders and placed in the full text, so the glue stays. Each
 * border is read as its `join` when given (a space the rendering trimmed), as a line break after a message that
 * ends a clause, else as nothing: a message that stops mid-token is read as continued.
 */
function splitSecrets(pieces: readonly TextPiece[], envValues: readonly string[]): number[] {
  // Each content piece's start in the joined reading and in the full text.
  const joinedStarts: number[] = [];
  const fullStarts: number[] = [];
  const contents: string[] = [];
  const parts: string[] = [];
  let full = 0;
  let joined = 0;
  let join: string | undefined;
  for (const piece of pieces) {
    if (typeof piece !== 'string') {
      full += piece.glue.length;
      if (piece.join !== undefined) join = piece.join;
      continue;
    }
    if (piece.length === 0) continue;
    const previous = contents[contents.length - 1];
    if (previous !== undefined) {
      const border = join ?? (endsClause(previous) ? '\n' : '');
      parts.push(border);
      joined += border.length;
    }
    join = undefined;
    joinedStarts.push(joined);
    fullStarts.push(full);
    contents.push(piece);
    parts.push(piece);
    joined += piece.length;
    full += piece.length;
  }
  if (contents.length < 2) return [];
  const spans = secretSpans(parts.join(''), envValues);
  const out: number[] = [];
  for (let k = 0; k < spans.length; k += 2) {
    for (let p = 0; p < contents.length; p++) {
      const from = Math.max(spans[k]!, joinedStarts[p]!);
      const to = Math.min(spans[k + 1]!, joinedStarts[p]! + contents[p]!.length);
      if (to > from)
        out.push(from - joinedStarts[p]! + fullStarts[p]!, to - joinedStarts[p]! + fullStarts[p]!);
    }
  }
  return out;
}

/** `text` with every span replaced by one `[REDACTED]` (overlapping and touching spans merged). */
function replaceSpans(text: string, spans: readonly number[]): string {
  const order = Array.from({ length: spans.length / 2 }, (_, n) => 2 * n).sort(
    (a, b) => spans[a]! - spans[b]!,
  );
  let out = '';
  let copied = 0;
  // The merged span being built: [open, close).
  let open = -1;
  let close = -1;
  const flush = (): void => {
    if (open < 0) return;
    out += text.slice(copied, open) + REDACTED;
    copied = close;
  };
  for (const k of order) {
    const start = spans[k]!;
    const end = spans[k + 1]!;
    if (end <= start) continue;
    if (start > close) {
      flush();
      open = start;
    }
    close = Math.max(close, end);
  }
  flush();
  return out + text.slice(copied);
}

function applyPattern(text: string, pattern: RegExp): string {
  const global = pattern.global ? pattern : new RegExp(pattern.source, `${pattern.flags}g`);
  global.lastIndex = 0;
  return text.replace(global, REDACTED);
}

function applyExtra(text: string, extra: RedactOption | undefined): string {
  if (extra === undefined) return text;
  if (typeof extra === 'function') {
    const cleaned = extra(text);
    return typeof cleaned === 'string' ? cleaned : REDACTED;
  }
  let out = text;
  for (const pattern of extra instanceof RegExp ? [extra] : extra) out = applyPattern(out, pattern);
  return out;
}

/**
 * Where text longer than the cap is cut: at the last line break, else the last space, within `MAX_CUT_BACK`
 * characters before the cap, else at the cap. Half a key may be too short to be recognised, and is still half a
 * secret; a quoted value and a URL stand on one line.
 */
function cutAt(text: string): number {
  const line = text.lastIndexOf('\n', MAX_REDACTED_CHARS);
  if (line >= MAX_REDACTED_CHARS - MAX_CUT_BACK) return line;
  for (let k = MAX_REDACTED_CHARS; k >= MAX_REDACTED_CHARS - MAX_CUT_BACK; k--) {
    if (/\s/.test(text.charAt(k))) return k;
  }
  return MAX_REDACTED_CHARS;
}

const textOf = (piece: TextPiece): string => (typeof piece === 'string' ? piece : piece.glue);

/** The pieces up to `end` characters of their joined text. */
function piecesUpTo(pieces: readonly TextPiece[], end: number): TextPiece[] {
  const kept: TextPiece[] = [];
  let at = 0;
  for (const piece of pieces) {
    if (at >= end) break;
    const text = textOf(piece);
    const part = text.slice(0, end - at);
    kept.push(typeof piece === 'string' ? part : { ...piece, glue: part });
    at += text.length;
  }
  return kept;
}

/**
 * `redactSecrets` over text made of pieces (see `TextPiece`): the one implementation both use. Never throws.
 */
export function redactPieces(pieces: readonly TextPiece[], extra?: RedactOption): string {
  try {
    const whole = pieces.length === 1 ? textOf(pieces[0]!) : pieces.map(textOf).join('');
    const cut = whole.length > MAX_REDACTED_CHARS ? cutAt(whole) : whole.length;
    const full = whole.slice(0, cut);
    const read = cut < whole.length ? piecesUpTo(pieces, cut) : pieces;
    const envValues = envSecrets();
    const spans = secretSpans(full, envValues);
    if (read.length > 1) for (const position of splitSecrets(read, envValues)) spans.push(position);
    const redacted = applyExtra(replaceSpans(full, spans), extra);
    return cut < whole.length
      ? truncateText(redacted, Number.POSITIVE_INFINITY, whole.length - cut)
      : redacted;
  } catch {
    return `${REDACTED} (redaction failed, so the text was withheld)`;
  }
}

/**
 * Removes secrets from text before a model (or a log, a session file, an RPC peer) sees it, however they are
 * encoded: the text is also read with percent-escapes and JSON/JavaScript escapes decoded and zero-width characters
 * and ANSI sequences removed, and a secret found there is replaced in its original form. Covers keys recognised by
 * their prefix wherever they stand (OpenAI, Anthropic, Google, GitHub, Slack, Stripe, Hugging Face, Groq, xAI, AWS,
 * Twilio, … see docs/graceful-tool.md), JWTs, PEM private keys, `Bearer`/`Basic`/`Authorization` credentials,
 * values of secret-named fields and query parameters (`api_key=`, `"password": …`, `access_token=`), passwords in
 * URLs, 40-character base64 keys standing alone (AWS secret access keys, Cohere), and the values (8+ characters) of
 * environment variables whose names contain KEY, TOKEN, SECRET or PASSWORD, read at call time; then `extra`.
 * Reads at most `MAX_REDACTED_CHARS` (8192) characters: text past them is cut first (at a line break or a space
 * shortly before) and the cut is marked `… [truncated N chars]`. Linear in what it reads. Never throws: if `extra`
 * throws, the whole text is withheld (fail closed).
 */
export function redactSecrets(text: string, extra?: RedactOption): string {
  return redactPieces([text], extra);
}
