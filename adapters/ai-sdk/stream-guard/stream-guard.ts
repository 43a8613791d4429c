/**
 * The `streamGuard()` middleware factory: options resolved once, a model wrapped for shared cool-downs, one
 * `GuardedCall` per model call. The options are `options.ts`.
 */
import type { LanguageModelV4, LanguageModelV4Middleware } from '@ai-sdk/provider';
import { GuardedCall } from './guarded-call.js';
import { coordinatedModel } from './models/coordinated-model.js';
import { type Resolved, resolveOptions, type StreamGuardOptions } from './options.js';

/**
 * A LanguageModelV4 middleware that recovers failed model calls without ever re-streaming a spent request:
 * - before the first content part (what a consumer can see: a non-empty delta, a tool call, a file, a source), a
 *   transient failure (thrown, rejected, `error` part, in-band provider error, stall, an end without a finish or with
 *   one that is no completion) starts a NEW streamed request after backoff, up to `maxRetries`; an error no rule
 *   recognises is passed on at once, as the SDK would; only the winning attempt's preamble (every part before its
 *   first content part) reaches the consumer;
 * - after content, a transient failure gets a recovery request: ONE `doGenerate` (default) or a NEW streamed
 *   request (`recovery: 'stream'`), reconciled with what was emitted: the remainder only, or a `graceful-ai.reset`
 *   part then the complete answer, its provider metadata (signatures, redacted thinking, item ids) kept. Where the
 *   provider can continue an assistant prefix (`continuation`, by default Anthropic Messages), the request ends
 *   with the shown text and only the continuation follows;
 * - anything else (permanent, overflow, abort) errors the stream with the original error, so `result.text` rejects
 *   (the drop-ins instead end it with an `error` part, as the SDK does, and make `result.text` reject themselves).
 * When a retry or a recovery happened, the attempt records land on the finish part's
 * `providerMetadata['graceful-ai'].attempts`; a clean first attempt adds nothing.
 *
 * @example wrapLanguageModel({ model: openai('gpt-4o'), middleware: streamGuard() })
 */
export function streamGuard(options: StreamGuardOptions = {}): LanguageModelV4Middleware {
  return guardMiddleware(resolveOptions(options));
}

/** The guard on options already resolved (`resolveOptions`; the drop-ins resolve theirs when a call starts). */
export function guardMiddleware(resolved: Resolved): LanguageModelV4Middleware {
  const { coordination } = resolved;
  // Shared cool-downs wrap the provider models, so every attempt the guard makes is gated and reported.
  const modelOf = (model: LanguageModelV4) =>
    coordination === undefined
      ? model
      : coordinatedModel(model, { ...resolved, coordination, maxWaitMs: resolved.retry.maxRetryAfterMs });
  const options =
    coordination === undefined
      ? resolved
      : { ...resolved, failover: { ...resolved.failover, models: resolved.failover.models.map(modelOf) } };
  return {
    specificationVersion: 'v4',
    wrapStream: ({ model, params }) => new GuardedCall(modelOf(model), params, options).stream(),
    wrapGenerate: ({ model, params }) => new GuardedCall(modelOf(model), params, options).generate(),
  };
}
