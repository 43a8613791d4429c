import { SessionFileCorruptError } from '../errors/session-errors.js';
import type { SessionEntry } from './entries.js';
import { parseEntry } from './entry-shape.js';
import type { SessionMessage } from './message.js';
import type { SessionFs } from './session-fs.js';

/** What a session file holds, read line by line. */
export interface LoadedSessionFile<M extends SessionMessage> {
  entries: SessionEntry<M>[];
  /** Bytes of the lines kept: every complete line, and an unterminated last one that parsed. */
  keptBytes: number;
  /** Bytes in the file; past `keptBytes` is a torn last line (or blank space) to cut off. */
  fileBytes: number;
  /** The last entry lacks only its newline (a crash between the two). */
  unterminated: boolean;
  /** The 1-based number of a torn last line: unterminated and unreadable (a crash mid-write). */
  tornLine?: number;
}

export interface ReadLimits {
  /** Bytes read per call. */
  chunkBytes: number;
  /** The longest line read, in bytes. */
  maxLineBytes: number;
}

const NEWLINE = 10;

/**
 * Reads a session file from `fd` as a stream of lines, `chunkBytes` at a time: the file is never held as one
 * string (V8 caps a string at about 512 MB), only one line at a time. Lines are split on `\n` alone (a JSON string
 * may hold U+2028). Each line must be UTF-8 JSON of a session entry; any other line throws
 * `SessionFileCorruptError` naming it, except a last line without its newline that does not parse: a torn write,
 * reported as `tornLine`.
 */
export function readSessionFile<M extends SessionMessage>(
  fs: SessionFs,
  fd: number,
  path: string,
  limits: ReadLimits,
): LoadedSessionFile<M> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const entries: SessionEntry<M>[] = [];
  // A line never exceeds the bound within one chunk; across chunks `pendingBytes` counts it.
  const chunk = new Uint8Array(Math.min(limits.chunkBytes, limits.maxLineBytes));
  // The start of a line that continues in the next chunk (copied: the chunk buffer is reused).
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let line = 1;
  let keptBytes = 0;
  let position = 0;

  const corrupt = (problem: string, cause?: unknown) =>
    new SessionFileCorruptError({ path, line, problem, cause });
  const tooLong = () =>
    corrupt(`is longer than ${limits.maxLineBytes} bytes, more than can be read into one string`);
  /** Decodes whole lines at once (one call per chunk, not per line); names the line that is not UTF-8. */
  const decode = (bytes: Uint8Array): string => {
    try {
      return decoder.decode(bytes);
    } catch (error) {
      let start = 0;
      for (let end = bytes.indexOf(NEWLINE); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
        try {
          decoder.decode(bytes.subarray(start, end));
        } catch {
          break;
        }
        line++;
        start = end + 1;
      }
      throw corrupt('is not valid UTF-8', error);
    }
  };
  /** Adds the entry of a line; for the unterminated last line, `false` when it does not parse (torn). */
  const addEntry = (text: string, last = false): boolean => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      if (last) return false;
      throw corrupt('is not valid JSON', error);
    }
    const parsed = parseEntry<M>(value);
    if ('problem' in parsed) throw corrupt(parsed.problem);
    entries.push(parsed.entry);
    return true;
  };

  for (;;) {
    const read = fs.readSync(fd, chunk, 0, chunk.length, position);
    if (read <= 0) break;
    position += read;
    const view = chunk.subarray(0, read);
    const last = view.lastIndexOf(NEWLINE);
    if (last !== -1) {
      if (pendingBytes + view.indexOf(NEWLINE) > limits.maxLineBytes) throw tooLong();
      const whole = view.subarray(0, last + 1);
      const bytes = pending.length === 0 ? whole : concat([...pending, whole], pendingBytes + whole.length);
      const lines = decode(bytes).split('\n');
      lines.pop(); // '' after the last newline
      for (const text of lines) {
        if (text.trim() !== '') addEntry(text);
        line++;
      }
      keptBytes += bytes.length;
      pending = [];
      pendingBytes = 0;
    }
    const rest = view.subarray(last + 1);
    // Past the bound the bytes are not kept: the line fails when it ends (or is torn, if it never does).
    if (rest.length > 0 && pendingBytes <= limits.maxLineBytes) pending.push(rest.slice());
    pendingBytes += rest.length;
  }

  const result = { entries, keptBytes, fileBytes: position, unterminated: false };
  if (pendingBytes === 0) return result;
  // Every line a writer finished ends with '\n': the bytes after the last one are a torn write, or an entry that
  // lost only its newline.
  if (pendingBytes > limits.maxLineBytes) return { ...result, tornLine: line };
  let tail: string;
  try {
    tail = decoder.decode(concat(pending, pendingBytes));
  } catch {
    return { ...result, tornLine: line };
  }
  if (tail.trim() === '') return result;
  if (!addEntry(tail, true)) return { ...result, tornLine: line };
  return { ...result, keptBytes: keptBytes + pendingBytes, unterminated: true };
}

function concat(parts: readonly Uint8Array[], length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes;
}
