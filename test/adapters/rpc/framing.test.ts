/**
 * The RPC line framing (adapters/rpc/framing.ts): any JSON value, with any string content, survives write → read as
 * exactly one frame, however the bytes are chunked; and the reader survives any bytes.
 */
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeFrame, readFrames } from '../../../adapters/rpc/framing.js';

/** Characters that break line protocols, lone surrogates, astral characters, and any other UTF-16 unit. */
const hostileChar = fc.oneof(
  fc.constantFrom(
    '\u2028',
    '\u2029',
    '\n',
    '\r',
    '\r\n',
    '\u0085',
    '"',
    '\\',
    '\u0000',
    '\ud800',
    '\udfff',
    '😀',
  ),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
const text = fc.string({ unit: hostileChar, maxLength: 20 });
const { json } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    text,
    fc.array(tie('json'), { maxLength: 4 }),
    fc.dictionary(text, tie('json'), { maxKeys: 4 }),
  ),
}));

/** Cut points into a byte string: the reader must not care where chunks end (mid-character included). */
function chunked(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    if (point > start) chunks.push(bytes.subarray(start, point));
    start = point;
  }
  return chunks;
}

/** Every frame `readFrames` delivers for these chunks, once the input has ended. */
async function readAll(chunks: Buffer[]): Promise<string[]> {
  const input = new PassThrough();
  const frames: string[] = [];
  const ended = new Promise<void>((resolve) =>
    readFrames(
      input,
      (f) => frames.push(f),
      () => resolve(),
    ),
  );
  for (const chunk of chunks) input.write(chunk);
  input.end();
  await ended;
  return frames;
}

/** What node:readline (an older peer's reader) makes of the same bytes. */
async function readWithReadline(bytes: Buffer): Promise<string[]> {
  const input = new PassThrough();
  const lines: string[] = [];
  const reader = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  reader.on('line', (line) => lines.push(line));
  const closed = new Promise((resolve) => reader.once('close', resolve));
  input.end(bytes);
  await closed;
  return lines;
}

describe('RPC framing', () => {
  it('round trip: any JSON values with any strings are read back as exactly one frame each, however chunked', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(json, { minLength: 1, maxLength: 5 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        async (values, cuts) => {
          const frames = values.map(encodeFrame);
          for (const frame of frames) {
            // One line in any line protocol: no break of any kind before the final `\n`.
            expect(frame.slice(0, -1)).not.toMatch(/[\n\r\u2028\u2029]/);
            expect(frame.endsWith('\n')).toBe(true);
          }
          const bytes = Buffer.from(frames.join(''), 'utf8');
          const read = await readAll(chunked(bytes, cuts));
          expect(read.map((line) => JSON.parse(line))).toEqual(
            values.map((value) => JSON.parse(JSON.stringify(value))),
          );
          // A peer that still reads with readline (which also splits on U+2028/U+2029) gets the same frames.
          expect(await readWithReadline(bytes)).toEqual(read);
        },
      ),
    );
  });

  it('splits on \\n only: U+2028, U+2029, a lone \\r and NEL stay inside the line; CRLF ends one', async () => {
    const raw = '{"a":"x\u2028y\u2029z\rw\u0085"}\r\n{"b":1}\n';
    const frames = await readAll([Buffer.from(raw)]);
    expect(frames).toEqual(['{"a":"x\u2028y\u2029z\rw\u0085"}', '{"b":1}']);
    // The reason: readline cuts the first line into four (at U+2028, U+2029 and the lone \r).
    expect(await readWithReadline(Buffer.from(raw))).toEqual(['{"a":"x', 'y', 'z', 'w\u0085"}', '{"b":1}']);
  });

  it('escapes U+2028/U+2029 as JSON escapes: the same value, on one line', () => {
    expect(encodeFrame({ t: 'a\u2028b\u2029c' })).toBe('{"t":"a\\u2028b\\u2029c"}\n');
  });

  it('refuses a value without a JSON form, and throws what JSON.stringify throws', () => {
    expect(() => encodeFrame(undefined)).toThrow(TypeError);
    expect(() => encodeFrame(() => {})).toThrow(/no JSON form/);
    expect(() => encodeFrame({ n: 1n })).toThrow(/BigInt/);
  });

  it('delivers a last line without \\n at the end, skips blank lines, and ends once', async () => {
    const input = new PassThrough();
    const frames: string[] = [];
    let ends = 0;
    const ended = new Promise<void>((resolve) =>
      readFrames(
        input,
        (f) => frames.push(f),
        () => {
          ends++;
          resolve();
        },
      ),
    );
    input.end('\n  \n{"a":1}\n\r\n{"b":2}');
    await ended;
    input.destroy();
    await new Promise((resolve) => setImmediate(resolve));
    expect(frames).toEqual(['{"a":1}', '{"b":2}']);
    expect(ends).toBe(1);
  });

  it('stop pauses the input, delivers nothing more (not even the rest of the chunk) and ends once', async () => {
    const input = new PassThrough();
    const frames: string[] = [];
    let ends = 0;
    const stop = readFrames(
      input,
      (f) => {
        frames.push(f);
        stop();
      },
      () => ends++,
    );
    input.write('{"a":1}\n{"b":2}\n');
    await new Promise((resolve) => setImmediate(resolve));
    input.write('{"c":3}\n');
    input.end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(frames).toEqual(['{"a":1}']);
    expect(ends).toBe(1);
    expect(input.isPaused()).toBe(true);
  });

  it('an input error ends the reading (with the error) instead of being thrown, also after stop', async () => {
    const input = new PassThrough();
    let ended: unknown = 'not yet';
    const stop = readFrames(
      input,
      () => {},
      (error) => {
        ended = error;
      },
    );
    input.destroy(new Error('EIO'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(ended).toMatchObject({ message: 'EIO' });
    stop();
    const again = new PassThrough();
    readFrames(
      again,
      () => {},
      () => {},
    )();
    again.destroy(new Error('late'));
    await new Promise((resolve) => setImmediate(resolve));
  });

  it('survives any bytes: each delivered frame is a piece between two \\n of the decoded input', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 6 }), async (chunks) => {
        const frames = await readAll(chunks.map((c) => Buffer.from(c)));
        const newlines = chunks.reduce((n, c) => n + c.filter((b) => b === 0x0a).length, 0);
        expect(frames.length).toBeLessThanOrEqual(newlines + 1);
        for (const frame of frames) expect(frame).not.toContain('\n');
      }),
    );
  });
});
