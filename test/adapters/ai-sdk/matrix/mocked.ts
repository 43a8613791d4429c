/** What every matrix file shares: the fault kit's MSW handlers on every wire, an injected sleep, a stream reader. */
import type { TextStreamPart, ToolSet } from 'ai';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { RecordedRequest, Script } from '../../../../mocks/index.js';
import { mockHandlers } from '../../../../mocks/msw.js';
import type { Sleep } from '../../../../src/util/time.js';

/**
 * Registers MSW for this file (unhandled requests are errors, never the network) and returns `mock(script)`, which
 * serves `script` on every wire at the providers' own base URLs and returns the recorded requests.
 */
export function mockEveryWire(): (script: Script) => RecordedRequest[] {
  const msw = setupServer();
  beforeAll(() => msw.listen({ onUnhandledFrame: 'error' }));
  afterEach(() => msw.resetHandlers());
  afterAll(() => msw.close());
  return (script) => {
    const handlers = mockHandlers(script);
    msw.use(...handlers);
    return handlers.requests;
  };
}

/** A sleep that returns at once and records each delay it was asked for (no real timer anywhere). */
export function recordedSleep(): { sleep: Sleep; delays: number[] } {
  const delays: number[] = [];
  const sleep: Sleep = async (ms, signal) => {
    delays.push(ms);
    if (signal?.aborted) throw signal.reason;
  };
  return { sleep, delays };
}

/** Reads a whole `fullStream`: its parts and the text the consumer was shown (every text delta, in order). */
export async function readStream<T extends ToolSet>(stream: AsyncIterable<TextStreamPart<T>>) {
  const parts: TextStreamPart<T>[] = [];
  for await (const part of stream) parts.push(part);
  const shown = parts.map((p) => (p.type === 'text-delta' ? p.text : '')).join('');
  return { parts, shown };
}
