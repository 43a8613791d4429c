import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { SessionEntry } from '../src/session/entries.js';
import { JsonlSessionStore } from '../src/session/jsonl-store.js';
import { type Bench, compareAlternating, median, round } from './harness.js';

/** A realistic mix: user prompts, assistant text, tool calls and results, an occasional retry pair. */
function entry(i: number): SessionEntry {
  switch (i % 6) {
    case 0:
      return {
        type: 'message',
        at: i,
        message: { role: 'user', content: `Question ${i}: what changed in the build?` },
      };
    case 1:
      return {
        type: 'message',
        at: i,
        message: {
          role: 'assistant',
          content: [
            { type: 'tool-call', toolCallId: `call_${i}`, toolName: 'readFile', input: { path: 'src/x.ts' } },
          ],
        },
      };
    case 2:
      return {
        type: 'message',
        at: i,
        message: {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: `call_${i - 1}`,
              toolName: 'readFile',
              output: { type: 'text', value: 'export const x = 1;\n'.repeat(4) },
            },
          ],
        },
      };
    case 3:
      return {
        type: 'error',
        at: i,
        error: { name: 'AI_APICallError', message: 'The server is overloaded or not ready yet.' },
        kind: 'transient',
        reason: 'status:503',
      };
    case 4:
      return { type: 'auto_retry_end', at: i, success: true, attempt: 1 };
    default:
      return {
        type: 'message',
        at: i,
        message: {
          role: 'assistant',
          content: [{ type: 'text', text: `The build changed in step ${i}. `.repeat(3) }],
        },
      };
  }
}

/** How 0.1 loaded a file: the whole file as one string, split, parsed (no shape checks, no streaming). */
function loadLike01(path: string): unknown[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

const dir = () => mkdtempSync(join(tmpdir(), 'graceful-bench-'));

export const benches: Bench[] = [
  {
    name: 'session store: JSONL append throughput',
    async run() {
      const rate = (count: number, fsync: boolean) => {
        const rates: number[] = [];
        for (let r = 0; r < 5; r++) {
          const folder = dir();
          const store = new JsonlSessionStore(join(folder, 's.jsonl'), { fsync });
          const start = performance.now();
          for (let i = 0; i < count; i++) store.append(entry(i));
          rates.push((count / (performance.now() - start)) * 1000);
          store.close();
          rmSync(folder, { recursive: true, force: true });
        }
        return median(rates);
      };
      const unsynced = rate(20_000, false);
      const synced = rate(300, true);
      return {
        name: this.name,
        metrics: {
          entriesPerSecond: Math.round(unsynced),
          entriesPerSecondFsync: Math.round(synced),
          bytesPerEntry: Math.round(
            Array.from({ length: 600 }, (_, i) => JSON.stringify(entry(i)).length + 1).reduce(
              (a, b) => a + b,
            ) / 600,
          ),
        },
        notes:
          'append() of a realistic entry mix (bytesPerEntry), median of 5 runs on the temp dir; entriesPerSecond with ' +
          'the default fsync: false (one write per entry, survives kill -9, not a power loss); entriesPerSecondFsync ' +
          'with fsync: true (one flush per entry)',
      };
    },
  },
  {
    name: 'session store: load a 100k-entry file',
    async run() {
      const folder = dir();
      const path = join(folder, 's.jsonl');
      const count = 100_000;
      writeFileSync(path, Array.from({ length: count }, (_, i) => `${JSON.stringify(entry(i))}\n`).join(''));
      const bytes = readFileSync(path).length;
      const load = () => {
        const store = new JsonlSessionStore(path);
        if (store.entries.length !== count) throw new Error('bench: wrong entry count');
        store.close();
      };
      const { medianA, medianB, ratio } = await compareAlternating(() => loadLike01(path), load, {
        rounds: 12,
        warmup: 2,
      });
      rmSync(folder, { recursive: true, force: true });
      return {
        name: this.name,
        metrics: {
          loadMs: round(medianB, 1),
          like01Ms: round(medianA, 1),
          ratio: round(ratio),
          megabytes: round(bytes / 1024 / 1024, 1),
        },
        target: 'ratio <= 1.25',
        met: ratio <= 1.25,
        notes:
          'open (lock, read line by line in 1 MiB chunks, check every entry shape) and close, median of 12; ' +
          'like01Ms: the 0.1 way in the same process (readFileSync of the whole file, split, JSON.parse; no checks, ' +
          'no lock; fails past ~512 MB); target: checks and streaming cost at most 25% over it. 0.1 measured 230 ms ' +
          'on its machine.',
      };
    },
  },
];
