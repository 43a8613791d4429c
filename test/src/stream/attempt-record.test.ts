import { describe, expect, it } from 'vitest';
import { AttemptRecorder } from '../../../src/stream/attempt-record.js';

describe('AttemptRecorder', () => {
  it('records one attempt as plain JSON: mode, model, outcome, error, classification, chars, duration', () => {
    let now = 1000;
    const clock = { now: () => now };
    const recorder = new AttemptRecorder(2, 'stream', { provider: 'p', modelId: 'm' }, clock);
    recorder.charsEmitted += 12;
    now = 1250;
    const record = recorder.finish({
      error: new TypeError('terminated'),
      classification: { kind: 'transient', reason: 'network' },
    });
    expect(record).toEqual({
      attempt: 2,
      mode: 'stream',
      request: 'stream attempt 2 (p:m)',
      model: { provider: 'p', modelId: 'm' },
      outcome: 'failed',
      error: { name: 'TypeError', message: 'terminated' },
      classification: { kind: 'transient', reason: 'network' },
      charsEmitted: 12,
      durationMs: 250,
    });
    expect(JSON.parse(JSON.stringify(record))).toEqual(record);
  });

  it('a fresh recorder starts from zero: nothing carries over', () => {
    const clock = { now: () => 0 };
    const first = new AttemptRecorder(1, 'stream', { provider: 'p', modelId: 'a' }, clock);
    first.charsEmitted = 40;
    first.finish({ error: { message: 'overloaded' }, classification: { kind: 'transient', reason: 'x' } });
    expect(new AttemptRecorder(2, 'generate', { provider: 'p', modelId: 'b' }, clock).finish()).toEqual({
      attempt: 2,
      mode: 'generate',
      request: 'generate attempt 2 (p:b)',
      model: { provider: 'p', modelId: 'b' },
      outcome: 'ok',
      charsEmitted: 0,
      durationMs: 0,
    });
  });
});
