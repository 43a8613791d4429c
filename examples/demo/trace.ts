/**
 * Section: the trace. The OpenTelemetry SDK and the AI SDK's integration (`@ai-sdk/otel`) are registered as an
 * application registers them; a stream is cut mid-answer and recovered; the spans the trace receives are printed as
 * a tree: the SDK's `invoke_agent`, `step` and `chat` spans, and under `chat` graceful-ai's attempts and recovery,
 * with what each cost. Everything is unregistered afterwards, so the other sections run untraced.
 */
import { OpenTelemetry } from '@ai-sdk/otel';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { registerTelemetry } from 'ai';
import { streamText } from '../../adapters/ai-sdk/drop-in/stream-text.js';
import { reply, streamFault } from '../../mocks/index.js';
import type { DemoContext, DemoSummary } from './context.js';

const section = 'trace';
const answer = 'Kyoto was the capital of Japan for over a thousand years, and 1,600 temples remain.';
const shownBeforeCut = 30;

/** The attributes worth a glance, per span name. */
const shown: Record<string, string[]> = {
  'graceful-ai.attempt': [
    'graceful_ai.attempt.number',
    'graceful_ai.attempt.mode',
    'graceful_ai.attempt.outcome',
    'error.type',
    'graceful_ai.error.reason',
    'graceful_ai.attempt.chars_emitted',
    'graceful_ai.attempt.recovery',
    'gen_ai.usage.output_tokens',
  ],
  'graceful-ai.recovery': [
    'graceful_ai.recovery.kind',
    'graceful_ai.recovery.outcome',
    'graceful_ai.recovery.reset',
  ],
};

const ms = (span: ReadableSpan) => (span.duration[0] * 1e3 + span.duration[1] / 1e6).toFixed(0);

/** The spans as an indented tree, children in start order. */
function tree(spans: readonly ReadableSpan[]): string[] {
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  const lines: string[] = [];
  const walk = (parent: string | undefined, depth: number) => {
    for (const span of spans) {
      const p = span.parentSpanContext?.spanId;
      if (parent === undefined ? p !== undefined && ids.has(p) : p !== parent) continue;
      const attributes = (shown[span.name] ?? [])
        .filter((key) => span.attributes[key] !== undefined)
        .map(
          (key) =>
            `${key.replace(/^(graceful_ai|gen_ai)\.(attempt\.|recovery\.|error\.|usage\.)?/, '')}=${span.attributes[key]}`,
        );
      lines.push(`${'  '.repeat(depth)}${span.name}  ${ms(span)} ms  ${attributes.join(' ')}`.trimEnd());
      walk(span.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines;
}

export async function run(ctx: DemoContext): Promise<DemoSummary> {
  const { print } = ctx;
  print.section('Your trace', '(OpenTelemetry: graceful-ai spans under the AI SDK spans)');
  const problems: string[] = [];
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  registerTelemetry(new OpenTelemetry());
  try {
    ctx.script((_request, { index }) =>
      index === 0
        ? reply.text(answer, {
            chunkChars: 6,
            frameDelayMs: 5,
            fault: streamFault.cut({ afterChars: shownBeforeCut }),
          })
        : reply.text(answer),
    );
    print.info(
      `registerTelemetry(new OpenTelemetry()); the stream is cut after ${shownBeforeCut} characters`,
    );
    const result = streamText({ model: ctx.model(), prompt: 'Tell me about Kyoto in one sentence.' });
    print.assistant(await result.text);
    await provider.forceFlush();
    const spans = [...exporter.getFinishedSpans()].sort(
      (a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1],
    );
    print.note('the spans the exporter received:');
    for (const line of tree(spans)) print.note(line);
    if (!ctx.live && !spans.some((s) => s.name === 'graceful-ai.recovery')) problems.push('no recovery span');
  } finally {
    trace.disable();
    context.disable();
    (globalThis as { AI_SDK_TELEMETRY_INTEGRATIONS?: unknown }).AI_SDK_TELEMETRY_INTEGRATIONS = undefined;
  }
  return { section, problems };
}
