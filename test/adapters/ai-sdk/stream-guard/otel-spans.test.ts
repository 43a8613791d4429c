/**
 * The stream guard's spans in the AI SDK's own trace (OpenTelemetry SDK, in-memory exporter, `@ai-sdk/otel`'s
 * integrations): a span per attempt, a span per recovery, events for failover, resets and breaker transitions,
 * usage of failed attempts, the parent each one gets, and no span when the SDK's telemetry is off.
 */
import { trace } from '@opentelemetry/api';
import { streamText as sdkStreamText, wrapLanguageModel } from 'ai';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { generateText } from '../../../../adapters/ai-sdk/drop-in/generate-text.js';
import { streamText } from '../../../../adapters/ai-sdk/drop-in/stream-text.js';
import { streamGuard } from '../../../../adapters/ai-sdk/stream-guard/stream-guard.js';
import { inApp, installOtel, recoveredCallTree } from '../otel-harness.js';
import {
  apiError,
  finish,
  generated,
  preamble,
  scriptedModel,
  streamOf,
  textParts,
} from '../stream-guard-fixtures.js';

const otel = installOtel();
afterEach(() => otel.reset());
afterAll(() => otel.uninstall());

let unique = 0;
const id = (provider = 'openai.chat') => ({ provider, modelId: `gpt-4o-${++unique}` });
const quiet = { sleep: vi.fn(async () => {}), random: () => 0.5 };
const cut = (text: string) =>
  streamOf([...preamble('r1'), ...textParts(text, { open: true })], apiError(503));
const answer = (text: string) => streamOf([...preamble('r2'), ...textParts(text), finish()]);

const attrs = (name: string, match: Record<string, unknown> = {}) => otel.span(name, match).attributes;

describe('a recovered stream, in the AI SDK trace (OpenTelemetry integration)', () => {
  it('attempts and the recovery nest under the SDK model-call span, in the caller trace', async () => {
    const model = scriptedModel([cut('The quick')], [generated('The quick brown fox.')], id());
    const text = await inApp(() => streamText({ model, prompt: 'hi', streamGuard: quiet }).text);
    expect(text).toBe('The quick brown fox.');
    expect(otel.tree()).toBe(['app.request', ...recoveredCallTree(model.modelId, 1)].join('\n'));
    const traces = new Set(otel.spans().map((s) => s.spanContext().traceId));
    expect(traces.size).toBe(1);
    expect(attrs('graceful-ai.attempt', { 'graceful_ai.attempt.number': 1 })).toEqual({
      'graceful_ai.attempt.number': 1,
      'graceful_ai.attempt.mode': 'stream',
      'graceful_ai.attempt.delay_ms': 0,
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': model.modelId,
      'graceful_ai.attempt.outcome': 'failed',
      'graceful_ai.attempt.chars_emitted': 9,
      'error.type': 'AI_APICallError',
      'graceful_ai.error.kind': 'transient',
      'graceful_ai.error.reason': 'status:503',
    });
    const first = otel.span('graceful-ai.attempt', { 'graceful_ai.attempt.number': 1 });
    expect(first.status).toMatchObject({ code: 2, message: 'status:503' });
    expect(attrs('graceful-ai.attempt', { 'graceful_ai.attempt.number': 2 })).toMatchObject({
      'graceful_ai.attempt.mode': 'generate',
      'graceful_ai.attempt.outcome': 'ok',
      'graceful_ai.attempt.recovery': 'regenerate',
      'graceful_ai.attempt.chars_emitted': 11,
      'gen_ai.usage.input_tokens': 1,
      'gen_ai.usage.output_tokens': 1,
    });
    expect(attrs('graceful-ai.recovery')).toEqual({
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': model.modelId,
      'graceful_ai.recovery.kind': 'regeneration',
      'graceful_ai.recovery.outcome': 'ok',
      'graceful_ai.recovery.reset': false,
    });
    // The failure was handled: the SDK call span is not an error (OpenTelemetry "recording errors").
    expect(otel.span(`chat ${model.modelId}`).status.code).not.toBe(2);
    expect(await otel.metric('graceful_ai.recoveries')).toEqual([
      {
        attributes: {
          'graceful_ai.recovery.kind': 'regeneration',
          'graceful_ai.recovery.outcome': 'ok',
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': model.modelId,
        },
        value: 1,
      },
    ]);
    const [duration] = await otel.metric('graceful_ai.recovery.duration');
    expect(duration?.value).toMatchObject({ count: 1 });
  });

  it("each request runs with its attempt span active (an instrumented fetch nests under it); the SDK's span outlasts the recovery", async () => {
    const model = scriptedModel([cut('The quick')], [generated('The quick brown fox.')], id());
    // What an HTTP instrumentation does: a span on the active context for each request.
    const instrumented =
      <O, R>(send: (options: O) => PromiseLike<R>) =>
      async (options: O) => {
        trace.getTracer('http').startSpan('HTTP POST').end();
        return send(options);
      };
    model.doStream = instrumented(model.doStream.bind(model));
    model.doGenerate = instrumented(model.doGenerate.bind(model));
    await streamText({ model, prompt: 'hi', streamGuard: quiet }).text;
    const requests = otel.spans().filter((s) => s.name === 'HTTP POST');
    const attempt = (n: number) => otel.span('graceful-ai.attempt', { 'graceful_ai.attempt.number': n });
    expect(requests.map((s) => s.parentSpanContext?.spanId)).toEqual([
      attempt(1).spanContext().spanId,
      attempt(2).spanContext().spanId,
    ]);
    const end = ({ endTime: [s, ns] }: { endTime: [number, number] }) => s * 1e9 + ns;
    expect(end(otel.span(`chat ${model.modelId}`))).toBeGreaterThanOrEqual(
      end(otel.span('graceful-ai.recovery')),
    );
  });

  it('a recovery that answers anew: a reset event on its attempt, reset on the recovery, counted', async () => {
    const model = scriptedModel([cut('Partial answer')], [generated('A different answer.')], id());
    await streamText({ model, prompt: 'hi', streamGuard: quiet }).text;
    const recovery = otel.span('graceful-ai.attempt', { 'graceful_ai.attempt.number': 2 });
    expect(recovery.events.map((e) => [e.name, e.attributes])).toEqual([
      ['graceful_ai.reset', { 'graceful_ai.reset.discarded_chars': 14 }],
    ]);
    expect(attrs('graceful-ai.recovery')['graceful_ai.recovery.reset']).toBe(true);
    expect(await otel.metric('graceful_ai.resets')).toEqual([
      {
        attributes: {
          'graceful_ai.reset.discarded': true,
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': model.modelId,
        },
        value: 1,
      },
    ]);
  });

  it('a continuation on Anthropic: kind continuation', async () => {
    const model = scriptedModel([cut('The quick')], [generated(' brown fox.')], id('anthropic.messages'));
    expect(await streamText({ model, prompt: 'hi', streamGuard: quiet }).text).toBe('The quick brown fox.');
    expect(attrs('graceful-ai.recovery')['graceful_ai.recovery.kind']).toBe('continuation');
    expect(
      attrs('graceful-ai.attempt', { 'graceful_ai.attempt.number': 2 })['graceful_ai.attempt.recovery'],
    ).toBe('continue');
  });

  it('a retry before content: the next attempt carries the backoff it waited; the retry is counted', async () => {
    const model = scriptedModel([{ throws: apiError(503) }, answer('Hello.')], [], id());
    await streamText({ model, prompt: 'hi', streamGuard: quiet }).text;
    expect(attrs('graceful-ai.attempt', { 'graceful_ai.attempt.number': 2 })).toMatchObject({
      'graceful_ai.attempt.delay_ms': 1000,
      'graceful_ai.attempt.outcome': 'ok',
    });
    expect(otel.parentName(otel.span('graceful-ai.attempt', { 'graceful_ai.attempt.number': 2 }))).toBe(
      `chat ${model.modelId}`,
    );
    expect(await otel.metric('graceful_ai.retries')).toEqual([
      {
        attributes: {
          'graceful_ai.scope': 'model',
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': model.modelId,
        },
        value: 1,
      },
    ]);
  });

  it('the token usage of a failed attempt is on its span (an early end that reported usage)', async () => {
    const early = streamOf([
      ...preamble('r1'),
      ...textParts('The quick', { open: true }),
      finish('other', undefined),
    ]);
    const model = scriptedModel([early], [generated('The quick brown fox.')], id());
    await streamText({ model, prompt: 'hi', streamGuard: quiet }).text;
    expect(attrs('graceful-ai.attempt', { 'graceful_ai.attempt.number': 1 })).toMatchObject({
      'graceful_ai.attempt.outcome': 'failed',
      'error.type': 'StreamInterruptedError',
      'gen_ai.usage.input_tokens': 1,
      'gen_ai.usage.output_tokens': 1,
    });
  });

  it('generateText: the attempts of a retried generate call', async () => {
    const model = scriptedModel([], [{ throws: apiError(503) }, generated('Hello.')], id());
    await generateText({ model, prompt: 'hi', streamGuard: quiet });
    const second = otel.span('graceful-ai.attempt', { 'graceful_ai.attempt.number': 2 });
    expect(second.attributes).toMatchObject({
      'graceful_ai.attempt.mode': 'generate',
      'graceful_ai.attempt.outcome': 'ok',
    });
    expect(otel.parentName(second)).toBe(`chat ${model.modelId}`);
  });
});

describe('provider names', () => {
  it.each([
    'openai.chat',
    'openai.responses',
    'anthropic.messages',
    'google.generative-ai',
    'google.vertex.chat',
    'amazon-bedrock',
    'azure.chat',
    'mistral.chat',
    'xai.chat',
    'deepseek.chat',
    'acme.chat',
  ])('%s: gen_ai.provider.name as the SDK chat span names it', async (provider) => {
    const model = scriptedModel([answer('Hello.')], [], id(provider));
    await streamText({ model, prompt: 'hi', streamGuard: quiet }).text;
    const sdk = otel.span(`chat ${model.modelId}`).attributes['gen_ai.provider.name'];
    expect(attrs('graceful-ai.attempt')['gen_ai.provider.name']).toBe(sdk);
  });
});

describe('a reader that stops reading', () => {
  // Read straight from the guarded model: the SDK reads a model stream to its end whatever its reader does.
  const guarded = (model: ReturnType<typeof scriptedModel>, options = {}) =>
    wrapLanguageModel({ model, middleware: streamGuard({ ...quiet, ...options }) });
  const params = { prompt: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }] };

  it('cancelling mid-answer ends the open attempt span as cancelled', async () => {
    const model = guarded(scriptedModel([answer('The quick brown fox jumps.')], [], id()));
    await inApp(async () => {
      const reader = (await model.doStream(params)).stream.getReader();
      await reader.read();
      await reader.cancel();
    });
    expect(attrs('graceful-ai.attempt')['graceful_ai.attempt.outcome']).toBe('cancelled');
  });

  it('cancelling during a streamed recovery ends its attempt and the recovery as cancelled', async () => {
    // A recovery that sends its preamble and then nothing until it is cancelled.
    const silent = new ReadableStream({
      start(controller) {
        for (const part of preamble('r2')) controller.enqueue(part);
      },
    });
    const model = guarded(scriptedModel([cut('The quick'), silent], [], id()), { recovery: 'stream' });
    await inApp(async () => {
      const reader = (await model.doStream(params)).stream.getReader();
      let shown = '';
      while (shown !== 'The quick') {
        const { value } = await reader.read();
        if (value?.type === 'text-delta') shown += value.delta;
      }
      const pending = reader.read();
      await vi.waitFor(() => expect(otel.spans().some((s) => s.name === 'graceful-ai.attempt')).toBe(true));
      await reader.cancel();
      await pending.catch(() => {});
    });
    await vi.waitFor(() => expect(otel.spans().some((s) => s.name === 'graceful-ai.recovery')).toBe(true));
    expect(attrs('graceful-ai.recovery')['graceful_ai.recovery.outcome']).toBe('cancelled');
    expect(
      attrs('graceful-ai.attempt', { 'graceful_ai.attempt.number': 2 })['graceful_ai.attempt.outcome'],
    ).toBe('cancelled');
  });
});

describe('failover and model breakers in the trace', () => {
  it('a failover: an event on the model-call span, attempts naming each model, counted', async () => {
    const primary = scriptedModel([{ throws: apiError(503) }], [], id());
    const fallback = scriptedModel([answer('From the fallback.')], [], id('anthropic.messages'));
    const text = await streamText({
      model: primary,
      prompt: 'hi',
      maxRetries: 0,
      streamGuard: { ...quiet, fallbackModels: [fallback], modelBreaker: false },
    }).text;
    expect(text).toBe('From the fallback.');
    const call = otel.span(`chat ${primary.modelId}`);
    const from = `openai.chat:${primary.modelId}`;
    const to = `anthropic.messages:${fallback.modelId}`;
    expect(call.events.map((e) => [e.name, e.attributes])).toContainEqual([
      'graceful_ai.failover',
      { 'graceful_ai.failover.from': from, 'graceful_ai.failover.to': to },
    ]);
    expect(
      otel
        .spans()
        .filter((s) => s.name === 'graceful-ai.attempt')
        .map((s) => s.attributes['gen_ai.request.model']),
    ).toEqual([primary.modelId, fallback.modelId]);
    expect(await otel.metric('graceful_ai.failovers')).toEqual([
      { attributes: { 'graceful_ai.failover.from': from, 'graceful_ai.failover.to': to }, value: 1 },
    ]);
  });

  it('a breaker opening: a model_breaker event in the trace, the opening counted', async () => {
    const primary = scriptedModel([{ throws: apiError(503) }, { throws: apiError(503) }], [], id());
    const fallback = scriptedModel([answer('One.'), answer('Two.')], [], id('anthropic.messages'));
    const options = {
      model: primary,
      prompt: 'hi',
      maxRetries: 0,
      streamGuard: { ...quiet, fallbackModels: [fallback], modelBreaker: { failureThreshold: 2 } },
    };
    await streamText(options).text;
    await streamText(options).text;
    const events = otel
      .spans()
      .flatMap((s) => s.events)
      .filter((e) => e.name === 'graceful_ai.model_breaker');
    expect(events.map((e) => e.attributes)).toEqual([
      {
        'graceful_ai.breaker.from': 'closed',
        'graceful_ai.breaker.to': 'open',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': primary.modelId,
      },
    ]);
    expect(await otel.metric('graceful_ai.breaker.opens')).toEqual([
      {
        attributes: {
          'graceful_ai.scope': 'model',
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': primary.modelId,
        },
        value: 1,
      },
    ]);
    // A third call skips the open primary: no attempt span for it, an attempt on the fallback.
    otel.reset();
    const third = scriptedModel([], [], { provider: 'openai.chat', modelId: primary.modelId });
    fallback.doStream = (async () => ({ stream: answer('Three.') })) as typeof fallback.doStream;
    await streamText({ ...options, model: third }).text;
    expect(
      otel
        .spans()
        .filter((s) => s.name === 'graceful-ai.attempt')
        .map((s) => [s.attributes['gen_ai.request.model'], s.attributes['graceful_ai.attempt.outcome']]),
    ).toEqual([
      [primary.modelId, 'failed'],
      [fallback.modelId, 'ok'],
    ]);
  });
});

describe('when the SDK records no telemetry, no span', () => {
  it('telemetry turned off for the call: no graceful-ai span, even under a recording caller span', async () => {
    const model = scriptedModel([cut('The quick')], [generated('The quick brown fox.')], id());
    await inApp(
      () => streamText({ model, prompt: 'hi', streamGuard: quiet, telemetry: { isEnabled: false } }).text,
    );
    expect(otel.tree()).toBe('app.request');
    // Counters hold no content: they count whatever the call's setting.
    const points = await otel.metric('graceful_ai.recoveries');
    expect(
      points.filter((p) => p.attributes['gen_ai.request.model'] === model.modelId).map((p) => p.value),
    ).toEqual([1]);
  });

  it('empty per-call integrations: off as well', async () => {
    const model = scriptedModel([cut('The quick')], [generated('The quick brown fox.')], id());
    await streamText({ model, prompt: 'hi', streamGuard: quiet, telemetry: { integrations: [] } }).text;
    expect(otel.spans()).toEqual([]);
  });
});

describe('the guard as plain middleware', () => {
  it('under a recording span (the SDK telemetry on): the same spans', async () => {
    const base = scriptedModel([cut('The quick')], [generated('The quick brown fox.')], id());
    const model = wrapLanguageModel({ model: base, middleware: streamGuard(quiet) });
    await sdkStreamText({ model, prompt: 'hi', maxRetries: 0 }).text;
    expect(otel.tree()).toBe(recoveredCallTree(base.modelId).join('\n'));
  });

  it('with the SDK telemetry off and no span recording: none', async () => {
    const base = scriptedModel([cut('The quick')], [generated('The quick brown fox.')], id());
    const model = wrapLanguageModel({ model: base, middleware: streamGuard(quiet) });
    await sdkStreamText({ model, prompt: 'hi', maxRetries: 0, telemetry: { isEnabled: false } }).text;
    expect(otel.spans()).toEqual([]);
  });
});
