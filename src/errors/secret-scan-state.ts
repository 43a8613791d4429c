import { CLASS, TOKEN } from './secret-formats.js';

/**
 * The primitives and scratch state of one secret scan. A scan is synchronous and calls no user code, so module-level
 * scratch (reset by `beginScan`) is safe, and it keeps the per-character path free of object lookups: on 1 MB of
 * text every nanosecond per character is a millisecond.
 */

/** Found spans as [start, end) pairs in view positions. */
let found: number[] = [];
// The last run measured per character class (slot = the flag's bit), so candidates inside it reuse its end.
const runFrom = new Int32Array(8);
const runTo = new Int32Array(8);
// Ranges known to hold no digit / no letter, so overlapping windows of later candidates are not read again.
const free = new Int32Array(4);

/** Set by `census`. */
export const counts = { digits: 0, upper: 0, lower: 0, symbols: 0 };

export function beginScan(): void {
  found = [];
  runFrom.fill(-1);
  runTo.fill(-1);
  free.fill(-1);
}

export function endScan(): number[] {
  const spans = found;
  found = [];
  return spans;
}

export function push(start: number, end: number): void {
  // Two indexed stores: V8 does not inline a two-argument `push`, and a dense scan pushes every few characters.
  const at = found.length;
  found[at] = start;
  found[at + 1] = end;
}

/**
 * The character code at `i`, or 0 outside the text. Every look-around goes through it: an out-of-bounds
 * `charCodeAt` makes V8 throw away the optimised scan loop.
 */
export function code(text: string, i: number): number {
  return i >= 0 && i < text.length ? text.charCodeAt(i) : 0;
}

export function isClass(text: string, i: number, flag: number): boolean {
  const c = code(text, i);
  return c < 128 && (CLASS[c]! & flag) !== 0;
}

/** End of the run of `flag` characters from `from`; a position inside the last run measured reuses its end. */
export function runEnd(text: string, from: number, flag: number): number {
  const slot = 31 - Math.clz32(flag);
  if (from >= runFrom[slot]! && from <= runTo[slot]!) return runTo[slot]!;
  let end = from;
  const length = text.length;
  while (end < length) {
    const c = text.charCodeAt(end);
    if (c >= 128 || (CLASS[c]! & flag) === 0) break;
    end++;
  }
  runFrom[slot] = from;
  runTo[slot] = end;
  return end;
}

/** End of the credential-like token from `from`, without trailing sentence punctuation (`Bearer abc.` ends a sentence). */
export function tokenEnd(text: string, from: number): number {
  let end = runEnd(text, from, TOKEN);
  while (end > from) {
    const last = text.charCodeAt(end - 1);
    if (last !== 0x2e && last !== 0x2c && last !== 0x3a && last !== 0x21 && last !== 0x3f) break;
    end--;
  }
  return end;
}

/**
 * A credential, not words: 8+ characters, and 20+ or something besides lowercase letters and dots
 * ("authentication", "authentication.the" where a sentence runs into the next message).
 */
export function looksLikeCredential(text: string, from: number, end: number): boolean {
  const length = end - from;
  if (length < 8) return false;
  if (length >= 20) return true;
  for (let k = from; k < end; k++) {
    const c = code(text, k);
    if ((c < 0x61 || c > 0x7a) && c !== 0x2e) return true;
  }
  return false;
}

/** Counts digits, upper and lower case letters and other characters in [from, to) into `counts`. */
export function census(text: string, from: number, to: number): void {
  let digits = 0;
  let upper = 0;
  let lower = 0;
  let symbols = 0;
  for (let k = from; k < to; k++) {
    const c = code(text, k);
    if (c >= 0x30 && c <= 0x39) digits++;
    else if (c >= 0x41 && c <= 0x5a) upper++;
    else if (c >= 0x61 && c <= 0x7a) lower++;
    else symbols++;
  }
  counts.digits = digits;
  counts.upper = upper;
  counts.lower = lower;
  counts.symbols = symbols;
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isLetter = (c: number): boolean => (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;

/** Whether [from, to) holds a character `test` accepts; remembers a range without one (`slot` 0 or 2). */
function holds(text: string, from: number, to: number, slot: number, test: (c: number) => boolean): boolean {
  let k = from >= free[slot]! && from < free[slot + 1]! ? free[slot + 1]! : from;
  for (; k < to; k++) if (test(code(text, k))) return true;
  if (!(from >= free[slot]! && from <= free[slot + 1]!)) free[slot] = from;
  free[slot + 1] = Math.max(to, free[slot + 1]!);
  return false;
}

/** Whether [from, to) holds a digit and a letter. Linear over many overlapping windows. */
export function hasDigitAndLetter(text: string, from: number, to: number): boolean {
  return holds(text, from, to, 0, isDigit) && holds(text, from, to, 2, isLetter);
}
