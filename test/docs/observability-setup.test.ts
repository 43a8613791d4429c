/**
 * docs/observability.md "Setup", as written there: the OpenTelemetry SDK with a standard exporter (OTLP over HTTP, to a
 * local collector stand-in) and `@ai-sdk/otel`'s integration. A recovered stream reaches the collector with the guard's
 * spans under the AI SDK's, in one trace, under the instrumentation scope `graceful-ai`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenTelemetry } from '@ai-sdk/otel';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { registerTelemetry } from 'ai';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { streamText } from '../../adapters/ai-sdk/drop-in/stream-text.js';
import {
  apiError,
  generated,
  preamble,
  scriptedModel,
  streamOf,
  textParts,
} from '../adapters/ai-sdk/stream-guard-fixtures.js';

interface OtlpSpan {
  name: string;
  spanId: string;
  parentSpanId?: string;
  traceId: string;
  attributes: { key: string; value: Record<string, unknown> }[];
}
interface OtlpBody {
  resourceSpans: { scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[] }[];
}

const received: OtlpBody[] = [];
let collector: Server;
let url: string;

beforeAll(async () => {
  collector = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push(JSON.parse(body) as OtlpBody);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(collector.address() as AddressInfo).port}/v1/traces`;
});

afterAll(async () => {
  trace.disable();
  context.disable();
  (globalThis as { AI_SDK_TELEMETRY_INTEGRATIONS?: unknown }).AI_SDK_TELEMETRY_INTEGRATIONS = undefined;
  await new Promise((resolve) => collector.close(resolve));
});

it('the setup of the docs exports the guard spans, in the AI SDK trace, over OTLP', async () => {
  // --- as in docs/observability.md ---
  const provider = new BasicTracerProvider({
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  registerTelemetry(new OpenTelemetry());
  // ---
  const model = scriptedModel(
    [streamOf([...preamble('r1'), ...textParts('The quick', { open: true })], apiError(503))],
    [generated('The quick brown fox.')],
    { modelId: 'otlp-model' },
  );
  const text = await streamText({ model, prompt: 'hi', streamGuard: { sleep: vi.fn(async () => {}) } }).text;
  expect(text).toBe('The quick brown fox.');
  await provider.forceFlush();

  const spans = received.flatMap((body) =>
    body.resourceSpans.flatMap((r) =>
      r.scopeSpans.flatMap((s) => s.spans.map((span) => ({ ...span, scope: s.scope.name }))),
    ),
  );
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const parentOf = (span: OtlpSpan) => byId.get(span.parentSpanId ?? '')?.name ?? '(root)';
  const ours = spans.filter((s) => s.scope === 'graceful-ai');
  expect(ours.map((s) => [s.name, parentOf(s)]).sort()).toEqual([
    ['graceful-ai.attempt', 'chat otlp-model'],
    ['graceful-ai.attempt', 'graceful-ai.recovery'],
    ['graceful-ai.recovery', 'chat otlp-model'],
  ]);
  expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
  const failed = ours.find((s) =>
    s.attributes.some((a) => a.key === 'graceful_ai.attempt.outcome' && a.value.stringValue === 'failed'),
  );
  expect(failed?.attributes).toContainEqual({ key: 'error.type', value: { stringValue: 'AI_APICallError' } });
});
