import { vi } from 'vitest';
import { Emitter } from '../../../src/observe/emitter.js';
import { ToolMetrics } from '../../../src/observe/metrics.js';
import type { ToolEvent, ToolEventMap } from '../../../src/observe/tool-events.js';
import { ToolTelemetry } from '../../../src/observe/tool-telemetry.js';
import type { TurnTrace } from '../../../src/observe/trace.js';
import { type BreakerStore, InMemoryBreakerStore } from '../../../src/policy/breaker-store.js';
import type { Logger } from '../../../src/util/logger.js';

/** A 503: transient for the default classifier. */
export const unavailable = (message = 'service unavailable') =>
  Object.assign(new Error(message), { status: 503 });
/** A 400: permanent for the default classifier. */
export const badRequest = (message = 'bad request') => Object.assign(new Error(message), { status: 400 });

export const silentLogger = (): Logger => ({ debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() });

export interface IsolatedTelemetry {
  telemetry: ToolTelemetry;
  events: Emitter<ToolEventMap>;
  /** Every event emitted, in order. */
  seen: ToolEvent[];
  metrics: ToolMetrics;
  logger: Logger;
  /** The `delayMs` of each `tool_retry` event. */
  delays(): number[];
}

/** Telemetry with its own sinks, and the events it emitted. */
export function isolatedTelemetry(trace?: TurnTrace): IsolatedTelemetry {
  const logger = silentLogger();
  const events = new Emitter<ToolEventMap>(logger);
  const seen: ToolEvent[] = [];
  events.subscribe((e) => seen.push(e));
  const metrics = new ToolMetrics();
  const telemetry = new ToolTelemetry({ events, metrics, logger, trace });
  const delays = () => seen.flatMap((e) => (e.type === 'tool_retry' ? [e.delayMs] : []));
  return { telemetry, events, seen, metrics, logger, delays };
}

/** A clock and a sleep that advances it at once: fast deterministic loops without timers. */
export function virtualTime(start = 0) {
  let now = start;
  return {
    clock: { now: () => now },
    advance: (ms: number) => {
      now += ms;
    },
    sleep: async (ms: number, signal?: AbortSignal) => {
      if (signal?.aborted) throw signal.reason;
      now += ms;
    },
  };
}

/**
 * A breaker store that answers asynchronously, as a shared one does: an in-memory store behind a promise, logging
 * each update as `breaker` to `log`; `hold()` keeps the next answers back until `release()`.
 */
export function asyncBreakerStore(log: string[] = []) {
  const inner = new InMemoryBreakerStore();
  let held: Promise<void> | undefined;
  let release = () => {};
  const store: BreakerStore = {
    async update(key, change) {
      log.push('breaker');
      await held;
      return inner.update(key, change);
    },
  };
  return {
    store,
    inner,
    log,
    hold() {
      held = new Promise((resolve) => {
        release = resolve;
      });
    },
    release: () => release(),
  };
}
