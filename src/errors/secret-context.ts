import { ALNUM, LETTER, SECRET_NAMES } from './secret-formats.js';
import {
  code,
  hasDigitAndLetter,
  isClass,
  looksLikeCredential,
  push,
  tokenEnd,
} from './secret-scan-state.js';

/**
 * Secrets known by where they stand rather than by their shape: the value of a secret-named field
 * (`api_key=…`, `"password": "…"`, `Authorization: Basic …`) and the password in a URL (`scheme://user:pass@host`).
 * Each look-ahead and look-behind is bounded, so the scan stays linear.
 */

const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const BACKTICK = 0x60;
const SPACE = 0x20;
const TAB = 0x09;
const NEWLINE = 0x0a;
const COLON = 0x3a;
const SLASH = 0x2f;
const AT = 0x40;
/** How far a quoted value is followed before it is read as unquoted. */
const MAX_QUOTED = 1024;
/** An ordinary word after `name: ` is prose ("password: Required."), not a password, up to this length. */
const MAX_PROSE_WORD = 32;
/** A weak name's value must be at least this long, with a letter and a digit among its first `WEAK_WINDOW`. */
const MIN_WEAK_VALUE = 16;
const WEAK_WINDOW = 64;
const isLowerLetter = (c: number): boolean => c >= 0x61 && c <= 0x7a;
const NULLISH = new Set(['null', 'undefined', 'none', 'nil', 'true', 'false']);
const NULLISH_FIRST = [...NULLISH].map((word) => word.charCodeAt(0));

type NameKind = (typeof SECRET_NAMES)[number][1];
const KINDS: readonly NameKind[] = ['strong', 'weak', 'scheme'];

// The names spelled backwards in a trie over the 26 letters: a separator's name is read right to left in one walk.
// NAME_CHILD[(node << 5) | letter] is the next node (0 = none); NAME_KIND[node] - 1 indexes KINDS (0 = no name).
const NAME_CHILD = new Uint16Array(256 << 5);
const NAME_KIND = new Uint8Array(256);
let nameNodes = 1;
for (const [name, kind] of SECRET_NAMES) {
  let node = 0;
  for (let k = name.length - 1; k >= 0; k--) {
    const slot = (node << 5) | (name.charCodeAt(k) - 0x61);
    if (NAME_CHILD[slot] === 0) NAME_CHILD[slot] = nameNodes++;
    node = NAME_CHILD[slot]!;
  }
  NAME_KIND[node] = KINDS.indexOf(kind) + 1;
}
/** The longest name, plus the separators a name may hold (`x-api-key`). */
const MAX_NAME = Math.max(...SECRET_NAMES.map(([name]) => name.length)) + 3;

const isNameSeparator = (c: number): boolean => c === 0x2d || c === 0x5f || c === 0x2e;
const letterIndex = (c: number): number => {
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x7a ? lower - 0x61 : -1;
};

/** Where the field name before the separator at `at` ends: before up to two spaces and one closing quote. */
function nameEnd(text: string, at: number): number {
  let end = at;
  while (end > at - 2 && code(text, end - 1) === SPACE) end--;
  const closing = code(text, end - 1);
  return closing === QUOTE || closing === APOSTROPHE ? end - 1 : end;
}

/**
 * Whether the separator at `at`, after the character `before`, may follow a secret name: one table lookup in the
 * common case, done before `keyValueAt` is called.
 */
export function mayEndSecretName(text: string, at: number, before: number): boolean {
  const last =
    before === SPACE || before === QUOTE || before === APOSTROPHE
      ? code(text, nameEnd(text, at) - 1)
      : before;
  const letter = letterIndex(last);
  return letter >= 0 && NAME_CHILD[letter] !== 0;
}

/**
 * The kind of the secret name ending just before `end` (`-`, `_`, `.` inside it ignored), if any. A name must
 * start at a word boundary: `key` in `api_key`, `apiKey`, `API_KEY`, but not in `monkey`.
 */
function nameBefore(text: string, end: number): NameKind | undefined {
  let node = 0;
  let kind: NameKind | undefined;
  for (let j = end - 1; j >= 0 && j >= end - MAX_NAME; j--) {
    const c = code(text, j);
    if (isNameSeparator(c) && node !== 0) continue;
    const letter = letterIndex(c);
    if (letter < 0) break;
    node = NAME_CHILD[(node << 5) | letter]!;
    if (node === 0) break;
    const found = NAME_KIND[node]!;
    // The longest name at a word boundary wins (`accesstoken` over `token`).
    if (found !== 0 && !(isLowerLetter(c) && isClass(text, j - 1, ALNUM))) kind = KINDS[found - 1];
  }
  return kind;
}

/** The closing quote of a value opened at `open`, on the same line and within `MAX_QUOTED`, or -1. */
function closingQuote(text: string, open: number): number {
  const quote = code(text, open);
  const limit = Math.min(text.length, open + 1 + MAX_QUOTED);
  for (let k = open + 1; k < limit; k++) {
    const c = code(text, k);
    if (c === quote) return k;
    if (c === NEWLINE) return -1;
  }
  return -1;
}

function isNullish(text: string, from: number, to: number): boolean {
  if (to - from > 9 || !NULLISH_FIRST.includes(code(text, from) | 0x20)) return false;
  return NULLISH.has(text.slice(from, to).toLowerCase());
}

/** An ordinary word (letters, up to `MAX_PROSE_WORD`), alone or ending a clause: "Required", "Required." */
function isProseWord(text: string, from: number, to: number): boolean {
  let k = from;
  while (k < to && k - from <= MAX_PROSE_WORD && isClass(text, k, LETTER)) k++;
  if (k === from || k - from > MAX_PROSE_WORD) return false;
  const next = code(text, k);
  return k === to || next === 0x2e || next === 0x2c || next === 0x21 || next === 0x3f || next === 0x3b;
}

/**
 * In an `Authorization` value [from, to): after a scheme word (`Basic`, `Token`, `Digest`) and spaces, the
 * credential's [start, end) when it looks like one, or undefined. Unquoted, the value is the scheme word alone.
 */
function credentialAfterScheme(
  text: string,
  from: number,
  to: number,
  quoted: boolean,
): [number, number] | undefined {
  // Schemes are written capitalised (`Basic`, `Token`); "Authorization: required here" has none.
  const first = code(text, from);
  if (first < 0x41 || first > 0x5a) return undefined;
  let word = from;
  while (word < to && isClass(text, word, LETTER)) word++;
  if (quoted ? word >= to : word !== to) return undefined;
  let start = word;
  while (start - word < 8 && (code(text, start) === SPACE || code(text, start) === TAB)) start++;
  if (start === word) return undefined;
  const end = quoted ? to : tokenEnd(text, start);
  return looksLikeCredential(text, start, end) ? [start, end] : undefined;
}

/**
 * `name=value`, `name: value`, `"name": "value"` (JSON, also once decoded from an escape) at the separator `at`.
 * Redacts the value (with its quotes) when the name says it is secret; returns where to continue, or -1.
 */
export function keyValueAt(text: string, at: number): number {
  const kind = nameBefore(text, nameEnd(text, at));
  if (kind === undefined) return -1;
  const separator = code(text, at);
  if (separator === COLON && code(text, at + 1) === SLASH) return -1;
  let start = at + 1;
  while (start - at <= 16 && (code(text, start) === SPACE || code(text, start) === TAB)) start++;
  const spaced = start > at + 1;
  const open = code(text, start);
  const close = open === QUOTE || open === APOSTROPHE || open === BACKTICK ? closingQuote(text, start) : -1;
  const quoted = close >= 0;
  const from = quoted ? start + 1 : start;
  const to = quoted ? close : tokenEnd(text, start);
  const end = quoted ? close + 1 : to;
  if (to === from || isNullish(text, from, to)) return -1;
  if (kind === 'scheme') {
    const credential = credentialAfterScheme(text, from, to, quoted);
    if (credential !== undefined) {
      push(credential[0], credential[1]);
      return Math.max(end, credential[1]);
    }
  }
  if (kind === 'weak') {
    if (to - from < MIN_WEAK_VALUE || !hasDigitAndLetter(text, from, Math.min(to, from + WEAK_WINDOW)))
      return -1;
  } else if (separator === COLON && spaced && !quoted && isProseWord(text, from, to)) {
    return -1;
  }
  push(quoted ? start : from, end);
  return end;
}

/**
 * `scheme://user:password@host` at the `:` of `://`: redacts the password, up to the last `@` before the path (a
 * password may hold `@`, `#` or `?`). Digits after the colon up to `?`/`#` are a port (`localhost:3000?to=a@b`).
 */
export function userinfoAt(text: string, at: number): void {
  let colon = -1;
  let lastAt = -1;
  let port = true;
  let digits = 0;
  for (let k = at + 3; k < text.length; k++) {
    const c = code(text, k);
    if (c === AT) lastAt = k;
    else if (c === COLON) {
      if (colon < 0) colon = k;
    } else if (c === 0x3f || c === 0x23) {
      if (colon >= 0 && lastAt < 0 && port && digits > 0) return;
    } else if (
      c <= SPACE ||
      c === SLASH ||
      c === QUOTE ||
      c === APOSTROPHE ||
      c === 0x3c ||
      c === 0x3e ||
      c === 0x5c
    ) {
      break;
    }
    if (colon >= 0 && k > colon && lastAt < 0) {
      if (c >= 0x30 && c <= 0x39) digits++;
      else if (c !== 0x3f && c !== 0x23) port = false;
    }
  }
  if (colon >= 0 && lastAt > colon + 1) push(colon + 1, lastAt);
}
