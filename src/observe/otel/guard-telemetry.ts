/**
 * The stream guard's spans and metrics for one model call. In the application's OpenTelemetry trace: one
 * `graceful-ai.attempt` per request the guard sends, one `graceful-ai.recovery` around the requests that recover a
 * failure after content, and span events for what happens between requests (failover, resets, breaker transitions, a
 * repaired history). The parent is the context active when the call started: the AI SDK's model-call span (`chat
 * {model}`, or `ai.streamText.doStream` with `LegacyOpenTelemetry`) when the SDK records telemetry. It is captured
 * then, because a recovery runs in the consumer's read of the stream, where that span is no longer active.
 */

import {
  type Attributes,
  activeContext,
  contextWith,
  type OtelContext,
  otelMeter,
  otelTracer,
  quietly,
  type RecordedSpan,
  runIn,
  spanEvent,
  spanIn,
  startSpan,
  statusError,
  type Tracer,
} from './otel-api.js';
import { count, recordRecoveryDuration } from './otel-metrics.js';

/** A model as attempt records name it. */
export interface ModelFacts {
  provider: string;
  modelId: string;
}

/** What an attempt record holds that a span shows (an `AttemptRecord`). */
export interface AttemptFacts {
  attempt: number;
  mode: 'stream' | 'generate';
  model: ModelFacts;
  outcome: 'ok' | 'failed';
  error?: { name: string; message: string };
  classification?: { kind: string; reason: string };
  charsEmitted: number;
  recovery?: 'continue' | 'regenerate';
}

/** Token usage as the provider reported it for an attempt (known when the attempt got a finish part or an answer). */
export interface UsageFacts {
  inputTokens: { total: number | undefined };
  outputTokens: { total: number | undefined };
}

/** The guard's span names. */
export const guardSpanNames = { attempt: 'graceful-ai.attempt', recovery: 'graceful-ai.recovery' } as const;

/** The guard's span event names. */
export const guardEventNames = {
  failover: 'graceful_ai.failover',
  reset: 'graceful_ai.reset',
  breaker: 'graceful_ai.model_breaker',
  historyRepaired: 'graceful_ai.tool_history_repaired',
} as const;

/**
 * OpenTelemetry's well-known `gen_ai.provider.name` of an AI SDK provider id, by prefix (longest first), as
 * `@ai-sdk/otel` names it on the SDK's own spans; an id it does not know stays as it is.
 */
const providerNames: Record<string, string> = {
  'google.vertex': 'gcp.vertex_ai',
  'google.generative-ai': 'gcp.gemini',
  'google-vertex': 'gcp.vertex_ai',
  'amazon-bedrock': 'aws.bedrock',
  'azure-openai': 'azure.ai.openai',
  anthropic: 'anthropic',
  openai: 'openai',
  azure: 'azure.ai.inference',
  google: 'gcp.gemini',
  mistral: 'mistral_ai',
  cohere: 'cohere',
  bedrock: 'aws.bedrock',
  groq: 'groq',
  deepseek: 'deepseek',
  perplexity: 'perplexity',
  xai: 'x_ai',
};

function providerName(provider: string): string {
  const id = provider.toLowerCase();
  for (const prefix in providerNames) {
    if (id === prefix || id.startsWith(`${prefix}.`) || id.startsWith(`${prefix}-`))
      return providerNames[prefix]!;
  }
  return provider;
}

/** A model's OpenTelemetry attributes: its well-known provider name and its id. */
export const modelAttributes = (model: ModelFacts): Attributes => ({
  'gen_ai.provider.name': providerName(model.provider),
  'gen_ai.request.model': model.modelId,
});

const modelName = (model: ModelFacts) => `${model.provider}:${model.modelId}`;

/** One attempt's telemetry (its span, when spans are recorded); the guard's attempt recorder ends it with its record. */
export class AttemptTelemetry {
  readonly #span: RecordedSpan | undefined;
  readonly #context: OtelContext | undefined;
  readonly #owner: GuardTelemetry;
  #ended = false;

  constructor(span: RecordedSpan | undefined, context: OtelContext | undefined, owner: GuardTelemetry) {
    this.#span = span;
    this.#context = context;
    this.#owner = owner;
  }

  /** Runs the attempt's request with its span active (so a cool-down or an instrumented fetch nests under it). */
  run<T>(fn: () => T): T {
    return this.#context ? runIn(this.#context, fn) : fn();
  }

  /** The recovery replaced what was shown with a whole new answer (a reset part). */
  reset(discardedChars: number): void {
    this.#span?.addEvent(guardEventNames.reset, { 'graceful_ai.reset.discarded_chars': discardedChars });
    this.#owner.reset(discardedChars);
  }

  end(record: AttemptFacts, usage: UsageFacts | undefined): void {
    if (this.#ended) return;
    this.#ended = true;
    const span = this.#span;
    span?.setAttributes({
      'graceful_ai.attempt.outcome': record.outcome,
      'graceful_ai.attempt.chars_emitted': record.charsEmitted,
      'graceful_ai.attempt.recovery': record.recovery,
      'gen_ai.usage.input_tokens': usage?.inputTokens.total,
      'gen_ai.usage.output_tokens': usage?.outputTokens.total,
    });
    if (record.outcome === 'failed') {
      // The message is left out: a provider's may quote a key or the prompt. The error's name and class say enough.
      span?.setAttributes({
        'error.type': record.error?.name ?? '_OTHER',
        'graceful_ai.error.kind': record.classification?.kind,
        'graceful_ai.error.reason': record.classification?.reason,
      });
      span?.setStatus({ code: statusError, message: record.classification?.reason });
    }
    span?.end();
    this.#owner.attemptEnded(this, record);
  }

  /** Ends an attempt that never finished (the consumer cancelled the stream). */
  cancel(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#span?.setAttributes({ 'graceful_ai.attempt.outcome': 'cancelled' });
    this.#span?.end();
  }
}

interface OpenRecovery {
  span: RecordedSpan | undefined;
  context: OtelContext | undefined;
  startedAt: number;
  kind: 'continuation' | 'regeneration' | undefined;
  reset: boolean;
  model: ModelFacts;
}

/** One guarded call's spans. */
export class GuardTelemetry {
  /** `undefined`: metrics only (no tracer provider, or no span to nest under). */
  readonly #tracer: Tracer | undefined;
  /** The context the call started in; its span (the SDK's model-call span) gets the call's events. */
  readonly #parent: OtelContext | undefined;
  readonly #now: () => number;
  #delayMs = 0;
  #recovery: OpenRecovery | undefined;
  readonly #open = new Set<AttemptTelemetry>();

  /**
   * The telemetry of a call starting now, or `undefined` when nothing is to be recorded (neither a tracer nor a meter
   * provider registered). Spans are recorded when a tracer provider is registered and the SDK records telemetry for the
   * call (`enabled: true`, the drop-ins' reading of the SDK's `telemetry` option) or, where the guard cannot read that
   * option (`enabled: undefined`: the guard as plain middleware), a span records where the call starts; metrics
   * whenever a meter provider is registered.
   */
  static forCall(enabled: boolean | undefined, now: () => number): GuardTelemetry | undefined {
    const parent = enabled === false ? undefined : activeContext();
    const traced = enabled === true || (enabled === undefined && spanIn(parent)?.isRecording() === true);
    const tracer = traced ? otelTracer() : undefined;
    if (tracer === undefined && otelMeter() === undefined) return undefined;
    return new GuardTelemetry(tracer, parent, now);
  }

  private constructor(tracer: Tracer | undefined, parent: OtelContext | undefined, now: () => number) {
    this.#tracer = tracer;
    this.#parent = parent;
    this.#now = now;
  }

  /** Attempt `n` starts: its span (a recovery's attempts nest under the recovery's span). */
  attempt(n: number, mode: 'stream' | 'generate', model: ModelFacts): AttemptTelemetry {
    const parent = this.#recovery?.context ?? this.#parent;
    const attributes = {
      'graceful_ai.attempt.number': n,
      'graceful_ai.attempt.mode': mode,
      'graceful_ai.attempt.delay_ms': this.#delayMs,
      ...modelAttributes(model),
    };
    const span = this.#tracer && startSpan(this.#tracer, guardSpanNames.attempt, attributes, parent);
    this.#delayMs = 0;
    const attempt = new AttemptTelemetry(span, span && contextWith(parent, span), this);
    this.#open.add(attempt);
    return attempt;
  }

  /** A new request follows after `delayMs` (the next attempt's `graceful_ai.attempt.delay_ms`). */
  retrying(delayMs: number, model: ModelFacts): void {
    this.#delayMs = delayMs;
    count('retries', { 'graceful_ai.scope': 'model', ...modelAttributes(model) });
  }

  /** A failure after content: the recovery's span starts. */
  recovering(model: ModelFacts): void {
    const span =
      this.#tracer && startSpan(this.#tracer, guardSpanNames.recovery, modelAttributes(model), this.#parent);
    this.#recovery = {
      span,
      context: span && contextWith(this.#parent, span),
      startedAt: this.#now(),
      kind: undefined,
      reset: false,
      model,
    };
  }

  /** The call moved from one model to the next. */
  failedOver(from: ModelFacts, to: ModelFacts): void {
    const attributes = {
      'graceful_ai.failover.from': modelName(from),
      'graceful_ai.failover.to': modelName(to),
    };
    this.#event(guardEventNames.failover, attributes);
    count('failovers', attributes);
  }

  /** A model's breaker changed state while this call used it. */
  breakerChanged(model: ModelFacts, from: string, to: string): void {
    this.#event(guardEventNames.breaker, {
      'graceful_ai.breaker.from': from,
      'graceful_ai.breaker.to': to,
      ...modelAttributes(model),
    });
  }

  /** The call's history was repaired before it was sent. */
  historyRepaired(interrupted: number, dropped: number): void {
    this.#event(guardEventNames.historyRepaired, {
      'graceful_ai.repair.interrupted_calls': interrupted,
      'graceful_ai.repair.dropped_results': dropped,
    });
  }

  /** The call failed for good: an open recovery ends failed. */
  failed(): void {
    this.#endRecovery('failed');
  }

  /** The consumer cancelled: every open span ends. */
  cancelled(): void {
    for (const attempt of this.#open) attempt.cancel();
    this.#open.clear();
    this.#endRecovery('cancelled');
  }

  /** An attempt ended (its `AttemptTelemetry` tells); a recovery's attempt that succeeded ends the recovery. */
  attemptEnded(attempt: AttemptTelemetry, record: AttemptFacts): void {
    this.#open.delete(attempt);
    const recovery = this.#recovery;
    if (recovery === undefined || record.recovery === undefined) return;
    recovery.kind = record.recovery === 'continue' ? 'continuation' : 'regeneration';
    recovery.model = record.model;
    if (record.outcome === 'ok') this.#endRecovery('ok');
  }

  /** A reset part went out during the recovery. */
  reset(discardedChars: number): void {
    const recovery = this.#recovery;
    if (recovery) recovery.reset = true;
    count('resets', {
      'graceful_ai.reset.discarded': discardedChars > 0,
      ...(recovery && modelAttributes(recovery.model)),
    });
  }

  #endRecovery(outcome: 'ok' | 'failed' | 'cancelled'): void {
    const recovery = this.#recovery;
    if (recovery === undefined) return;
    this.#recovery = undefined;
    const attributes = {
      'graceful_ai.recovery.kind': recovery.kind,
      'graceful_ai.recovery.outcome': outcome,
      ...modelAttributes(recovery.model),
    };
    recovery.span?.setAttributes({ ...attributes, 'graceful_ai.recovery.reset': recovery.reset });
    if (outcome === 'failed') recovery.span?.setStatus({ code: statusError });
    recovery.span?.end();
    count('recoveries', attributes);
    recordRecoveryDuration((this.#now() - recovery.startedAt) / 1000, attributes);
  }

  /** An event on the call's span (the SDK's model-call span), else on the open recovery's. */
  #event(name: string, attributes: Attributes): void {
    const span = spanIn(this.#parent);
    if (quietly(() => span?.isRecording())) spanEvent(span, name, attributes);
    else this.#recovery?.span?.addEvent(name, attributes);
  }
}
