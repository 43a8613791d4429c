import * as fs from 'node:fs';
import { appendFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import {
  SessionFileCorruptError,
  SessionLockedError,
  SessionStoreClosedError,
} from '../../../src/errors/session-errors.js';
import { contextFromEntries, type SessionEntry } from '../../../src/session/entries.js';
import { JsonlSessionStore } from '../../../src/session/jsonl-store.js';
import {
  contents,
  freshPath,
  fsError,
  openError,
  openStore,
  quiet,
  type SessionFs,
  user,
} from './fixtures/session-files.js';

const line = (entry: unknown) => `${JSON.stringify(entry)}\n`;

describe('JsonlSessionStore: loading', () => {
  it('writes one JSON line per entry and restores them in order', () => {
    const path = freshPath();
    const store = openStore(path);
    store.append(user('a'));
    store.append({
      type: 'auto_retry_start',
      at: 2,
      attempt: 1,
      maxRetries: 3,
      delayMs: 2000,
      errorMessage: 'x',
    });
    store.append(user('b'));
    store.close();
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[1]!)).toMatchObject({ type: 'auto_retry_start', attempt: 1 });
    const again = openStore(path);
    expect(again.entries).toEqual(store.entries);
    expect(contextFromEntries(again.entries).map((m) => m.content)).toEqual(['a', 'b']);
  });

  it('skips a torn last line with a warning, keeps everything before it, and appends cleanly after', () => {
    const path = freshPath();
    const store = openStore(path);
    store.append(user('a'));
    store.append(user('b'));
    store.close();
    appendFileSync(path, '{"type":"message","at":3,"mess');
    const warn = vi.fn();
    const reopened = openStore(path, { logger: { ...quiet, warn } });
    expect(contents(reopened.entries)).toEqual(['a', 'b']);
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('torn last line'),
      expect.objectContaining({ line: 3 }),
    );
    reopened.append(user('c'));
    reopened.close();
    expect(contents(openStore(path).entries)).toEqual(['a', 'b', 'c']);
  });

  it('keeps a complete last entry that lost only its newline', () => {
    const path = freshPath();
    writeFileSync(path, `${line(user('a'))}${JSON.stringify(user('b'))}`);
    openStore(path).close();
    expect(readFileSync(path, 'utf8').endsWith('\n')).toBe(true);
    expect(openStore(path).entries).toHaveLength(2);
  });

  it('refuses an unreadable line before the last one, and releases the lock', () => {
    const path = freshPath();
    writeFileSync(path, `${line(user('a'))}not json\n${line(user('b'))}`);
    const error = openError(path);
    expect(SessionFileCorruptError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('Line 2');
    expect((error as Error).message).toContain('is not valid JSON');
    // Opening again meets the same line, not a lock left behind.
    expect(SessionFileCorruptError.isInstance(openError(path))).toBe(true);
  });

  it.each<[string, string, RegExp]>([
    ['null', 'null', /is null, not a session entry/],
    ['a number', '42', /is a number, not a session entry/],
    ['a list', '[1]', /is a list, not a session entry/],
    ['no type', '{"at":1}', /`type` is missing/],
    ['an unknown type', '{"type":"note","at":1}', /type "note" is unknown/],
    ['no time', '{"type":"message","message":{"role":"user","content":"x"}}', /`at` is not a number/],
    ['a message entry without message', '{"type":"message","at":1}', /`message` is not a message object/],
    ['a message that is null', '{"type":"message","at":1,"message":null}', /`message` is not a message/],
    ['a message of no role', '{"type":"message","at":1,"message":{"role":"robot","content":"x"}}', /role/],
    [
      'a message without content',
      '{"type":"message","at":1,"message":{"role":"user"}}',
      /content` is missing/,
    ],
    [
      'a compaction whose messages is a string',
      '{"type":"compaction","at":1,"messages":"abc","removedCount":0}',
      /`messages` is not a list of messages/,
    ],
    [
      'a compaction holding a bad message',
      '{"type":"compaction","at":1,"messages":[{"role":"user","content":"a"},null],"removedCount":0}',
      /`messages\[1\]` is not a message object/,
    ],
    [
      'an error entry whose error is a string',
      '{"type":"error","at":1,"error":"x","kind":"transient","reason":"r"}',
      /`error` is not \{ name, message \}/,
    ],
    [
      'an error entry of an unknown kind',
      '{"type":"error","at":1,"error":{"name":"E","message":"m"},"kind":"weird","reason":"r"}',
      /`kind`/,
    ],
    [
      'an error entry whose partial output is not a list',
      '{"type":"error","at":1,"error":{"name":"E","message":"m"},"kind":"transient","reason":"r","partial":{}}',
      /`partial` is not a list/,
    ],
    [
      'a retry start without numbers',
      '{"type":"auto_retry_start","at":1,"errorMessage":"x"}',
      /must be numbers/,
    ],
    [
      'a retry end without success',
      '{"type":"auto_retry_end","at":1,"attempt":1}',
      /`success` must be a boolean/,
    ],
  ])(
    'refuses %s as SessionFileCorruptError naming the line, wherever it is, and releases the lock',
    (_, bad, problem) => {
      for (const [text, lineNumber] of [
        [`${line(user('a'))}${bad}\n${line(user('b'))}`, 2],
        [`${line(user('a'))}${bad}\n`, 2],
        // Unterminated but complete JSON: no torn write looks like this, so it is not skipped either.
        [`${line(user('a'))}${bad}`, 2],
      ] as const) {
        const path = freshPath();
        writeFileSync(path, text);
        const error = openError(path);
        expect(SessionFileCorruptError.isInstance(error), String(error)).toBe(true);
        expect((error as SessionFileCorruptError).line).toBe(lineNumber);
        expect((error as Error).message).toMatch(problem);
        expect((error as Error).message).toMatch(/Repair or remove that line/);
        expect(SessionLockedError.isInstance(openError(path))).toBe(false);
      }
    },
  );

  it('refuses a line that is not UTF-8, naming it', () => {
    const path = freshPath();
    const bad = Buffer.concat([
      Buffer.from('{"type":"message","at":1,"message":{"role":"user","content":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}}\n'),
    ]);
    writeFileSync(path, Buffer.concat([Buffer.from(line(user('a'))), bad, Buffer.from(line(user('b')))]));
    const error = openError(path);
    expect((error as SessionFileCorruptError).line).toBe(2);
    expect((error as Error).message).toMatch(/is not valid UTF-8/);
  });

  it('reads the file as a stream of lines, a chunk at a time (multi-byte characters and U+2028 across chunks)', () => {
    const path = freshPath();
    const texts = ['plain', 'emoji 😀😀 and ünïcödé', 'line\u2028separator\u2029paragraph', 'x'.repeat(50)];
    writeFileSync(path, texts.map((text, i) => line(user(text, i))).join(''));
    const sizes: number[] = [];
    const readSync: SessionFs['readSync'] = (fd, buffer, offset, length, position) => {
      sizes.push(length);
      return fs.readSync(fd, buffer, offset, length, position);
    };
    const store = openStore(path, {}, { fs: { readSync }, chunkBytes: 7 });
    expect(contents(store.entries)).toEqual(texts);
    expect(Math.max(...sizes)).toBe(7);
    expect(sizes.length).toBeGreaterThan(statSync(path).size / 7);
  });

  it('loads a file far larger than the longest line it can read, and names a line over that bound', () => {
    const path = freshPath();
    const many = Array.from({ length: 200 }, (_, i) => user(`entry ${i}`, i));
    writeFileSync(path, many.map(line).join(''));
    expect(statSync(path).size).toBeGreaterThan(20 * 200);
    expect(openStore(path, {}, { maxLineBytes: 200, chunkBytes: 64 }).entries).toEqual(many);

    const long = freshPath();
    writeFileSync(long, `${line(user('a'))}${line(user('y'.repeat(500)))}${line(user('b'))}`);
    const error = openError(long, {}, { maxLineBytes: 200, chunkBytes: 64 });
    expect((error as SessionFileCorruptError).line).toBe(2);
    expect((error as Error).message).toMatch(/is longer than 200 bytes/);
  });

  it('cuts off a torn last line longer than the bound (it cannot be a complete entry it could read)', () => {
    const path = freshPath();
    writeFileSync(
      path,
      `${line(user('a'))}{"type":"message","at":1,"message":{"role":"user","content":"${'z'.repeat(500)}`,
    );
    const store = openStore(path, { logger: quiet }, { maxLineBytes: 200, chunkBytes: 64 });
    expect(contents(store.entries)).toEqual(['a']);
    expect(readFileSync(path, 'utf8')).toBe(line(user('a')));
  });
});

describe('JsonlSessionStore: appends are all or nothing', () => {
  /** A file layer whose writes go through `write` (given the real write) instead of node:fs. */
  const withWrites = (
    write: (real: SessionFs['writeSync'], ...args: Parameters<SessionFs['writeSync']>) => number,
  ) => ({
    fs: {
      writeSync: ((fd, buffer, offset, length) =>
        write((...a) => fs.writeSync(...a), fd, buffer, offset, length)) as SessionFs['writeSync'],
    },
  });

  it('completes short writes', () => {
    const path = freshPath();
    const calls: number[] = [];
    const store = openStore(
      path,
      {},
      withWrites((real, fd, buffer, offset, length) => {
        calls.push(length);
        return real(fd, buffer, offset, Math.min(length, 5));
      }),
    );
    store.append(user('hello, a line longer than five bytes'));
    store.close();
    expect(calls.length).toBeGreaterThan(5);
    expect(contents(openStore(path).entries)).toEqual(['hello, a line longer than five bytes']);
  });

  it('a short write followed by a full disk is rolled back: no half line, and later appends land cleanly', () => {
    const path = freshPath();
    let diskFull = false;
    const store = openStore(
      path,
      {},
      withWrites((real, fd, buffer, offset, length) => {
        if (!diskFull) return real(fd, buffer, offset, length);
        if (offset === 0) return real(fd, buffer, offset, 10);
        throw fsError('ENOSPC');
      }),
    );
    store.append(user('a'));
    const before = readFileSync(path, 'utf8');
    diskFull = true;
    expect(() => store.append(user('b'))).toThrow(/ENOSPC/);
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(contents(store.entries)).toEqual(['a']);
    diskFull = false;
    store.append(user('c'));
    store.close();
    const warn = vi.fn();
    expect(contents(openStore(path, { logger: { ...quiet, warn } }).entries)).toEqual(['a', 'c']);
    expect(warn).not.toHaveBeenCalled();
  });

  it('appendAll writes several entries as one unit: a failure in the second line keeps none', () => {
    const path = freshPath();
    let budget = Number.POSITIVE_INFINITY;
    const store = openStore(
      path,
      {},
      withWrites((real, fd, buffer, offset, length) => {
        if (budget <= 0) throw fsError('ENOSPC');
        const written = real(fd, buffer, offset, Math.min(length, budget));
        budget -= written;
        return written;
      }),
    );
    store.append(user('a'));
    const before = readFileSync(path, 'utf8');
    budget = line(user('b')).length + 5;
    expect(() => store.appendAll([user('b'), user('c')])).toThrow(/ENOSPC/);
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(contents(store.entries)).toEqual(['a']);
  });

  it('when the rollback fails too, the partial line is cut before the next append (or on the next open)', () => {
    const path = freshPath();
    let fail = true;
    let truncateFails = true;
    const store = openStore(
      path,
      {},
      {
        fs: {
          writeSync: (fd, buffer, offset, length) => {
            if (!fail) return fs.writeSync(fd, buffer, offset, length);
            fail = false;
            fs.writeSync(fd, buffer, offset, 7);
            throw fsError('EIO');
          },
          ftruncateSync: (fd, length) => {
            if (truncateFails) throw fsError('EIO', 'ftruncate');
            fs.ftruncateSync(fd, length);
          },
        },
      },
    );
    expect(() => store.append(user('a'))).toThrow(/EIO/);
    expect(readFileSync(path, 'utf8')).toHaveLength(7);
    // The next append must cut the fragment first; while it cannot, nothing is appended behind it.
    expect(() => store.append(user('b'))).toThrow(/ftruncate/);
    expect(readFileSync(path, 'utf8')).toHaveLength(7);
    truncateFails = false;
    store.append(user('c'));
    expect(readFileSync(path, 'utf8')).toBe(line(user('c')));
    expect(contents(store.entries)).toEqual(['c']);
  });

  it('a value JSON cannot hold (a BigInt) is refused before a byte is written', () => {
    const path = freshPath();
    const store = openStore(path);
    expect(() => store.append({ type: 'message', at: 1, message: { role: 'tool', content: 10n } })).toThrow(
      TypeError,
    );
    expect(readFileSync(path, 'utf8')).toBe('');
    expect(store.entries).toEqual([]);
  });

  it('a file system that writes nothing fails the append instead of looping', () => {
    const store = openStore(
      freshPath(),
      {},
      withWrites(() => 0),
    );
    expect(() => store.append(user('a'))).toThrow(/wrote none of the last/);
  });

  it('fsync: true flushes after every append; the default does not', () => {
    const fsyncSync = vi.fn((fd: number) => fs.fsyncSync(fd));
    const synced = openStore(freshPath(), { fsync: true }, { fs: { fsyncSync } });
    synced.append(user('a'));
    synced.appendAll([user('b'), user('c')]);
    expect(fsyncSync).toHaveBeenCalledTimes(2);
    fsyncSync.mockClear();
    openStore(freshPath(), {}, { fs: { fsyncSync } }).append(user('a'));
    expect(fsyncSync).not.toHaveBeenCalled();
    expect(() => new JsonlSessionStore(freshPath(), { fsync: 'yes' as never })).toThrow(
      "option 'fsync' must be true or false",
    );
  });

  it('a closed store refuses appends', () => {
    const store = openStore(freshPath());
    store.close();
    let thrown: unknown;
    try {
      store.append(user('a'));
    } catch (error) {
      thrown = error;
    }
    expect(SessionStoreClosedError.isInstance(thrown)).toBe(true);
    expect(String(thrown)).toMatch(/is closed; open a new JsonlSessionStore/);
  });

  it('every entry type round-trips: what a new store loads equals what was appended', () => {
    const path = freshPath();
    const store = openStore(path);
    const entries: SessionEntry[] = [
      user('a'),
      { type: 'error', at: 2, error: { name: 'E', message: 'm' }, kind: 'transient', reason: 'status:503' },
      { type: 'auto_retry_end', at: 3, success: true, attempt: 1 },
      { type: 'compaction', at: 4, messages: [{ role: 'system', content: 's' }], removedCount: 2 },
    ];
    store.appendAll(entries);
    store.close();
    expect(openStore(path).entries).toEqual(entries);
  });
});
