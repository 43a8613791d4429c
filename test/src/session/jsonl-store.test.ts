import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  SessionFileCorruptError,
  SessionLockedError,
  SessionStoreClosedError,
} from '../../../src/errors/session-errors.js';
import { contextFromEntries, type SessionEntry } from '../../../src/session/entries.js';
import { JsonlSessionStore } from '../../../src/session/jsonl-store.js';

const dir = mkdtempSync(join(tmpdir(), 'graceful-jsonl-'));
let n = 0;
const fresh = () => join(dir, `session-${n++}.jsonl`);
const opened: JsonlSessionStore[] = [];
const open = (path: string, options?: ConstructorParameters<typeof JsonlSessionStore>[1]) => {
  const store = new JsonlSessionStore(path, options);
  opened.push(store);
  return store;
};
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

const user = (content: string): SessionEntry => ({
  type: 'message',
  at: 1,
  message: { role: 'user', content },
});

describe('JsonlSessionStore', () => {
  it('writes one JSON line per entry and restores them in order', () => {
    const path = fresh();
    const store = open(path);
    store.append(user('a'));
    store.append({
      type: 'auto_retry_start',
      at: 2,
      attempt: 1,
      maxRetries: 3,
      maxAttempts: 3,
      delayMs: 2000,
      errorMessage: 'x',
    });
    store.append(user('b'));
    store.close();
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[1]!)).toMatchObject({ type: 'auto_retry_start', attempt: 1 });
    const again = open(path);
    expect(again.entries).toEqual(store.entries);
    expect(contextFromEntries(again.entries).map((m) => m.content)).toEqual(['a', 'b']);
  });

  it('skips a torn last line with a warning, keeps everything before it, and appends cleanly after', () => {
    const path = fresh();
    const store = open(path);
    store.append(user('a'));
    store.append(user('b'));
    store.close();
    appendFileSync(path, '{"type":"message","at":3,"mess');
    const warn = vi.fn();
    const reopened = open(path, { logger: { debug() {}, info() {}, warn, error() {} } });
    expect(reopened.entries.map((e) => e.type === 'message' && e.message.content)).toEqual(['a', 'b']);
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('torn last line'),
      expect.objectContaining({ line: 3 }),
    );
    reopened.append(user('c'));
    reopened.close();
    const third = open(path);
    expect(third.entries.map((e) => e.type === 'message' && e.message.content)).toEqual(['a', 'b', 'c']);
  });

  it('keeps a complete last entry that lost only its newline', () => {
    const path = fresh();
    writeFileSync(path, `${JSON.stringify(user('a'))}\n${JSON.stringify(user('b'))}`);
    open(path).close();
    expect(readFileSync(path, 'utf8').endsWith('\n')).toBe(true);
    expect(open(path).entries).toHaveLength(2);
  });

  it('refuses an unreadable line before the last one', () => {
    const path = fresh();
    writeFileSync(path, `${JSON.stringify(user('a'))}\nnot json\n${JSON.stringify(user('b'))}\n`);
    const error = (() => {
      try {
        open(path);
      } catch (e) {
        return e;
      }
    })();
    expect(SessionFileCorruptError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('Line 2');
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('refuses a second store on the same file while the first is open, and allows it after close()', () => {
    const path = fresh();
    const first = open(path);
    expect(readFileSync(`${path}.lock`, 'utf8')).toBe(String(process.pid));
    expect(() => new JsonlSessionStore(path)).toThrow(SessionLockedError);
    first.close();
    expect(existsSync(`${path}.lock`)).toBe(false);
    expect(() => open(path)).not.toThrow();
  });

  it('takes over a stale lock left by a dead process', () => {
    const path = fresh();
    const dead = spawnSync(process.execPath, [
      '-e',
      'process.stdout.write(String(process.pid))',
    ]).stdout.toString();
    writeFileSync(`${path}.lock`, dead);
    const store = open(path);
    expect(readFileSync(`${path}.lock`, 'utf8')).toBe(String(process.pid));
    store.append(user('a'));
    expect(store.entries).toHaveLength(1);
  });

  it('refuses a lock held by another live process', () => {
    const path = fresh();
    writeFileSync(`${path}.lock`, '4242');
    expect(() => open(path, { isProcessAlive: (pid) => pid === 4242 })).toThrow(/in use by process 4242/);
  });

  it('a closed store refuses appends', () => {
    const store = open(fresh());
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
});
