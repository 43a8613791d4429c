/**
 * No graceful-ai timer keeps a process alive once the caller stopped reading or dropped a result. The stall watch
 * (`timeout.chunkMs` in the drop-in, `stallTimeoutMs` in the guard) holds the process only while a read from the
 * provider is pending, and leaves no timer at all once no read has been pending for the stall timeout; cancelling
 * the stream clears it at once.
 */
import { fileURLToPath } from 'node:url';
import { wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { streamText } from '../../../adapters/ai-sdk/drop-in/stream-text.js';
import { streamGuard } from '../../../adapters/ai-sdk/stream-guard/stream-guard.js';
import { runChild } from '../../child.js';
import { finish, type Part, preamble, stallingStream, streamOf, textParts } from './stream-guard-fixtures.js';

const chunkMs = 60_000;
// Long enough that the SDK stops pulling (its buffers are full) before the end: the stream stays open, unread.
const text = 'Hello there, world. '.repeat(50);
const answer = () => [...preamble('r1'), ...textParts(text, { size: 1 }), finish()];
const modelOf = (stream: () => ReadableStream<Part>) =>
  new MockLanguageModelV4({ doStream: async () => ({ stream: stream() }) });

describe('a program that drops results', () => {
  // The child's kill timeout (30 s) marks a hang, so this test's own timeout is longer.
  it('exits by itself after 200 unread results and one left with break, with no timer holding it (child process)', {
    timeout: 60_000,
  }, async () => {
    const outcome = await runChild(
      fileURLToPath(new URL('./fixtures/abandoned-results.ts', import.meta.url)),
      ['200'],
    );
    expect(outcome).toMatchObject({ code: 0, killed: false });
    expect(JSON.parse(outcome.stdout)).toEqual({ holdingTimers: 0 });
  });

  it('but a pending read of a silent in-memory provider holds it until the stall is recovered (child process)', {
    timeout: 60_000,
  }, async () => {
    // An always-unref'd watch would let this program exit at its top-level await (code 13) instead of recovering.
    const outcome = await runChild(fileURLToPath(new URL('./fixtures/stalled-read.ts', import.meta.url)));
    expect(outcome).toMatchObject({ code: 0, killed: false });
    expect(JSON.parse(outcome.stdout)).toEqual({ text: 'Hello world' });
  });
});

describe('the stall watch’s timers (fake timers: every live timer counted)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a result left with break: its watch timer is gone once no read has been pending for chunkMs', async () => {
    const result = streamText({
      model: modelOf(() => streamOf(answer())),
      prompt: 'hi',
      timeout: { chunkMs },
      turnTimeoutMs: false,
    });
    for await (const delta of result.textStream) {
      if (delta) break;
    }
    await vi.advanceTimersByTimeAsync(10);
    // At most the watch's own timer, not holding the process (nothing reads): it is not renewed when it fires.
    expect(vi.getTimerCount()).toBeLessThanOrEqual(1);
    await vi.advanceTimersByTimeAsync(chunkMs);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(10 * chunkMs);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a result never read: no timer is left after chunkMs', async () => {
    streamText({
      model: modelOf(() => streamOf(answer())),
      prompt: 'hi',
      timeout: { chunkMs },
      turnTimeoutMs: false,
    });
    await vi.advanceTimersByTimeAsync(chunkMs + 10);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a result read to the end leaves no timer', async () => {
    const result = streamText({
      model: modelOf(() => streamOf(answer())),
      prompt: 'hi',
      timeout: { chunkMs },
      turnTimeoutMs: false,
    });
    await expect(result.text).resolves.toBe(text);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('cancelling the guarded stream clears the watch at once, also while a read of a silent provider is pending', async () => {
    const model = modelOf(() => stallingStream([...preamble('r1'), ...textParts('Hello', { open: true })]));
    const wrapped = wrapLanguageModel({ model, middleware: streamGuard({ stallTimeoutMs: chunkMs }) });
    const reader = (await wrapped.doStream({ prompt: [] })).stream.getReader();
    await reader.read();
    const pending = reader.read(); // the provider sends nothing more: the watch is armed
    await vi.advanceTimersByTimeAsync(10);
    expect(vi.getTimerCount()).toBe(1);
    await reader.cancel(new Error('the user left'));
    await pending;
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(2 * chunkMs);
    expect(model.doStreamCalls).toHaveLength(1); // no stall fired, so no recovery request
    expect(model.doGenerateCalls).toHaveLength(0);
  });
});
