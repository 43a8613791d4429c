/**
 * The text as the secret scanner reads it: percent-escapes (`%3D`, UTF-8 `%E2%80%8B`), JSON and JavaScript escapes
 * (`\"`, `\u0073`, `\x1b`) decoded, invisible characters (zero-width, bidi marks, soft hyphen, tag characters) and
 * ANSI escape sequences removed, with a map back to the original so the original form is what gets replaced.
 * Nested encodings (JSON inside JSON, a percent-encoded JSON escape) take one more pass each, at most four.
 * A pass costs a native search plus work per escape: unchanged runs are copied as slices, and a text with nothing
 * to decode is returned as is.
 */
export interface DecodedView {
  readonly text: string;
  /** One map per pass that changed something, first pass first. Absent when the view is the original. */
  readonly maps?: readonly PassMap[];
}

/**
 * How one pass's output maps back to its input, as segments. Segment `k` starts at output position
 * `segments[3k]` and input position `segments[3k + 1]`, and its next output characters start `segments[3k + 2]`
 * input characters apart: 1 for text copied as it is, 3 for a run of `%XX`, 6 for a run of `\uXXXX`, 2 for `[` after
 * `ESC` again and again. What a pass removed belongs to the character before it.
 */
interface PassMap {
  readonly segments: Int32Array;
  readonly count: number;
  readonly viewLength: number;
  readonly sourceLength: number;
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
  const maps: PassMap[] = [];
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const next = decodePass(text);
    if (next === undefined) break;
    maps.push(next.map);
    text = next.text;
  }
  return maps.length === 0 ? { text } : { text, maps };
}

function mapBack(map: PassMap, i: number): number {
  if (i >= map.viewLength) return map.sourceLength;
  const { segments } = map;
  let low = 0;
  let high = map.count - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (segments[3 * mid]! <= i) low = mid;
    else high = mid - 1;
  }
  return segments[3 * low + 1]! + (i - segments[3 * low]!) * segments[3 * low + 2]!;
}

/** Where view index `i` (0…length) starts in the original. */
export function originalIndex(view: DecodedView, i: number): number {
  let at = i;
  const maps = view.maps ?? [];
  for (let m = maps.length - 1; m >= 0; m--) at = mapBack(maps[m]!, at);
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

function isInvisible(c: number): boolean {
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

const mayChange = (c: number): boolean =>
  c === PERCENT ||
  c === BACKSLASH ||
  c === ESC ||
  (c >= C1_CSI && (c === C1_CSI || c === TAG_HIGH || isInvisible(c)));

const MAY_CHANGE_ALL = new RegExp(MAY_CHANGE.source, 'g');
/** How far ahead the next escape is looked for in JavaScript before the native search takes over. */
const NEAR = 32;

/** The next position at or after `from` a pass may change, or -1: close ones by a loop, far ones natively. */
function nextCandidate(s: string, from: number): number {
  const near = Math.min(s.length, from + NEAR);
  for (let k = from; k < near; k++) if (mayChange(s.charCodeAt(k))) return k;
  if (near >= s.length) return -1;
  MAY_CHANGE_ALL.lastIndex = near;
  return MAY_CHANGE_ALL.exec(s)?.index ?? -1;
}

/** What one escape at `i` becomes: decoded (`code << 4 | length`), removed (`-length`), or 0 (left as it is). */
function change(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c === PERCENT) return Math.max(0, decodePercent(s, i));
  if (c === BACKSLASH) return Math.max(0, decodeBackslash(s, i));
  if (c === ESC || c === C1_CSI) return -ansiLength(s, i);
  if (c === TAG_HIGH) {
    const low = codeAt(s, i + 1);
    return low >= 0xdc00 && low <= 0xdc7f ? -2 : 0;
  }
  return isInvisible(c) ? -1 : 0;
}

const CHUNK = 4096;
/** Runs shorter than this are copied into the character buffer; longer ones are sliced (native copy). */
const SHORT_RUN = 32;

/** The output of one pass: long unchanged runs as slices, everything else through a character buffer. */
class PassOutput {
  readonly parts: string[] = [];
  /** Characters not yet turned into a part; flushed when full (text with few escapes needs little of it). */
  readonly buffer = new Uint16Array(CHUNK);
  buffered = 0;
  segments = new Int32Array(3 * 64);
  count = 0;
  /** View characters in the current segment, and the input position of the last of them. */
  inSegment = 0;
  lastSource = -1;
  viewLength = 0;

  constructor(readonly source: string) {}

  add(code: number): void {
    if (this.buffered === CHUNK) this.flush();
    this.buffer[this.buffered++] = code;
  }

  open(viewAt: number, source: number): void {
    if (3 * this.count === this.segments.length) {
      const grown = new Int32Array(this.segments.length * 2);
      grown.set(this.segments);
      this.segments = grown;
    }
    this.segments[3 * this.count] = viewAt;
    this.segments[3 * this.count + 1] = source;
    this.segments[3 * this.count + 2] = 1;
    this.count++;
  }

  /** Maps the next view character to `source`: the segment goes on while the step between sources stays equal. */
  place(source: number): void {
    const stride = 3 * this.count - 1;
    if (this.inSegment === 1) this.segments[stride] = source - this.lastSource;
    if (this.inSegment === 0 || (this.inSegment > 1 && source - this.lastSource !== this.segments[stride])) {
      this.open(this.viewLength, source);
      this.inSegment = 1;
    } else this.inSegment++;
    this.lastSource = source;
  }

  /**
   * Maps the next `n` view characters (already added) to `source`, `source + step`, …: what `n` calls of `place`
   * do, in constant time.
   */
  placeRun(source: number, step: number, n: number): void {
    this.place(source);
    if (n > 1) {
      const stride = 3 * this.count - 1;
      if (this.inSegment === 1) {
        this.segments[stride] = step;
        this.inSegment = n;
      } else if (this.segments[stride] === step) this.inSegment += n - 1;
      else {
        this.open(this.viewLength + 1, source + step);
        this.segments[3 * this.count - 1] = step;
        this.inSegment = n - 1;
      }
      this.lastSource = source + (n - 1) * step;
    }
    this.viewLength += n;
  }

  /** One decoded character standing for the escape at `source`. */
  decoded(code: number, source: number): void {
    this.place(source);
    this.viewLength++;
    this.add(code);
  }

  /** The input from `from` to `end`, unchanged. */
  copy(from: number, end: number): void {
    const length = end - from;
    if (length <= 0) return;
    this.place(from);
    if (length > 1) {
      if (this.inSegment === 1) this.segments[3 * this.count - 1] = 1;
      if (this.segments[3 * this.count - 1] === 1) this.inSegment += length - 1;
      else {
        this.open(this.viewLength + 1, from + 1);
        this.inSegment = length - 1;
      }
      this.lastSource = end - 1;
    }
    if (length < SHORT_RUN) {
      for (let k = from; k < end; k++) this.add(this.source.charCodeAt(k));
    } else {
      this.flush();
      this.parts.push(this.source.slice(from, end));
    }
    this.viewLength += length;
  }

  flush(): void {
    if (this.buffered === 0) return;
    this.parts.push(String.fromCharCode.apply(null, this.buffer.subarray(0, this.buffered) as never));
    this.buffered = 0;
  }

  finish(): { text: string; map: PassMap } {
    this.flush();
    const { segments, count, viewLength } = this;
    return {
      text: this.parts.join(''),
      map: { segments, count, viewLength, sourceLength: this.source.length },
    };
  }
}

/**
 * After the escape at `at` (its `change` was `result`, ending at `end`): the same kind of escape again and again,
 * right after it or after one unchanged character (`\x1b[\x1b[`), in one loop. Each repetition adds at most one
 * view character, so the run maps as one segment. Returns where the run ends.
 */
function repeatRun(
  s: string,
  out: PassOutput,
  at: number,
  result: number,
  produces: boolean,
  end: number,
): number {
  const first = s.charCodeAt(at);
  // A decoded character fills the repetition; otherwise one unchanged character may stand before the next escape.
  const gap = produces ? 0 : codeAt(s, end + 1) === first && !mayChange(codeAt(s, end)) ? 1 : 0;
  const step = end - at + gap;
  const stop = repeatUnits(s, out, first, result, produces, gap, end);
  if (stop > end && (produces || gap === 1)) out.placeRun(end, step, (stop - end) / step);
  return stop;
}

/**
 * `repeatRun`'s loop, alone in its function: V8 compiles it on stack replacement mid-loop, and code after the loop
 * (not yet run then) would throw that compilation away on every exit.
 */
function repeatUnits(
  s: string,
  out: PassOutput,
  first: number,
  result: number,
  produces: boolean,
  gap: number,
  from: number,
): number {
  const length = result > 0 ? result & 0xf : -result;
  const step = length + gap;
  let k = from;
  while (k + step <= s.length) {
    const e = k + gap;
    if (s.charCodeAt(e) !== first || (gap === 1 && mayChange(s.charCodeAt(k)))) break;
    const next = change(s, e);
    if (result > 0) {
      if (next <= 0 || (next & 0xf) !== length || isInvisible(next >> 4) !== !produces) break;
      if (produces) out.add(next >> 4);
    } else if (next !== result) break;
    if (gap === 1) out.add(s.charCodeAt(k));
    k += step;
  }
  return k;
}

function decodePass(s: string): { text: string; map: PassMap } | undefined {
  let candidate = s.search(MAY_CHANGE);
  if (candidate < 0) return undefined;
  let out: PassOutput | undefined;
  let copied = 0;
  while (candidate >= 0) {
    const result = change(s, candidate);
    if (result === 0) {
      candidate = nextCandidate(s, candidate + 1);
      continue;
    }
    out ??= new PassOutput(s);
    out.copy(copied, candidate);
    // A decoded invisible character is removed like a literal one.
    const produces = result > 0 && !isInvisible(result >> 4);
    if (produces) out.decoded(result >> 4, candidate);
    copied = candidate + (result > 0 ? result & 0xf : -result);
    copied = repeatRun(s, out, candidate, result, produces, copied);
    // Escapes often come in runs: look at the very next character before searching.
    candidate = copied < s.length && mayChange(s.charCodeAt(copied)) ? copied : nextCandidate(s, copied);
  }
  if (out === undefined) return undefined;
  out.copy(copied, s.length);
  return out.finish();
}
