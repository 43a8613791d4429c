/**
 * Per-model circuit breakers: one per model identity (provider, model id and API-key fingerprint: `modelKey`), held
 * in a breaker store — the coordination's (`redisCoordination(client).breakerStore`: every instance learns at once
 * that a model is down, and after the open period exactly one trial goes back, across processes too) or a
 * process-wide in-memory one. The breaker itself is the tools' (`CircuitBreaker`): the same thresholds and states.
 */
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { ModelRef } from '../../../../src/errors/failover-error.js';
import type { CircuitListener } from '../../../../src/observe/circuit-changes.js';
import { modelAttributes } from '../../../../src/observe/otel/guard-telemetry.js';
import { count } from '../../../../src/observe/otel/otel-metrics.js';
import type { CircuitState } from '../../../../src/observe/tool-events.js';
import { type BreakerStore, InMemoryBreakerStore } from '../../../../src/policy/breaker-store.js';
import { CircuitBreaker, type CircuitBreakerOptions } from '../../../../src/policy/circuit-breaker.js';
import type { Clock } from '../../../../src/util/time.js';
import { modelKey, modelRef } from './model-key.js';

/** Where model breakers live when no coordination shares them: one store per process, as for tools. */
const processStore = new InMemoryBreakerStore();

/** A model's breaker changed state. */
export type ModelBreakerChange = { model: ModelRef; from: CircuitState; to: CircuitState };

/** A model's breaker and the listener that tells the guard of its transitions (not the tools' telemetry: a model is no tool). */
export interface ModelBreaker {
  breaker: CircuitBreaker;
  listener: CircuitListener;
}

/** The breakers of the models one guard calls, built on first use and kept per model identity. */
export class ModelBreakers {
  readonly #options: CircuitBreakerOptions;
  readonly #store: BreakerStore;
  readonly #changed: (change: ModelBreakerChange) => void;
  readonly #byKey = new Map<string, ModelBreaker>();

  constructor(
    options: CircuitBreakerOptions,
    store: BreakerStore | undefined,
    clock: Clock,
    changed: (change: ModelBreakerChange) => void,
  ) {
    this.#options = { ...options, clock };
    this.#store = store ?? processStore;
    this.#changed = changed;
  }

  async of(model: LanguageModelV4): Promise<ModelBreaker> {
    const key = await modelKey(model);
    let breaker = this.#byKey.get(key);
    if (breaker === undefined) {
      const ref = modelRef(model);
      const changed = this.#changed;
      breaker = {
        breaker: new CircuitBreaker(key, { ...this.#options, store: this.#store }),
        listener: {
          circuitChanged: ({ from, to }) => {
            if (to === 'open')
              count('breakerOpens', { 'graceful_ai.scope': 'model', ...modelAttributes(ref) });
            changed({ model: ref, from, to });
          },
        },
      };
      this.#byKey.set(key, breaker);
    }
    return breaker;
  }
}
