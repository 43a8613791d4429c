/**
 * Telemetry never fails the call it describes: with a span processor and a metric exporter that throw (the
 * OpenTelemetry SDK passes a processor's throw on to whoever started or ended the span), a recovered stream, a failover
 * and a retried tool answer as without telemetry, and each throw is logged.
 */
import { OpenTelemetry } from '@ai-sdk/otel';
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { isStepCount, registerTelemetry, tool } from 'ai';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { streamText } from '../../../../adapters/ai-sdk/drop-in/stream-text.js';
import { defaultLogger } from '../../../../src/util/logger.js';
import { scriptedModel as turnModel } from '../scripted-model.js';
import {
  apiError,
  finish,
  flakyExecute,
  generated,
  preamble,
  scriptedModel,
  streamOf,
  textParts,
} from '../stream-guard-fixtures.js';

const broken = (): never => {
  throw new Error('exporter bug');
};
const throwing: SpanProcessor = {
  onStart: broken,
  onEnd: broken,
  forceFlush: async () => {},
  shutdown: async () => {},
};

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [throwing] }));
  const provider = new MeterProvider();
  // A meter whose instruments throw when used.
  vi.spyOn(provider, 'getMeter').mockReturnValue({
    createCounter: broken,
    createHistogram: broken,
  } as never);
  metrics.setGlobalMeterProvider(provider);
  registerTelemetry(new OpenTelemetry());
});
afterAll(() => {
  trace.disable();
  context.disable();
  metrics.disable();
  (globalThis as { AI_SDK_TELEMETRY_INTEGRATIONS?: unknown }).AI_SDK_TELEMETRY_INTEGRATIONS = undefined;
  vi.restoreAllMocks();
});

const quiet = { sleep: async () => {}, random: () => 0.5 };

it('a recovered stream, a failover and a retried tool answer; every throw is logged', async () => {
  const warn = vi.spyOn(defaultLogger, 'warn');
  const cut = streamOf([...preamble('r1'), ...textParts('The quick', { open: true })], apiError(503));
  const recovered = scriptedModel([cut], [generated('The quick brown fox.')], { modelId: 'throwing-1' });
  expect(await streamText({ model: recovered, prompt: 'hi', streamGuard: quiet }).text).toBe(
    'The quick brown fox.',
  );

  const primary = scriptedModel([{ throws: apiError(503) }], [], { modelId: 'throwing-2' });
  const fallback = scriptedModel([streamOf([...preamble('r2'), ...textParts('Fallback.'), finish()])], [], {
    provider: 'anthropic.messages',
    modelId: 'throwing-3',
  });
  const failedOver = streamText({
    model: primary,
    prompt: 'hi',
    maxRetries: 0,
    streamGuard: { ...quiet, fallbackModels: [fallback], modelBreaker: { failureThreshold: 1 } },
  });
  expect(await failedOver.text).toBe('Fallback.');

  const flaky = flakyExecute(1, 'sunny');
  const weather = tool({ inputSchema: z.object({ city: z.string() }), execute: flaky.execute });
  const model = turnModel((step) =>
    step === 0 ? { calls: [['weather', { city: 'Paris' }]] } : { text: 'Sunny.' },
  );
  const withTool = streamText({
    model,
    prompt: 'weather?',
    tools: { weather },
    stopWhen: isStepCount(3),
    gracefulTools: { idempotent: true, runtime: quiet },
  });
  expect(await withTool.text).toBe('Sunny.');
  expect(flaky.calls()).toBe(2);
  const logged = warn.mock.calls.filter(([message]) => message.includes('the OpenTelemetry SDK threw'));
  expect(logged.length).toBeGreaterThan(0);
});
