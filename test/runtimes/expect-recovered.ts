import { expect } from 'vitest';
import { ANSWER, type ProgramResult } from './program.js';

/** Both scenarios answered in full, each character shown once, with the tool run through graceful-ai. */
export function expectRecovered(result: ProgramResult): void {
  expect(result.scenarios.map((s) => s.cut)).toEqual([
    'in-band error part',
    'stream rejects with APICallError',
  ]);
  for (const scenario of result.scenarios) {
    // Streamed up to the cut, then only the rest of the recovered answer: no character twice, none missing.
    expect(scenario.deltas).toEqual(['Paris ', 'is the ', 'capital', ' of France.']);
    expect(scenario.text).toBe(ANSWER);
    expect(scenario.final).toBe(ANSWER);
    // Two tool-calling streams and the cut answer stream; one degraded doGenerate recovered it.
    expect(scenario.doStreamCalls).toBe(3);
    expect(scenario.doGenerateCalls).toBe(1);
    // The tool threw once (the model saw the converted error), then answered.
    expect(scenario.toolExecutions).toBe(2);
    expect(scenario.toolOutputsSeenByModel).toEqual([
      { type: 'error-text', value: expect.stringContaining('geo service unavailable') },
      { type: 'json', value: { country: 'France', capital: 'Paris' } },
    ]);
  }
}
