/**
 * The line framing of `graceful-ai/rpc`, shared by the server and the client: one JSON value per line, ended by
 * `\n`. Node's `readline` also ends a line at U+2028 and U+2029, which `JSON.stringify` leaves raw inside strings,
 * so a prompt or an answer holding one would be cut in two. Writers escape both (`\u2028`, `\u2029`: the same JSON
 * value); readers split on `\n` only. Either fix alone keeps this side safe against the other side's old version.
 */

import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

const separators = /[\u2028\u2029]/g;

/**
 * `value` as one frame: its JSON with U+2028/U+2029 escaped, then `\n`. The JSON holds no raw line break of any
 * kind (`JSON.stringify` escapes `\n` and `\r` in strings). Throws what `JSON.stringify` throws (a cycle, a BigInt),
 * and a `TypeError` for a value JSON cannot hold at all (`undefined`, a function).
 */
export function encodeFrame(value: unknown): string {
  const json: string | undefined = JSON.stringify(value);
  if (json === undefined)
    throw new TypeError(`Cannot send ${typeof value} as an RPC line: it has no JSON form.`);
  return `${json.replace(separators, escapeSeparator)}\n`;
}

function escapeSeparator(char: string): string {
  return char === '\u2028' ? '\\u2028' : '\\u2029';
}

/**
 * Reads `input` as frames: calls `onFrame` with each line, split on `\n` only (a `\r` before it is dropped, so CRLF
 * works; blank lines are skipped), UTF-8 decoded across chunk boundaries. A last line without `\n` is delivered at
 * the end. `onEnd` is called once, when the input ends, fails or closes, or when the returned `stop` is called
 * (which also pauses the input, so a process reading `process.stdin` can exit). Linear in the input's size, however
 * it is chunked.
 */
export function readFrames(
  input: Readable,
  onFrame: (line: string) => void,
  onEnd: (error?: unknown) => void,
): () => void {
  const decoder = new StringDecoder('utf8');
  /** The pieces of the line not yet ended (joined once, when its `\n` arrives). */
  let pieces: string[] = [];
  let stopped = false;

  const deliver = (line: string) => {
    const frame = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (frame.trim() !== '') onFrame(frame);
  };
  const onData = (chunk: Buffer | string) => {
    const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1 && !stopped; end = text.indexOf('\n', start)) {
      pieces.push(text.slice(start, end));
      start = end + 1;
      const line = pieces.join('');
      pieces = [];
      deliver(line);
    }
    if (!stopped && start < text.length) pieces.push(text.slice(start));
  };
  const finish = (error?: unknown) => {
    if (stopped) return;
    stopped = true;
    input.off('data', onData);
    input.off('end', onInputEnd);
    input.off('close', onClose);
    onEnd(error);
  };
  const onInputEnd = () => {
    pieces.push(decoder.end());
    const rest = pieces.join('');
    pieces = [];
    if (rest !== '') deliver(rest);
    finish();
  };
  const onClose = () => finish();
  input.on('data', onData);
  input.once('end', onInputEnd);
  input.once('close', onClose);
  // Stays attached: a read error after `stop` must not become an uncaught exception either.
  input.on('error', finish);
  return () => {
    if (stopped) return;
    input.pause();
    finish();
  };
}

/** A line as a short JSON string for an error message: at most 80 characters of it. */
export function previewLine(line: string): string {
  return JSON.stringify(line.length > 80 ? `${line.slice(0, 80)}…` : line);
}
