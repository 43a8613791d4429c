/**
 * The text as the secret scan reads it: percent-escapes (`%3D`, UTF-8 `%E2%80%8B`), JSON and JavaScript escapes
 * (`\"`, `\u0073`, `\x1b`) decoded, invisible characters (zero-width, bidi marks, soft hyphen, tag characters) and
 * ANSI escape sequences removed, with a map back to the original so the original form is what gets replaced.
 * Nested encodings (JSON inside JSON, a percent-encoded JSON escape) take one more pass each, at most four.
 */
export interface DecodedView {
  readonly text: string;
  /**
   * One map per pass that changed something, first pass first: [output position, input position] pairs, one where
   * a decoded character or a run of copied text starts, and one for the ends. Between two pairs, characters are
   * copied one to one; what a pass removed belongs to the character before it. Absent when the view is the original.
   */
  readonly maps?: readonly (readonly number[])[];
}

const MAX_PASSES = 4;
const REPLACEMENT = 0xfffd;
/** Characters nobody sees, removed so they cannot hide a key: zero-width, joiners, bidi controls, fillers. */
const INVISIBLE =
  '\\u00ad\\u034f\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180b-\\u180f\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u206f\\u3164\\ufe00-\\ufe0f\\ufeff\\uffa0';
const IS_INVISIBLE = new RegExp(`[${INVISIBLE}]`);
/**
 * Everything a pass changes: a percent-escape, a JSON or JavaScript escape, an ANSI sequence (CSI or OSC of at most
 * 64 characters, a two-character escape, else the lone ESC), a tag or an invisible character.
 */
export const CHANGE = new RegExp(
  '%[0-9A-Fa-f]{2}|\\\\(?:u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2}|["\'/\\\\bfnrt])' +
    '|\\x1b(?:\\[[ -?]{0,61}[@-~]|\\][\\s\\S]{0,61}?(?:\\x07|\\x1b\\\\)|[@-Z\\\\^_])?|\\x9b(?:[ -?]{0,62}[@-~])?' +
    `|\\udb40[\\udc00-\\udc7f]|[${INVISIBLE}]`,
  'g',
);
const CONTINUATION = /%[89AaBb][0-9A-Fa-f]/y;
const SIMPLE: Readonly<Record<string, string>> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

const hex = (s: string, from: number, to: number): number => Number.parseInt(s.slice(from, to), 16);

// A decoded escape is returned as `code * 16 + length consumed` (no allocation per escape), a removed one as `-length`.

/** `%XX`, or a whole UTF-8 sequence `%E2%80%8B` as one character (astral or broken ones as U+FFFD). */
function percent(s: string, i: number): number {
  const lead = hex(s, i + 1, i + 3);
  if (lead < 0x80) return lead * 16 + 3;
  const extra =
    lead >= 0xf0 && lead <= 0xf4 ? 3 : lead >= 0xe0 && lead < 0xf0 ? 2 : lead >= 0xc2 && lead < 0xe0 ? 1 : 0;
  let code = lead & (0x3f >> extra);
  for (let k = 1; k <= extra; k++) {
    CONTINUATION.lastIndex = i + 3 * k;
    if (!CONTINUATION.test(s)) return REPLACEMENT * 16 + 3;
    code = (code << 6) | (hex(s, i + 3 * k + 1, i + 3 * k + 3) & 0x3f);
  }
  return (extra === 0 || code > 0xffff ? REPLACEMENT : code) * 16 + 3 * (extra + 1);
}

/** What the change `match` at `i` becomes. */
function decode(s: string, i: number, match: string): number {
  if (match[0] === '%') return percent(s, i);
  if (match[0] !== '\\') return -match.length;
  const kind = match[1]!;
  if (kind === 'u' || kind === 'x') return hex(match, 2, match.length) * 16 + match.length;
  return (SIMPLE[kind] ?? kind).charCodeAt(0) * 16 + 2;
}

/** One pass over `s`, or undefined when nothing changes. */
function decodePass(s: string): { text: string; map: number[] } | undefined {
  const map: number[] = [];
  let text = '';
  let copied = 0;
  CHANGE.lastIndex = 0;
  let m = CHANGE.exec(s);
  if (m === null) return undefined;
  for (; m !== null; m = CHANGE.exec(s)) {
    const change = decode(s, m.index, m[0]);
    if (m.index > copied) {
      map.push(text.length, copied);
      text += s.slice(copied, m.index);
    }
    const code = change >> 4;
    // A decoded invisible character is removed like a literal one.
    if (change > 0 && (code < 0xad || !IS_INVISIBLE.test(String.fromCharCode(code)))) {
      map.push(text.length, m.index);
      text += String.fromCharCode(code);
    }
    copied = CHANGE.lastIndex = m.index + (change > 0 ? change & 15 : -change);
  }
  if (s.length > copied) map.push(text.length, copied);
  map.push(text.length + s.length - copied, s.length);
  return { text: text + s.slice(copied), map };
}

export function decodedView(original: string): DecodedView {
  let text = original;
  const maps: number[][] = [];
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const next = decodePass(text);
    if (next === undefined) break;
    maps.push(next.map);
    text = next.text;
  }
  return maps.length === 0 ? { text } : { text, maps };
}

/** Where output position `i` of a pass starts in its input. */
function mapBack(map: readonly number[], i: number): number {
  let low = 0;
  let high = map.length / 2 - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (map[2 * mid]! <= i) low = mid;
    else high = mid - 1;
  }
  return map[2 * low + 1]! + i - map[2 * low]!;
}

/** Where view index `i` (0…length) starts in the original. */
export function originalIndex(view: DecodedView, i: number): number {
  let at = i;
  const maps = view.maps ?? [];
  for (let m = maps.length - 1; m >= 0; m--) at = mapBack(maps[m]!, at);
  return at;
}
