/**
 * Where the guard's spans hang in each setup an application has: `LegacyOpenTelemetry` (the ai ≤ 6 span names), a
 * `ToolLoopAgent` and its UI stream, and a runtime without a context manager (an edge runtime or a Worker that
 * registered none), where the SDK's spans cannot be found and the guard's own still nest under each other.
 */
import { trace } from '@opentelemetry/api';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ToolLoopAgent } from '../../../../adapters/ai-sdk/agent/tool-loop-agent.js';
import { streamText } from '../../../../adapters/ai-sdk/drop-in/stream-text.js';
import { installOtel, type OtelHarness, recoveredCallTree } from '../otel-harness.js';
import {
  apiError,
  generated,
  preamble,
  scriptedModel,
  streamOf,
  textParts,
} from '../stream-guard-fixtures.js';

let unique = 0;
const quiet = { sleep: vi.fn(async () => {}), random: () => 0.5 };
const cutThenRecovered = () =>
  scriptedModel(
    [streamOf([...preamble('r1'), ...textParts('The quick', { open: true })], apiError(503))],
    [generated('The quick brown fox.')],
    { modelId: `m-${++unique}` },
  );

function withOtel(options: Parameters<typeof installOtel>[0]) {
  const harness = { otel: undefined as unknown as OtelHarness };
  beforeAll(() => {
    harness.otel = installOtel(options);
  });
  afterEach(() => harness.otel.reset());
  afterAll(() => harness.otel.uninstall());
  return harness;
}

describe('LegacyOpenTelemetry: under ai.streamText.doStream', () => {
  const h = withOtel({ integration: 'legacy' });
  it('the attempts and the recovery nest under the doStream span', async () => {
    const model = cutThenRecovered();
    await streamText({ model, prompt: 'hi', streamGuard: quiet }).text;
    expect(h.otel.tree()).toBe(
      [
        'ai.streamText',
        '  ai.streamText.doStream',
        '    graceful-ai.attempt',
        '    graceful-ai.recovery',
        '      graceful-ai.attempt',
      ].join('\n'),
    );
  });
});

describe('ToolLoopAgent: under the agent step model-call span', () => {
  const h = withOtel({ integration: 'otel' });
  it('agent.stream() with a cut: the same spans, under invoke_agent → step 1 → chat', async () => {
    const model = cutThenRecovered();
    const agent = new ToolLoopAgent({ model, streamGuard: quiet });
    const result = await agent.stream({ prompt: 'hi' });
    expect(await result.text).toBe('The quick brown fox.');
    expect(h.otel.tree()).toBe(recoveredCallTree(model.modelId).join('\n'));
  });
});

describe('no context manager (an edge runtime or a Worker without one)', () => {
  const h = withOtel({ integration: 'otel', contextManager: false });
  it('the SDK telemetry on: the guard records its spans, the recovery attempt under the recovery', async () => {
    const model = cutThenRecovered();
    await trace.getTracer('app').startActiveSpan('app.request', async (span) => {
      await streamText({ model, prompt: 'hi', streamGuard: quiet }).text;
      span.end();
    });
    const attempts = h.otel.spans().filter((s) => s.name === 'graceful-ai.attempt');
    expect(attempts).toHaveLength(2);
    // Without a context manager no span is active: the SDK's are unreachable, the guard's first spans are roots.
    expect(h.otel.parentName(attempts[0]!)).toBe('(root)');
    expect(h.otel.parentName(attempts[1]!)).toBe('graceful-ai.recovery');
    const recovery = h.otel.span('graceful-ai.recovery');
    expect(recovery.spanContext().traceId).toBe(attempts[1]!.spanContext().traceId);
  });
});
