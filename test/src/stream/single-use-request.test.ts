import { describe, expect, it, vi } from 'vitest';
import { StreamConsumedError } from '../../../src/errors/stream-consumed-error.js';
import { SingleUseRequest, singleUseIterable } from '../../../src/stream/single-use-request.js';

describe('SingleUseRequest', () => {
  it('streams once; a second stream throws StreamConsumedError naming the request and sends nothing', async () => {
    const start = vi.fn(async () => 'stream');
    const request = new SingleUseRequest('stream attempt 1 (openai.chat:gpt-4o)', start);
    await expect(request.stream()).resolves.toBe('stream');
    let error: unknown;
    try {
      request.stream();
    } catch (e) {
      error = e;
    }
    expect(StreamConsumedError.isInstance(error)).toBe(true);
    expect((error as StreamConsumedError).request).toBe('stream attempt 1 (openai.chat:gpt-4o)');
    expect((error as Error).message).toContain('stream attempt 1 (openai.chat:gpt-4o) was already streamed');
    expect(start).toHaveBeenCalledOnce();
  });
});

describe('singleUseIterable', () => {
  async function* numbers() {
    yield 1;
    yield 2;
  }

  it('iterates once, then throws instead of silently yielding nothing', async () => {
    const stream = singleUseIterable(numbers(), 'result.textStream');
    const seen: number[] = [];
    for await (const n of stream) seen.push(n);
    expect(seen).toEqual([1, 2]);
    expect(() => stream[Symbol.asyncIterator]()).toThrow(StreamConsumedError);
    expect(() => stream[Symbol.asyncIterator]()).toThrow(/result\.textStream was already streamed/);
  });
});
