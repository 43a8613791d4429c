import {
  ALNUM,
  BASE64,
  BASE64URL,
  type CharClass,
  charClass,
  isIn,
  KEY_FORMATS,
  type KeyFormat,
  SECRET_NAMES,
  TOKEN,
} from './formats.js';

/**
 * Finds secrets in a decoded view (see `decoded-view.ts`). A rule is a regular expression that finds where a secret
 * may stand, and a check of what is there. The scan stays linear in the text's length: every quantifier of a rule's
 * expression is bounded, a rejected candidate reads a bounded window, and a run of unbounded length is read where a
 * rule accepts (its search goes on after it) or where no other candidate of the rule reads it again (a rejected JWT
 * header is skipped, the last run of credential characters is remembered, a URL's authority ends at a `/`).
 */

/** Checks the candidate `m`, pushes what it finds as [start, end) pairs, returns where the rule searches on. */
type Check = (text: string, m: RegExpExecArray, spans: number[]) => number;

const LETTER = charClass(/[A-Za-z]/);
const SPACE = charClass(/[ \t]/);
const EQUALS = charClass(/=/);
/** The characters of a URL's authority: up to a space, a control character, `/`, a quote, `<`, `>` or `\`. */
const AUTHORITY = charClass(/[^\0- "'/<>\\]/);
const PEM = charClass(/[A-Za-z0-9+/= \t\r\n]/);
/** How much of a key's body is inspected to judge whether it looks random. */
const RANDOM_WINDOW = 24;
/** A weak name's value must be at least this long, with a letter and a digit among its first `WEAK_WINDOW`. */
const MIN_WEAK_VALUE = 16;
const WEAK_WINDOW = 64;
/** An ordinary word after `name: ` is prose ("password: Required."), not a password, up to this length. */
const MAX_PROSE_WORD = 32;
const NULLISH = /^(?:null|undefined|none|nil|true|false)$/i;

/** End of the run of `cls` characters from `from`, reading at most `max`. */
function runEnd(text: string, from: number, cls: CharClass, max = text.length): number {
  const limit = Math.min(text.length, from + max);
  let end = from;
  while (end < limit && cls[Math.min(text.charCodeAt(end), 128)] === 1) end++;
  return end;
}

function accept(spans: number[], start: number, end: number): number {
  spans.push(start, end);
  return end;
}

// The last run of credential characters measured, and its end without trailing punctuation: every candidate inside
// it ends where it ends, so a run is read once however many `name=` stand in it. Reset for each scan.
let runFrom = -1;
let runTo = -1;
let runTrimmed = -1;

/** End of the credential-like token from `from`, without trailing sentence punctuation (`Bearer abc.` ends a sentence). */
function tokenEnd(text: string, from: number): number {
  if (from < runFrom || from > runTo) {
    runFrom = from;
    runTo = runTrimmed = runEnd(text, from, TOKEN);
    while (runTrimmed > from && '.,:!?'.includes(text.charAt(runTrimmed - 1))) runTrimmed--;
  }
  return Math.max(from, runTrimmed);
}

/**
 * A credential, not words: 8+ characters, and 20+ or something besides lowercase letters and dots
 * ("authentication", "authentication.the" where a sentence runs into the next message).
 */
const looksLikeCredential = (text: string, from: number, end: number): boolean =>
  end - from >= 8 && (end - from >= 20 || /[^a-z.]/.test(text.slice(from, end)));

/** Whether [from, to) looks random, not a word: at most two symbols, and a digit or both cases. */
function looksRandom(text: string, from: number, to: number): boolean {
  let symbols = 0;
  let digit = false;
  let upper = false;
  let lower = false;
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    if (c >= 0x30 && c <= 0x39) digit = true;
    else if (c >= 0x41 && c <= 0x5a) upper = true;
    else if (c >= 0x61 && c <= 0x7a) lower = true;
    else symbols++;
  }
  return symbols <= 2 && (digit || (upper && lower));
}

/** Where the key whose body starts at `from` ends, or -1. Only an accepted key's body is read to its end. */
function keyEnd(text: string, from: number, { body, min, exact, random }: KeyFormat): number {
  const window = runEnd(text, from, body, Math.max(min + 1, RANDOM_WINDOW));
  if (exact) return window - from === min ? window : -1;
  if (window - from < min) return -1;
  if (random && !looksRandom(text, from, Math.min(window, from + RANDOM_WINDOW))) return -1;
  return runEnd(text, window, body);
}

/** Every prefix with its format, longest first: at one position `sk-ant-` is tried before `sk-`. */
const PREFIXES = KEY_FORMATS.flatMap((format) =>
  format.prefixes.map((prefix) => [prefix, format] as const),
).sort((a, b) => b[0].length - a[0].length);
/** For the longest prefix found at a position, every prefix that starts there too, longest first. */
const STARTING = new Map(
  PREFIXES.map(([prefix]) => [prefix, PREFIXES.filter(([p]) => prefix.startsWith(p))]),
);

const prefixedKey: Check = (text, m, spans) => {
  for (const [prefix, format] of STARTING.get(m[0])!) {
    const end = keyEnd(text, m.index + prefix.length, format);
    if (end >= 0) return accept(spans, m.index, end);
  }
  return -1;
};

/** A JWT (`eyJ…` header, payload, signature; a JWE's two more segments too). */
const jwt: Check = (text, m, spans) => {
  const header = runEnd(text, m.index, BASE64URL);
  if (header - m.index >= 10 && text[header] === '.') {
    const payload = runEnd(text, header + 1, BASE64URL);
    if (payload - header > 4 && text[payload] === '.') {
      let end = runEnd(text, payload + 1, BASE64URL);
      for (let more = 0; more < 2 && text[end] === '.' && isIn(BASE64URL, text, end + 1); more++)
        end = runEnd(text, end + 1, BASE64URL);
      return accept(spans, m.index, end);
    }
  }
  // Every later `eyJ` in this header run shares its payload, or has a shorter header: none can match.
  return header;
};

/** The `-----` that closes a PEM footer's label, at most 64 characters on. */
const PEM_CLOSE = /[\s\S]{0,63}?-----/y;

/** A PEM private key block, header to footer (to the end of the text when the footer was cut off). */
const pemBlock: Check = (text, m, spans) => {
  if (!m[1]!.includes('PRIVATE KEY')) return -1;
  const footer = text.indexOf('-----END ', m.index + m[0].length);
  if (footer < 0) return accept(spans, m.index, text.length);
  PEM_CLOSE.lastIndex = footer + 9;
  return accept(spans, m.index, PEM_CLOSE.test(text) ? PEM_CLOSE.lastIndex : footer + 9);
};

/**
 * A PEM private key's footer without its header (cut off by a bound, or the header in the previous message): the
 * base64 lines before it are redacted with it.
 */
const pemFooter: Check = (text, m, spans) => {
  if (!m[1]!.includes('PRIVATE KEY')) return -1;
  let start = m.index;
  while (isIn(PEM, text, start - 1)) start--;
  return accept(spans, start, m.index + m[0].length);
};

/** `Bearer <token>`, when the token looks like a credential (not "Bearer authentication"). */
const bearer: Check = (text, m, spans) => {
  const from = m.index + m[0].length;
  const end = tokenEnd(text, from);
  return looksLikeCredential(text, from, end) ? accept(spans, from, end) : -1;
};

/** `Basic <base64>` with a digit, `+`, `/` or padding (not "Basic Authentication"). */
const basic: Check = (text, m, spans) => {
  const from = m.index + m[0].length;
  let end = runEnd(text, from, BASE64);
  if (end - from < 8) return -1;
  end = runEnd(text, end, EQUALS, 2);
  return /[\d+/=]/.test(text.slice(from, Math.min(end, from + 64))) ? accept(spans, from, end) : -1;
};

/** An ordinary word (letters, up to `MAX_PROSE_WORD`), alone or ending a clause: "Required", "Required." */
function isProseWord(text: string, from: number, to: number): boolean {
  const k = runEnd(text, from, LETTER, MAX_PROSE_WORD + 1);
  return k > from && k - from <= MAX_PROSE_WORD && (k === to || '.,!?;'.includes(text.charAt(k)));
}

/**
 * In an `Authorization` value [from, to): after a scheme word (`Basic`, `Token`, `Digest`) and spaces, the
 * credential's [start, end) when it looks like one. Unquoted, the value is the scheme word alone.
 */
function afterScheme(text: string, from: number, to: number, quoted: boolean): [number, number] | undefined {
  // Schemes are written capitalised (`Basic`, `Token`); "Authorization: required here" has none.
  if (!/[A-Z]/.test(text.charAt(from))) return undefined;
  const word = runEnd(text, from, LETTER, to - from);
  if (quoted ? word >= to : word !== to) return undefined;
  const start = runEnd(text, word, SPACE, 8);
  const end = quoted ? to : tokenEnd(text, start);
  return start > word && looksLikeCredential(text, start, end) ? [start, end] : undefined;
}

type NameKind = (typeof SECRET_NAMES)[number][1];
const NAME_KIND = new Map<string, NameKind>(SECRET_NAMES);
/** What a field name may hold before its separator: letters, `-`, `_` and `.`. */
const NAME_CHAR = charClass(/[A-Za-z_.-]/);
const LOWER = charClass(/[a-z]/);
/** The letters a secret name ends with. */
const LAST_LETTERS = `[${SECRET_NAMES.map(([name]) => name.at(-1)).join('')}]`;
/** How far back a field name is read. */
const MAX_NAME = 32;
const LONGEST_NAME = Math.max(...SECRET_NAMES.map(([name]) => name.length));

/**
 * The kind of the secret name that ends before the separator at `at` (and up to two spaces and a closing quote),
 * compared case-insensitively with `-`, `_` and `.` ignored (`OPENAI_API_KEY`, `x-api-key`, `clientSecret`). The
 * longest name at a word boundary wins: `key` in `api_key`, `apiKey`, `API_KEY`, not in `monkey`.
 */
function nameBefore(text: string, at: number): NameKind | undefined {
  let end = at;
  while (end > at - 2 && text[end - 1] === ' ') end--;
  if (text[end - 1] === '"' || text[end - 1] === "'") end--;
  let start = end - 1;
  while (start > end - MAX_NAME && isIn(NAME_CHAR, text, start - 1)) start--;
  const word = text.slice(start, end).toLowerCase();
  const letters = /[-_.]/.test(word) ? word.replace(/[-_.]/g, '') : word;
  // `offset`: how many letters of the name stand before `j`.
  for (let j = start, offset = 0; j < end; j++) {
    if (!isIn(LETTER, text, j)) continue;
    if (letters.length - offset <= LONGEST_NAME && !(isIn(LOWER, text, j) && isIn(ALNUM, text, j - 1))) {
      const kind = NAME_KIND.get(letters.slice(offset));
      if (kind !== undefined) return kind;
    }
    offset++;
  }
  return undefined;
}

/** A value quoted on one line, within 1024 characters. */
const QUOTED = /(["'`])([^\n]{0,1024}?)\1/y;

/**
 * `name=value`, `name: value`, `"name": "value"` (JSON, also once decoded from an escape) at the separator: redacts
 * the value (with its quotes) when the name says it is secret.
 */
const field: Check = (text, m, spans) => {
  const kind = nameBefore(text, m.index);
  if (kind === undefined) return -1;
  const start = runEnd(text, m.index + 1, SPACE, 16);
  QUOTED.lastIndex = start;
  const quoted = QUOTED.exec(text);
  const from = quoted ? start + 1 : start;
  const to = quoted ? from + quoted[2]!.length : tokenEnd(text, start);
  if (to === from || (to - from <= 9 && NULLISH.test(text.slice(from, to)))) return -1;
  if (kind === 'scheme') {
    const credential = afterScheme(text, from, to, quoted !== null);
    if (credential !== undefined) return accept(spans, credential[0], credential[1]);
  }
  if (kind === 'weak') {
    const head = text.slice(from, Math.min(to, from + WEAK_WINDOW));
    if (to - from < MIN_WEAK_VALUE || !/\d/.test(head) || !/[A-Za-z]/.test(head)) return -1;
  } else if (m[0] === ':' && start > m.index + 1 && !quoted && isProseWord(text, from, to)) {
    return -1;
  }
  return accept(spans, quoted ? start : from, quoted ? to + 1 : to);
};

/**
 * `scheme://user:password@host` at `://`: redacts the password, up to the last `@` before the path (a password may
 * hold `@`, `#` or `?`). Digits after the colon up to `?`/`#` are a port (`localhost:3000?to=a@b`).
 */
const userinfo: Check = (text, m, spans) => {
  const from = m.index + 3;
  const authority = text.slice(from, runEnd(text, from, AUTHORITY));
  const colon = authority.indexOf(':');
  const last = authority.lastIndexOf('@');
  if (colon >= 0 && last > colon + 1 && !/^[^:@]{0,2048}:\d{1,5}[?#]/.test(authority))
    spans.push(from + colon + 1, from + last);
  return -1;
};

/** A 40-character base64 token standing alone with mixed case: an AWS secret access key, a Cohere key. */
const bareKey: Check = (_text, m, spans) => {
  const key = m[1]!;
  const count = (others: RegExp): number => key.replace(others, '').length;
  const upper = count(/[^A-Z]/g);
  const start = m.index + m[0].length - 40;
  return upper >= 2 && count(/[^a-z]/g) >= 2 && (upper >= 10 || /\d/.test(key))
    ? accept(spans, start, start + 40)
    : -1;
};

const escaped = (literal: string): string => literal.replace(/[.]/g, '\\.');

/** Each rule: where a secret may stand, and the check of what is there. */
export const RULES: readonly (readonly [RegExp, Check])[] = [
  [new RegExp(PREFIXES.map(([prefix]) => escaped(prefix)).join('|'), 'g'), prefixedKey],
  [/eyJ/g, jwt],
  [/-----BEGIN ([\s\S]{0,63}?)-----/g, pemBlock],
  [/-----END ([\s\S]{0,63}?)-----/g, pemFooter],
  [/(?<![A-Za-z0-9])bearer[ \t]{1,8}/gi, bearer],
  [/(?<![A-Za-z0-9])basic[ \t]{1,8}/gi, basic],
  // A separator (not `://`) after a letter some name ends with, a closing quote and spaces.
  [new RegExp(`(?:=|:(?!/))(?<=${LAST_LETTERS}["']?[ ]{0,2}.)`, 'gi'), field],
  [/:\/\//g, userinfo],
  [/(?:^|[^A-Za-z0-9+/=])([A-Za-z0-9+/]{40})(?![A-Za-z0-9+/=])/g, bareKey],
];

/** Every secret in the view, as [start, end) pairs (not sorted, may overlap). */
export function scanSecrets(text: string): number[] {
  const spans: number[] = [];
  runFrom = runTo = runTrimmed = -1;
  for (const [find, check] of RULES) {
    find.lastIndex = 0;
    for (let m = find.exec(text); m !== null; m = find.exec(text)) {
      find.lastIndex = Math.max(m.index + 1, check(text, m, spans));
    }
  }
  return spans;
}
