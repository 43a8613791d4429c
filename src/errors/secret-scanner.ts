import { keyValueAt, mayEndSecretName, userinfoAt } from './secret-context.js';
import { ALNUM, BASE64, BASE64URL, CLASS, KEY_FORMATS, type KeyFormat } from './secret-formats.js';
import {
  beginScan,
  census,
  code,
  counts,
  endScan,
  isClass,
  looksLikeCredential,
  push,
  runEnd,
  tokenEnd,
} from './secret-scan-state.js';

/**
 * Finds secrets in a decoded view (see `secret-view.ts`) in one left-to-right walk, without regular expressions:
 * a trie of every prefix says where a key may start (a few table lookups per position); a body is measured once
 * per run of its character class (a later candidate inside the same run reuses the run's end), a rejected
 * candidate tells which later ones in the same run cannot match, and every look-ahead is bounded. So the cost stays
 * linear however the text repeats prefixes, separators or escapes.
 */

/** Continues the walk at the returned position (past what it redacted), or returns -1. */
type Matcher = (text: string, i: number) => number;

const DOT = 0x2e;
const DASH = 0x2d;
const EQUALS = 0x3d;
const COLON = 0x3a;
const SLASH = 0x2f;
const SPACE = 0x20;
const TAB = 0x09;
/** How much of a body is inspected to judge whether it looks random. */
const RANDOM_WINDOW = 24;
/** A 40-character base64 token on its own: the shape of AWS secret access keys and Cohere keys. */
const BARE_KEY_LENGTH = 40;
/** How far a PEM header or footer line may run before its closing dashes. */
const PEM_LABEL = 64;

// What a pair of characters may start (a prefix, `Bearer`/`Basic`), and what one character may be (a `name=value`
// separator, the end of a bare key's run). Pairs are looked up as `(first << 7) | second`.
const PREFIX = 1;
const WORD = 2;
const SEPARATOR = 4;
const RUN_END = 8;
const PAIR_STARTS = new Uint8Array(128 * 128);
const TRIGGER = new Uint8Array(128);
/** `PAIR_STARTS` with the second character's `TRIGGER` merged in (built after both): one lookup per character. */
const STEP = new Uint8Array(128 * 128);

// The prefix trie: node n's child for ASCII character c is CHILD[(n << 7) | c] (0 = none); MATCHER_AT[n] is the
// matcher of the prefix ending at n (-1 = none).
const MAX_NODES = 512;
const CHILD = new Uint16Array(MAX_NODES * 128);
const MATCHER_AT = new Int16Array(MAX_NODES).fill(-1);
const MATCHERS: Matcher[] = [];
let nodes = 1;
let longestPrefix = 0;
/** Per matcher: candidates before this position cannot match (learned from a rejection in the same run). */
let skipUntil = new Int32Array(0);
/** Matchers of the prefixes found at one position, longest first. */
const found = new Int16Array(16);

function register(prefix: string, match: Matcher): number {
  let node = 0;
  for (let k = 0; k < prefix.length; k++) {
    const slot = (node << 7) | prefix.charCodeAt(k);
    if (CHILD[slot] === 0) CHILD[slot] = nodes++;
    node = CHILD[slot]!;
  }
  PAIR_STARTS[(prefix.charCodeAt(0) << 7) | prefix.charCodeAt(1)]! |= PREFIX;
  longestPrefix = Math.max(longestPrefix, prefix.length);
  const id = MATCHERS.push(match) - 1;
  MATCHER_AT[node] = id;
  skipUntil = new Int32Array(MATCHERS.length);
  return id;
}

function accept(start: number, end: number): number {
  push(start, end);
  return end;
}

function registerPrefix(format: KeyFormat, prefix: string): void {
  const { body, min } = format;
  const id = register(prefix, (text, i) => {
    const from = i + prefix.length;
    const end = runEnd(text, from, body);
    const length = end - from;
    if (format.exact) {
      if (length === min) return accept(i, end);
      // Only the candidate whose body is exactly `min` long can match in this run.
      skipUntil[id] = end - min - prefix.length;
      return -1;
    }
    if (length < min) {
      skipUntil[id] = end;
      return -1;
    }
    if (!format.random) return accept(i, end);
    census(text, from, Math.min(end, from + RANDOM_WINDOW));
    if (counts.symbols <= 2 && (counts.digits > 0 || (counts.upper > 0 && counts.lower > 0)))
      return accept(i, end);
    skipUntil[id] = from + RANDOM_WINDOW;
    return -1;
  });
}

for (const format of KEY_FORMATS) for (const prefix of format.prefixes) registerPrefix(format, prefix);

/** A JWT (`eyJ…` header, payload, signature; a JWE's two more segments too). */
const jwt: number = register('eyJ', (text, i) => {
  const header = runEnd(text, i, BASE64URL);
  let end = header;
  let ok = header - i >= 10 && code(text, header) === DOT;
  if (ok) {
    const payload = runEnd(text, header + 1, BASE64URL);
    ok = payload - header > 4 && code(text, payload) === DOT;
    end = runEnd(text, payload + 1, BASE64URL);
    for (
      let more = 0;
      ok && more < 2 && code(text, end) === DOT && isClass(text, end + 1, BASE64URL);
      more++
    ) {
      end = runEnd(text, end + 1, BASE64URL);
    }
  }
  if (ok) return accept(i, end);
  // Every later `eyJ` in this header run shares its payload, or has a shorter header: none can match.
  skipUntil[jwt] = header;
  return -1;
});

/** Position of the `-----` that closes a PEM line starting at `from`, looking at most `PEM_LABEL` ahead. */
function closingDashes(text: string, from: number): number {
  const limit = Math.min(text.length - 4, from + PEM_LABEL);
  for (let k = from; k < limit; k++) if (code(text, k) === DASH && text.startsWith('-----', k)) return k;
  return -1;
}

let footerFrom = -1;
let footerAt = -1;

/** The next `-----END ` at or after `from`; remembered, so repeated headers do not search the text again. */
function pemFooter(text: string, from: number): number {
  if (footerFrom < 0 || from < footerFrom || (footerAt >= 0 && from > footerAt)) {
    footerFrom = from;
    footerAt = text.indexOf('-----END ', from);
  }
  return footerAt;
}

/**
 * A PEM private key block, header to footer (to the end of the text when the footer was cut off). Found at its
 * `BEGIN `, so a run of dashes costs nothing.
 */
register('BEGIN ', (text, i) => {
  const start = i - 5;
  if (start < 0 || !text.startsWith('-----', start)) return -1;
  const labelEnd = closingDashes(text, i + 6);
  if (labelEnd < 0 || !text.slice(i + 6, labelEnd).includes('PRIVATE KEY')) return -1;
  const footer = pemFooter(text, labelEnd + 5);
  if (footer < 0) return accept(start, text.length);
  const close = closingDashes(text, footer + 9);
  return accept(start, close >= 0 ? close + 5 : footer + 9);
});

/**
 * A PEM private key's footer without its header (cut off by a bound, or the header in the previous message): the
 * base64 lines before it are redacted with it.
 */
register('END ', (text, i) => {
  const footer = i - 5;
  if (footer < 0 || !text.startsWith('-----', footer)) return -1;
  const close = closingDashes(text, i + 4);
  if (close < 0 || !text.slice(i + 4, close).includes('PRIVATE KEY')) return -1;
  let start = footer;
  while (start > 0 && (isClass(text, start - 1, BASE64) || isPemSpace(code(text, start - 1)))) start--;
  return accept(start, close + 5);
});

const isPemSpace = (c: number): boolean =>
  c === EQUALS || c === SPACE || c === TAB || c === 0x0a || c === 0x0d;

/** After `word` (any case) standing alone at `i` and 1–8 spaces or tabs: where the credential starts, or -1. */
function afterWord(text: string, i: number, word: string): number {
  if (isClass(text, i - 1, ALNUM)) return -1;
  for (let k = word.length - 1; k >= 1; k--) if ((code(text, i + k) | 0x20) !== word.charCodeAt(k)) return -1;
  let j = i + word.length;
  const spaces = j;
  while (j - spaces < 8 && (code(text, j) === SPACE || code(text, j) === TAB)) j++;
  return j > spaces ? j : -1;
}

/** `Bearer <token>`, when the token looks like a credential (not "Bearer authentication"). */
function bearer(text: string, i: number): number {
  const from = afterWord(text, i, 'bearer');
  if (from < 0) return -1;
  const end = tokenEnd(text, from);
  return looksLikeCredential(text, from, end) ? accept(from, end) : -1;
}

/** `Basic <base64>` with a digit, `+`, `/` or padding (not "Basic Authentication"). */
function basic(text: string, i: number): number {
  const from = afterWord(text, i, 'basic');
  if (from < 0) return -1;
  let end = runEnd(text, from, BASE64);
  if (end - from < 8) return -1;
  for (let pad = 0; pad < 2 && code(text, end) === EQUALS; pad++) end++;
  census(text, from, Math.min(end, from + 64));
  return counts.digits + counts.symbols === 0 ? -1 : accept(from, end);
}

for (const pair of ['be', 'ba']) {
  for (const first of [pair[0]!, pair[0]!.toUpperCase()]) {
    for (const second of [pair[1]!, pair[1]!.toUpperCase()]) {
      PAIR_STARTS[(first.charCodeAt(0) << 7) | second.charCodeAt(0)]! |= WORD;
    }
  }
}
TRIGGER[EQUALS]! |= SEPARATOR;
TRIGGER[COLON]! |= SEPARATOR;
for (let c = 0; c < 128; c++) if ((CLASS[c]! & BASE64) === 0) TRIGGER[c]! |= RUN_END;
for (let pair = 0; pair < STEP.length; pair++) STEP[pair] = PAIR_STARTS[pair]! | TRIGGER[pair & 127]!;

/** A 40-character base64 token standing alone (ending just before `end`) with mixed case: AWS secret, Cohere key. */
function bareKeyBefore(text: string, end: number): void {
  const start = end - BARE_KEY_LENGTH;
  if (start < 0 || !isClass(text, start, BASE64) || isClass(text, start - 1, BASE64)) return;
  if (code(text, start - 1) === EQUALS || code(text, end) === EQUALS) return;
  for (let k = start + 1; k < end - 1; k++) if (!isClass(text, k, BASE64)) return;
  census(text, start, end);
  if (counts.upper >= 2 && counts.lower >= 2 && (counts.digits > 0 || counts.upper >= 10)) push(start, end);
}

/** Tries the prefixes that start at `i`, longest first; where to continue, or -1. */
function prefixAt(text: string, i: number): number {
  let node = 0;
  let count = 0;
  const limit = Math.min(text.length, i + longestPrefix);
  for (let k = i; k < limit; k++) {
    const c = text.charCodeAt(k);
    if (c >= 128) break;
    node = CHILD[(node << 7) | c]!;
    if (node === 0) break;
    if (MATCHER_AT[node]! >= 0) found[count++] = MATCHER_AT[node]!;
  }
  while (count > 0) {
    const id = found[--count]!;
    if (i < skipUntil[id]!) continue;
    const next = MATCHERS[id]!(text, i);
    if (next > i) return next;
  }
  return -1;
}

/** Every secret in the view, as [start, end) pairs (not sorted, may overlap). */
export function scanSecrets(text: string): number[] {
  beginScan();
  skipUntil.fill(0);
  footerFrom = footerAt = -1;
  walk(text);
  bareKeyBefore(text, text.length);
  return endScan();
}

/**
 * The hot loop, alone in its function: V8 compiles it on stack replacement mid-loop, and code after the loop (not
 * yet run then) would throw that compilation away on every exit.
 */
function walk(text: string): void {
  const length = text.length;
  // The last character seen that is not base64 (a run ends there), or -1 after a jump (not known).
  let lastBreak = -1;
  // The hot loop reads each character once: a prefix or word starting at `i - 1` is seen with its second
  // character `c`, so most characters cost one read and two table lookups.
  let previous = 0;
  let i = 0;
  while (i < length) {
    const c = text.charCodeAt(i);
    const step = c < 128 ? STEP[(previous << 7) | c]! : RUN_END;
    if (step === 0) {
      previous = c;
      i++;
      continue;
    }
    // Spaces, punctuation and non-ASCII: only a bare key can end there.
    if (step === RUN_END) {
      if (lastBreak < 0 ? i >= BARE_KEY_LENGTH : i - lastBreak - 1 === BARE_KEY_LENGTH)
        bareKeyBefore(text, i);
      lastBreak = i;
      previous = c < 128 ? c : 0;
      i++;
      continue;
    }
    let next = -1;
    if (step & PREFIX) next = prefixAt(text, i - 1);
    if (step & WORD && next < 0) next = (c | 0x20) === 0x65 ? bearer(text, i - 1) : basic(text, i - 1);
    if (next < 0) {
      if (step & RUN_END) {
        if (lastBreak < 0 ? i >= BARE_KEY_LENGTH : i - lastBreak - 1 === BARE_KEY_LENGTH)
          bareKeyBefore(text, i);
        lastBreak = i;
      }
      if (step & SEPARATOR) {
        if (mayEndSecretName(text, i, previous)) next = keyValueAt(text, i);
        if (c === COLON && code(text, i + 1) === SLASH && code(text, i + 2) === SLASH) userinfoAt(text, i);
      }
    }
    if (next > i) {
      i = next;
      previous = code(text, i - 1);
      if (previous >= 128) previous = 0;
      lastBreak = -1;
    } else {
      previous = c < 128 ? c : 0;
      i++;
    }
  }
}
