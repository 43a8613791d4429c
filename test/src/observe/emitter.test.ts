import { describe, expect, it, vi } from 'vitest';
import { Emitter } from '../../../src/observe/emitter.js';

type Events = { ping: { n: number } };

describe('Emitter', () => {
  it('delivers typed events, survives a throwing listener, unsubscribes', () => {
    const logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const emitter = new Emitter<Events>(logger);
    const seen: number[] = [];
    emitter.subscribe(() => {
      throw new Error('bad listener');
    });
    const off = emitter.subscribe((e) => seen.push(e.n));
    emitter.emit('ping', { n: 1 });
    off();
    emitter.emit('ping', { n: 2 });
    expect(seen).toEqual([1]);
    expect(logger.warn).toHaveBeenCalledTimes(2);
  });
});
