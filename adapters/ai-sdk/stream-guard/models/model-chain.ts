/**
 * The models one guarded call may use, in order: the model it was called with, then its `fallbackModels`. Failover is
 * for availability failures (any transient one: 5xx, overloaded, rate limits whose wait is too long or that remain
 * after the retries, timeouts, network failures, a cut or stalled stream, an open model breaker), and for auth or
 * quota failures only where the caller opted in (`fallbackOn`); never for a context overflow, a request the provider
 * refuses as invalid, or the caller's abort. Each model gets the call's own retries first; moving to the next one is
 * not a retry. A model whose breaker is open is skipped without a request.
 */
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { FailureKind } from '../../../../src/classify/failure-kind.js';
import type { Classification } from '../../../../src/classify/types.js';
import { CircuitOpenError } from '../../../../src/errors/circuit-open-error.js';
import { type FailedModel, FailoverError, type ModelRef } from '../../../../src/errors/failover-error.js';
import type { CircuitListener } from '../../../../src/observe/circuit-changes.js';
import type { CircuitState } from '../../../../src/observe/tool-events.js';
import type { BreakerOutcome, BreakerPermit } from '../../../../src/policy/circuit-breaker.js';
import { defaultLogger } from '../../../../src/util/logger.js';
import type { ModelBreakers } from './model-breakers.js';
import { modelRef } from './model-key.js';

/** The failover options of a guard, resolved. */
export interface FailoverSettings {
  /** The fallbacks, in order, as the guard calls them (resolved from ids, wrapped for cool-downs). */
  models: readonly LanguageModelV4[];
  /** The permanent failure kinds that fail over too (availability failures always do). */
  on: ReadonlySet<Extract<FailureKind, 'auth' | 'quota'>>;
  /** Per-model breakers; `undefined` with `modelBreaker: false`. */
  breakers: ModelBreakers | undefined;
  /** The kind of a classified failure (with the guard's pattern overrides). */
  kindOf: (classification: Classification) => FailureKind;
}

/** What a call tells of the breaker transitions its attempts cause (`GuardTelemetry`). */
export interface BreakerObserver {
  breakerChanged(model: ModelRef, from: CircuitState, to: CircuitState): void;
}

/** How an attempt on the current model was admitted: its breaker's permit, settled when the attempt ends (never rejects). */
export interface Admission {
  settle(outcome: BreakerOutcome): Promise<void>;
}

const noBreaker: Admission = { settle: async () => {} };

/** The provider family (`openai` of `openai.chat`): signatures and item ids are only good within one. */
const family = (model: LanguageModelV4) => model.provider.split('.')[0];

export class ModelChain {
  readonly #models: readonly LanguageModelV4[];
  readonly #settings: FailoverSettings;
  readonly #params: LanguageModelV4CallOptions;
  readonly #paramsByModel = new Map<LanguageModelV4, LanguageModelV4CallOptions>();
  readonly #tried: FailedModel[] = [];
  #index = 0;

  /** Told of the call's breaker transitions (its spans), besides the guard's `onEvent`. */
  readonly #observer: BreakerObserver | undefined;

  constructor(
    primary: LanguageModelV4,
    params: LanguageModelV4CallOptions,
    settings: FailoverSettings,
    observer?: BreakerObserver,
  ) {
    this.#models = [primary, ...settings.models];
    this.#params = params;
    this.#settings = settings;
    this.#observer = observer;
  }

  /** The model the next request goes to. */
  get model(): LanguageModelV4 {
    return this.#models[this.#index]!;
  }

  /** Whether the current model is of the primary's provider (options that name a provider's style hold for it). */
  get onPrimaryProvider(): boolean {
    return this.model.provider === this.#models[0]!.provider;
  }

  /**
   * The call's params for the current model. A model of another provider gets the prompt without reasoning from
   * earlier assistant turns: its signature (Anthropic's, Gemini's thought signature, OpenAI's encrypted content) only
   * verifies with the provider that wrote it, and an unsigned thinking block is refused.
   */
  get params(): LanguageModelV4CallOptions {
    const model = this.model;
    if (this.#index === 0 || family(model) === family(this.#models[0]!)) return this.#params;
    let params = this.#paramsByModel.get(model);
    if (params === undefined) {
      params = { ...this.#params, prompt: withoutReasoning(this.#params.prompt) };
      this.#paramsByModel.set(model, params);
    }
    return params;
  }

  /** Asks the current model's breaker to admit an attempt; throws `CircuitOpenError` while it is open. */
  async admit(): Promise<Admission> {
    const breakers = this.#settings.breakers;
    if (breakers === undefined) return noBreaker;
    const model = this.model;
    const { breaker, listener: guardListener } = await breakers.of(model);
    const observer = this.#observer;
    const listener: CircuitListener =
      observer === undefined
        ? guardListener
        : {
            circuitChanged: (change) => {
              guardListener.circuitChanged(change);
              observer.breakerChanged(modelRef(model), change.from, change.to);
            },
          };
    let permit: BreakerPermit;
    try {
      permit = await breaker.admit(listener);
    } catch (error) {
      // The breaker names its key (with the API key's fingerprint); the error names the model.
      if (!CircuitOpenError.isInstance(error)) throw error;
      const { retryAfterMs, reopensAt } = error;
      throw new CircuitOpenError({ model: modelRef(model), retryAfterMs, reopensAt });
    }
    return {
      settle: async (outcome) => {
        try {
          await breaker.record(permit, outcome, listener);
        } catch (error) {
          // A breaker store that failed must not fail the call it counts: the next admission reads it again.
          defaultLogger.warn(`graceful-ai: could not record a call of ${breaker.name} in its breaker`, {
            error,
          });
        }
      },
    };
  }

  /**
   * After the current model failed for good (its retries used up, or a failure retries do not fix): moves to the
   * next model when the failure is one that fails over and there is one. Returns the models it moved between.
   */
  failOver(error: unknown, classification: Classification): { from: ModelRef; to: ModelRef } | undefined {
    const kind = this.#settings.kindOf(classification);
    const eligible =
      kind === 'availability' || ((kind === 'auth' || kind === 'quota') && this.#settings.on.has(kind));
    if (!eligible || this.#index + 1 >= this.#models.length) return undefined;
    const from = modelRef(this.model);
    this.#tried.push({ model: from, error, reason: classification.reason });
    this.#index++;
    return { from, to: modelRef(this.model) };
  }

  /** What the call fails with: the error itself when only one model was tried, else a `FailoverError` naming each. */
  finalError(error: unknown, classification: Classification, single: () => unknown): unknown {
    if (this.#tried.length === 0) return single();
    return new FailoverError({
      models: [...this.#tried, { model: modelRef(this.model), error, reason: classification.reason }],
    });
  }
}

/** `prompt` without the reasoning parts of its assistant messages; the same array when there are none. */
function withoutReasoning(prompt: LanguageModelV4Prompt): LanguageModelV4Prompt {
  let changed: LanguageModelV4Prompt | undefined;
  prompt.forEach((message, i) => {
    if (message.role !== 'assistant' || !message.content.some((part) => part.type === 'reasoning')) return;
    changed ??= prompt.slice();
    changed[i] = { ...message, content: message.content.filter((part) => part.type !== 'reasoning') };
  });
  return changed ?? prompt;
}
