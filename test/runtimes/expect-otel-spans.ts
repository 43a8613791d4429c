import { expect } from 'vitest';
import { spanTree } from '../adapters/ai-sdk/span-tree.js';
import { expectRecovered } from './expect-recovered.js';
import type { OtelProgramResult, SpanRecord } from './otel-program.js';

/** The SDK's spans for one scenario (two tool-calling steps, then the cut answer), with the guard's where they hang. */
const sdkTree = (step: (n: number) => string[], tool: string[]) => [
  'invoke_agent plain-object',
  ...[1, 2].flatMap((n) => [
    `  step ${n}`,
    '    chat plain-object',
    ...step(n),
    '    execute_tool capitalOf',
    ...tool,
  ]),
  '  step 3',
  '    chat plain-object',
  ...step(3),
];

const recovered = (indent: string) => [
  `${indent}graceful-ai.attempt`,
  `${indent}graceful-ai.recovery`,
  `${indent}  graceful-ai.attempt`,
];

/**
 * With a context manager, every guard span in the SDK's trace: attempts under `chat <model>`, the recovery's attempt
 * under the recovery, tool attempts under `execute_tool`. Without one no span is active, so the SDK's spans cannot be
 * found: the guard's attempts and recovery are roots of their own, and the recovery's attempt still nests under it.
 */
export function expectedTree(contextManager: boolean): string {
  if (contextManager)
    return sdkTree(
      (n) => (n === 3 ? recovered('      ') : ['      graceful-ai.attempt']),
      ['      graceful-ai.tool.attempt'],
    ).join('\n');
  return [...sdkTree(() => [], []), 'graceful-ai.attempt', 'graceful-ai.attempt', ...recovered('')].join(
    '\n',
  );
}

const attempt = (outcome: string, mode: string) => ({
  name: 'graceful-ai.attempt',
  status: outcome === 'failed' ? 2 : 0,
  attributes: expect.objectContaining({
    'graceful_ai.attempt.outcome': outcome,
    'graceful_ai.attempt.mode': mode,
  }),
});

/** Recovered as without OpenTelemetry, and every scenario's spans as `expectedTree` says, all ended. */
export function expectGuardSpans(result: OtelProgramResult): void {
  expectRecovered(result);
  expect(result.spans).toHaveLength(result.scenarios.length);
  for (const spans of result.spans) {
    expect(spanTree(spans)).toBe(expectedTree(result.contextManager));
    expect(spans.filter((s) => !s.ended)).toEqual([]);
    const attempts = spans.filter((s) => s.name === 'graceful-ai.attempt');
    // The two tool-calling streams, then the cut answer stream (failed, with a status) and the recovery's answer.
    expect(attempts).toMatchObject([
      attempt('ok', 'stream'),
      attempt('ok', 'stream'),
      attempt('failed', 'stream'),
      attempt('ok', 'generate'),
    ]);
    expect(attempts[2]?.attributes).toMatchObject({
      'graceful_ai.error.kind': 'transient',
      'graceful_ai.error.reason': 'status:503',
    });
    const recovery = spans.find((s) => s.name === 'graceful-ai.recovery');
    expect(recovery?.attributes).toEqual({
      'graceful_ai.recovery.kind': 'regeneration',
      'graceful_ai.recovery.outcome': 'ok',
      'graceful_ai.recovery.reset': false,
    });
    expect(parentOf(attempts[3], spans)?.name).toBe('graceful-ai.recovery');
    const traces = new Set(spans.map((s) => s.traceId));
    // One trace with a context manager; without one, the SDK's and one per guard root.
    expect(traces.size).toBe(result.contextManager ? 1 : 5);
  }
}

const parentOf = (span: SpanRecord | undefined, spans: SpanRecord[]) =>
  spans.find((s) => s.spanId === span?.parentSpanId);
