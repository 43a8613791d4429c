/**
 * A session turn's spans: one `graceful-ai.session.retry` per auto-retry, covering the wait and the retried attempt
 * (the SDK's spans of that call nest under it), and one `graceful-ai.session.compaction` per compaction. Their parent is the context active when the turn
 * started, captured then: the session's events fire after awaits and in stream callbacks. Auto-retries are also
 * counted (`graceful_ai.retries`, scope `session`) wherever a meter provider is registered.
 */
import {
  activeContext,
  contextWith,
  type OtelContext,
  otelMeter,
  otelTracer,
  type RecordedSpan,
  runIn,
  startSpan,
  type Tracer,
} from './otel-api.js';
import { count } from './otel-metrics.js';

export const sessionSpanNames = {
  retry: 'graceful-ai.session.retry',
  compaction: 'graceful-ai.session.compaction',
} as const;

/** A failed attempt as the session reports it (`attempt_error`). */
export interface SessionFailure {
  /** The error's name (`error.type`). */
  name: string;
  kind: string;
  reason: string;
}

export class SessionSpans {
  /** `undefined`: the counter only. */
  readonly #tracer: Tracer | undefined;
  readonly #parent: OtelContext | undefined;
  #failure: SessionFailure | undefined;
  #retry: RecordedSpan | undefined;
  #compaction: RecordedSpan | undefined;

  /**
   * The telemetry of a turn starting now, or `undefined` when nothing is to be recorded. Spans when `traced` (the
   * SDK records telemetry for the session's calls) and a tracer provider is registered; the counter whenever a
   * meter provider is.
   */
  static forTurn(traced: boolean): SessionSpans | undefined {
    const tracer = traced ? otelTracer() : undefined;
    if (tracer === undefined && otelMeter() === undefined) return undefined;
    return new SessionSpans(tracer, activeContext());
  }

  private constructor(tracer: Tracer | undefined, parent: OtelContext | undefined) {
    this.#tracer = tracer;
    this.#parent = parent;
  }

  /** An attempt failed: the retry that may follow names its error. */
  attemptFailed(failure: SessionFailure): void {
    this.#failure = failure;
  }

  /** Retry `attempt` (1-based) waits `delayMs` before its attempt. */
  retryStarted(attempt: number, delayMs: number): void {
    const failure = this.#failure;
    count('retries', { 'graceful_ai.scope': 'session', 'graceful_ai.error.kind': failure?.kind });
    this.#retry?.end();
    const attributes = {
      'graceful_ai.session.retry.attempt': attempt,
      'graceful_ai.retry.delay_ms': delayMs,
      'graceful_ai.error.kind': failure?.kind,
      'graceful_ai.error.reason': failure?.reason,
      'error.type': failure?.name,
    };
    this.#retry = this.#tracer && startSpan(this.#tracer, sessionSpanNames.retry, attributes, this.#parent);
  }

  /**
   * Runs an attempt. A retried one runs inside its retry's span (the SDK's spans of the call nest under it), which
   * ends with the attempt: `ok`, or `failed` when it threw.
   */
  attempt<T>(run: () => Promise<T>): Promise<T> {
    const retry = this.#retry;
    this.#retry = undefined;
    if (retry === undefined) return run();
    const end = (outcome: 'ok' | 'failed') => {
      retry.setAttributes({ 'graceful_ai.session.retry.outcome': outcome });
      retry.end();
    };
    return runIn(contextWith(this.#parent, retry), run).then(
      (value) => {
        end('ok');
        return value;
      },
      (error: unknown) => {
        end('failed');
        throw error;
      },
    );
  }

  compactionStarted(messagesBefore: number): void {
    const attributes = { 'graceful_ai.compaction.messages_before': messagesBefore };
    this.#compaction =
      this.#tracer && startSpan(this.#tracer, sessionSpanNames.compaction, attributes, this.#parent);
  }

  compactionEnded(messagesRemoved: number): void {
    this.#compaction?.setAttributes({ 'graceful_ai.compaction.messages_removed': messagesRemoved });
    this.#endCompaction('ok');
  }

  /**
   * The turn ended: a span still open ends failed — a compaction that threw, a wait the turn did not get past
   * (`abortRetry()`, `abort()`).
   */
  turnEnded(): void {
    this.#retry?.setAttributes({ 'graceful_ai.session.retry.outcome': 'failed' });
    this.#retry?.end();
    this.#retry = undefined;
    this.#endCompaction('failed');
  }

  #endCompaction(outcome: 'ok' | 'failed'): void {
    this.#compaction?.setAttributes({ 'graceful_ai.compaction.outcome': outcome });
    this.#compaction?.end();
    this.#compaction = undefined;
  }
}
