/**
 * Shared cool-downs in the trace (OpenTelemetry SDK, in-memory exporter, `@ai-sdk/otel`'s integration): a retry-after
 * announced, waited out by the next call, and refused when longer than a call may wait — each a span event on the
 * guard attempt whose request met it. No event names the key (it holds a fingerprint of the API key).
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { streamText } from '../../../../adapters/ai-sdk/drop-in/stream-text.js';
import { InMemoryCoordination } from '../../../../src/policy/shared-cooldowns.js';
import type { Sleep } from '../../../../src/util/time.js';
import { installOtel } from '../otel-harness.js';
import { apiError, finish, preamble, scriptedModel, streamOf, textParts } from '../stream-guard-fixtures.js';

const otel = installOtel();
afterEach(() => otel.reset());
afterAll(() => otel.uninstall());

const answer = (text: string) => streamOf([...preamble('r1'), ...textParts(text), finish()]);
const rateLimited = (seconds: number) => apiError(429, { headers: { 'retry-after': String(seconds) } });
const silent = { onError: () => {} };

/** A coordination on a clock that only the guard's sleeps move. */
function shared() {
  let now = 0;
  const sleep: Sleep = async (ms) => {
    now += ms;
  };
  return { coordination: new InMemoryCoordination({ clock: { now: () => now } }), sleep };
}

const attemptEvents = () =>
  otel
    .spans()
    .filter((s) => s.name === 'graceful-ai.attempt')
    .map((s) => [s.attributes['graceful_ai.attempt.number'], s.events.map((e) => [e.name, e.attributes])]);

describe('shared cool-downs in the trace', () => {
  it('a 429 with retry-after announces on its attempt; the next call waits it out on its own', async () => {
    const { coordination, sleep } = shared();
    const id = { provider: 'openai.chat', modelId: 'gpt-cooldown-1' };
    const first = scriptedModel([{ throws: rateLimited(2) }], [], id);
    const failed = streamText({
      model: first,
      prompt: 'hi',
      maxRetries: 0,
      coordination,
      streamGuard: { sleep },
      ...silent,
    });
    await expect(failed.text).rejects.toThrow();
    expect(attemptEvents()).toEqual([
      [1, [['graceful_ai.cooldown.announced', { 'graceful_ai.cooldown.ms': 2000 }]]],
    ]);
    otel.reset();

    const second = scriptedModel([answer('Hello.')], [], id);
    const text = await streamText({ model: second, prompt: 'hi', coordination, streamGuard: { sleep } }).text;
    expect(text).toBe('Hello.');
    expect(attemptEvents()).toEqual([
      [1, [['graceful_ai.cooldown.wait', { 'graceful_ai.cooldown.wait_ms': 2000 }]]],
    ]);
  });

  it('a cool-down longer than the call may wait: a rejected event on the attempt that did not go out', async () => {
    const { coordination, sleep } = shared();
    const id = { provider: 'openai.chat', modelId: 'gpt-cooldown-2' };
    const options = { prompt: 'hi', maxRetries: 0, coordination, streamGuard: { sleep }, ...silent };
    await streamText({
      ...options,
      model: scriptedModel([{ throws: rateLimited(30) }], [], id),
    }).consumeStream();
    otel.reset();
    const result = streamText({
      ...silent,
      model: scriptedModel([answer('never')], [], id),
      prompt: 'hi',
      maxRetries: 0,
      coordination,
      streamGuard: { sleep, maxRetryAfterMs: 10_000 },
    });
    await expect(result.text).rejects.toThrow();
    expect(attemptEvents()).toEqual([
      [
        1,
        [
          [
            'graceful_ai.cooldown.rejected',
            { 'graceful_ai.cooldown.retry_after_ms': 30_000, 'graceful_ai.cooldown.max_wait_ms': 10_000 },
          ],
        ],
      ],
    ]);
  });
});
