/**
 * Per-model circuit breakers: one per model identity (provider, model id and API-key fingerprint: `modelKey`), held
 * in a breaker store — the coordination's (`redisCoordination(client).breakerStore`: every instance learns at once
 * that a model is down, and after the open period exactly one trial goes back, across processes too) or a
 * process-wide in-memory one. The breaker itself is the tools' (`CircuitBreaker`): the same thresholds and states.
 */
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { ModelRef } from '../../../../src/errors/failover-error.js';
import type { CircuitState, ToolEventMap } from '../../../../src/observe/tool-events.js';
import { ToolTelemetry } from '../../../../src/observe/tool-telemetry.js';
import { type BreakerStore, InMemoryBreakerStore } from '../../../../src/policy/breaker-store.js';
import { CircuitBreaker, type CircuitBreakerOptions } from '../../../../src/policy/circuit-breaker.js';
import type { Clock } from '../../../../src/util/time.js';
import { modelKey } from './model-key.js';

/** Where model breakers live when no coordination shares them: one store per process, as for tools. */
const processStore = new InMemoryBreakerStore();

/** A model's breaker changed state. */
export type ModelBreakerChange = { model: ModelRef; from: CircuitState; to: CircuitState };

/** Tells the guard about a model breaker's transitions (the tools' telemetry would count them as a tool's). */
class ModelBreakerTelemetry extends ToolTelemetry {
  constructor(
    private readonly model: ModelRef,
    private readonly changed: (change: ModelBreakerChange) => void,
  ) {
    super();
  }

  override circuitChanged(input: ToolEventMap['circuit_state']): void {
    this.changed({ model: this.model, from: input.from, to: input.to });
  }
}

/** A model's breaker and the telemetry its transitions go to. */
export interface ModelBreaker {
  breaker: CircuitBreaker;
  telemetry: ToolTelemetry;
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
      const ref = { provider: model.provider, modelId: model.modelId };
      breaker = {
        breaker: new CircuitBreaker(key, { ...this.#options, store: this.#store }),
        telemetry: new ModelBreakerTelemetry(ref, this.#changed),
      };
      this.#byKey.set(key, breaker);
    }
    return breaker;
  }
}
