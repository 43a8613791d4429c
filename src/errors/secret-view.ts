/**
 * The text as the secret scanner reads it: percent-escapes (`%3D`, UTF-8 `%E2%80%8B`), JSON and JavaScript escapes
 * (`\"`, `\u0073`, `\x1b`) decoded, invisible characters (zero-width, bidi marks, soft hyphen, tag characters) and
 * ANSI escape sequences removed, with a map back to the original so the original form is what gets replaced.
 * Nested encodings (JSON inside JSON, a percent-encoded JSON escape) take one more pass each, at most four.
 * Every pass is one linear walk; a text with nothing to decode is returned as is, without allocating.
 */
export interface DecodedView {
  readonly text: string;
  /**
   * `at[i]` is where view character `i` starts in the original, `at[text.length]` the original's length; what a
   * pass removed belongs to the view character before it. Absent when the view is the original.
   */
  readonly at?: Int32Array;
}

const MAX_PASSES = 4;
/** Longest ANSI control sequence removed; a longer one is left as text. */
const MAX_ANSI = 64;
const REPLACEMENT = 0xfffd;

const PERCENT = 0x25;
const BACKSLASH = 0x5c;
const ESC = 0x1b;
const C1_CSI = 0x9b;
const TAG_HIGH = 0xdb40;

export function decodedView(original: string): DecodedView {
  let text = original;
  let at: Int32Array | undefined;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const next = decodePass(text);
    if (next === undefined) break;
    at = at === undefined ? next.at : compose(at, next.at);
    text = next.text;
  }
  return at === undefined ? { text } : { text, at };
}

/** Where view index `i` (0…length) starts in the original. */
export function originalIndex(view: DecodedView, i: number): number {
  return view.at === undefined ? i : view.at[i]!;
}

function compose(outer: Int32Array, inner: Int32Array): Int32Array {
  const at = new Int32Array(inner.length);
  for (let i = 0; i < inner.length; i++) at[i] = outer[inner[i]!]!;
  return at;
}

/** Characters nobody sees, removed so they cannot hide a key: zero-width, joiners, bidi controls, fillers. */
const INVISIBLE_RANGES: readonly (readonly [number, number])[] = [
  [0xad, 0xad],
  [0x34f, 0x34f],
  [0x61c, 0x61c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
];
const INVISIBLE = new Uint8Array(0x10000);
for (const [from, to] of INVISIBLE_RANGES) INVISIBLE.fill(1, from, to + 1);

export function isInvisible(c: number): boolean {
  return INVISIBLE[c] === 1;
}

const escaped = (c: number): string => `\\u${c.toString(16).padStart(4, '0')}`;
/** The first character a pass may change: found natively, so text without escapes costs no JavaScript loop. */
const MAY_CHANGE = new RegExp(
  `[%\\\\${[ESC, C1_CSI, TAG_HIGH].map(escaped).join('')}${INVISIBLE_RANGES.map(
    ([from, to]) => `${escaped(from)}-${escaped(to)}`,
  ).join('')}]`,
);

/** The character code at `i`, or 0 past the end (an out-of-bounds `charCodeAt` deoptimises the loop). */
function codeAt(s: string, i: number): number {
  return i < s.length ? s.charCodeAt(i) : 0;
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** The byte of `%XX` at `i`, or -1. */
function percentByte(s: string, i: number): number {
  if (codeAt(s, i) !== PERCENT) return -1;
  const high = hexValue(codeAt(s, i + 1));
  const low = hexValue(codeAt(s, i + 2));
  return high < 0 || low < 0 ? -1 : high * 16 + low;
}

/** `count` hex digits at `i` as a number, or -1. */
function hexDigits(s: string, i: number, count: number): number {
  let value = 0;
  for (let k = 0; k < count; k++) {
    const digit = hexValue(codeAt(s, i + k));
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

// A decoder returns (code << 4) | length consumed, or -1. Packing avoids an allocation per escape.
const pack = (code: number, length: number): number => (code << 4) | length;

/** `%XX`, or a whole UTF-8 sequence `%E2%80%8B` as one character (astral ones as U+FFFD). */
function decodePercent(s: string, i: number): number {
  const lead = percentByte(s, i);
  if (lead < 0) return -1;
  if (lead < 0x80) return pack(lead, 3);
  const extra = lead >= 0xf0 && lead <= 0xf4 ? 3 : lead >= 0xe0 ? 2 : lead >= 0xc2 && lead < 0xe0 ? 1 : 0;
  if (extra === 0) return pack(REPLACEMENT, 3);
  let code = lead & (0x3f >> extra);
  for (let k = 1; k <= extra; k++) {
    const next = percentByte(s, i + 3 * k);
    if (next < 0x80 || next > 0xbf) return pack(REPLACEMENT, 3);
    code = (code << 6) | (next & 0x3f);
  }
  return pack(code > 0xffff ? REPLACEMENT : code, 3 * (extra + 1));
}

/** `\"`, `\\`, `\/`, `\'`, `\n`, `\t`, `\r`, `\b`, `\f`, `\uXXXX`, `\xXX`. */
function decodeBackslash(s: string, i: number): number {
  const c = codeAt(s, i + 1);
  switch (c) {
    case 0x22:
    case 0x27:
    case 0x2f:
    case BACKSLASH:
      return pack(c, 2);
    case 0x6e:
      return pack(0x0a, 2);
    case 0x74:
      return pack(0x09, 2);
    case 0x72:
      return pack(0x0d, 2);
    case 0x62:
      return pack(0x08, 2);
    case 0x66:
      return pack(0x0c, 2);
    case 0x75: {
      const code = hexDigits(s, i + 2, 4);
      return code < 0 ? -1 : pack(code, 6);
    }
    case 0x78: {
      const code = hexDigits(s, i + 2, 2);
      return code < 0 ? -1 : pack(code, 4);
    }
    default:
      return -1;
  }
}

/** Length of the ANSI escape sequence (CSI, OSC or a two-character escape) at `i`, or a lone ESC's 1. */
function ansiLength(s: string, i: number): number {
  const c = codeAt(s, i);
  let j = c === C1_CSI ? i + 1 : i + 2;
  const kind = c === C1_CSI ? 0x5b : codeAt(s, i + 1);
  const limit = Math.min(s.length, i + MAX_ANSI);
  if (kind === 0x5b) {
    while (j < limit && codeAt(s, j) >= 0x20 && codeAt(s, j) <= 0x3f) j++;
    const final = codeAt(s, j);
    return j < limit && final >= 0x40 && final <= 0x7e ? j + 1 - i : 1;
  }
  if (kind === 0x5d) {
    for (; j < limit; j++) {
      const d = codeAt(s, j);
      if (d === 0x07) return j + 1 - i;
      if (d === ESC && codeAt(s, j + 1) === BACKSLASH) return j + 2 - i;
    }
    return 1;
  }
  return kind >= 0x40 && kind <= 0x5f ? 2 : 1;
}

function decodePass(s: string): { text: string; at: Int32Array } | undefined {
  const first = s.search(MAY_CHANGE);
  if (first < 0) return undefined;
  const n = s.length;
  // Allocated at the first real change; until then the output is the input.
  let codes: Uint16Array | undefined;
  let at: Int32Array | undefined;
  let o = first;
  let i = first;
  while (i < n) {
    const c = s.charCodeAt(i);
    let decoded = -1;
    let removed = 0;
    if (c === PERCENT) decoded = decodePercent(s, i);
    else if (c === BACKSLASH) decoded = decodeBackslash(s, i);
    else if (c === ESC || c === C1_CSI) removed = ansiLength(s, i);
    else if (c === TAG_HIGH) {
      const low = codeAt(s, i + 1);
      if (low >= 0xdc00 && low <= 0xdc7f) removed = 2;
    } else if (isInvisible(c)) removed = 1;
    if (decoded < 0 && removed === 0) {
      if (codes !== undefined) {
        codes[o] = c;
        at![o] = i;
      }
      o++;
      i++;
      continue;
    }
    if (codes === undefined) {
      codes = new Uint16Array(n);
      at = new Int32Array(n + 1);
      for (let k = 0; k < i; k++) {
        codes[k] = s.charCodeAt(k);
        at[k] = k;
      }
    }
    if (decoded >= 0) {
      const code = decoded >> 4;
      // A decoded invisible character is removed like a literal one.
      if (!isInvisible(code)) {
        codes[o] = code;
        at![o++] = i;
      }
      i += decoded & 0xf;
    } else i += removed;
  }
  if (codes === undefined) return undefined;
  at![o] = n;
  return { text: fromCodes(codes, o), at: at!.subarray(0, o + 1) };
}

const CHUNK = 8192;

function fromCodes(codes: Uint16Array, length: number): string {
  const parts: string[] = [];
  for (let k = 0; k < length; k += CHUNK) {
    parts.push(
      String.fromCharCode.apply(null, codes.subarray(k, Math.min(length, k + CHUNK)) as unknown as number[]),
    );
  }
  return parts.join('');
}
