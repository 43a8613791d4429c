import { describe, expect, it } from 'vitest';
import { TurnTrace } from '../../../src/observe/trace.js';

describe('TurnTrace', () => {
  it('keeps the newest maxEntries, counts the dropped ones and serialises to JSON', () => {
    let now = 0;
    const trace = new TurnTrace({ maxEntries: 3, clock: { now: () => now++ } });
    for (let i = 0; i < 5; i++) {
      trace.record({
        event_type: 'tool_retry',
        toolName: `t${i}`,
        decision: 'retry',
        error: new Error(`e${i}`),
        classification: { kind: 'transient', reason: 'status:503' },
        circuit_breaker_state: 'closed',
        retry_count: i,
      });
    }
    expect(trace.dropped).toBe(2);
    const json = JSON.parse(JSON.stringify(trace));
    expect(json.dropped).toBe(2);
    expect(json.entries).toHaveLength(3);
    expect(json.entries[0]).toEqual({
      event_type: 'tool_retry',
      toolName: 't2',
      error: 'Error: e2',
      classification: { kind: 'transient', reason: 'status:503' },
      circuit_breaker_state: 'closed',
      retry_count: 2,
      decision: 'retry',
      timestamp: 2,
    });
  });

  it('stores errors as bounded text and missing fields as null', () => {
    const trace = new TurnTrace();
    trace.record({ event_type: 'x', toolName: 't', decision: 'ok', error: 'y'.repeat(5_000) });
    expect(trace.entries[0]!.error).toHaveLength(1000);
    expect(trace.entries[0]).toMatchObject({
      classification: null,
      circuit_breaker_state: null,
      retry_count: 0,
    });
  });
});
