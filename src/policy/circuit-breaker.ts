import { CircuitOpenError } from '../errors/circuit-open-error.js';
import { type CircuitListener, processCircuitListener } from '../observe/circuit-changes.js';
import type { CircuitState } from '../observe/tool-events.js';
import { isThenable } from '../util/shape.js';
import { type Clock, systemClock } from '../util/time.js';
import { checkClock, checkCount, checkOptionsObject, checkTimeoutMs } from '../util/validate.js';
import { type BreakerState, type BreakerStore, InMemoryBreakerStore } from './breaker-store.js';

/** Options of a tool's circuit breaker. */
export interface CircuitBreakerOptions {
  /**
   * Consecutive transient failures that open the circuit.
   * @default 5
   */
  failureThreshold?: number;
  /**
   * Consecutive successful trials in HALF_OPEN that close it.
   * @default 2
   */
  successThreshold?: number;
  /**
   * How long the circuit stays OPEN before a trial is admitted, in ms.
   * @default 30000
   */
  openMs?: number;
  /** Where the state lives (default: a new in-memory store per breaker). */
  store?: BreakerStore;
  /** Default: the system clock. */
  clock?: Clock;
}

/** The defaults of {@link CircuitBreakerOptions}: open after 5 failures, for 30 s; close after 2 trial successes. */
export const defaultBreakerOptions = { failureThreshold: 5, successThreshold: 2, openMs: 30_000 } as const;

/** Throws a `RangeError`/`TypeError` naming the first invalid option, as `<prefix>failureThreshold` and so on. */
export function checkBreakerOptions(options: CircuitBreakerOptions, prefix = 'breaker.'): void {
  checkOptionsObject(prefix.slice(0, -1), options);
  checkCount(`${prefix}failureThreshold`, options.failureThreshold, 1);
  checkCount(`${prefix}successThreshold`, options.successThreshold, 1);
  checkTimeoutMs(`${prefix}openMs`, options.openMs);
  checkOptionsObject(`${prefix}store`, options.store);
  checkClock(`${prefix}clock`, options.clock);
}

/** How a call that held a permit ended, as the breaker sees it (resilience4j: recorded, or ignored). */
export type BreakerOutcome = 'success' | 'failure' | 'ignored';

/** Proof that the breaker admitted a call; hand it back to `record`. */
export interface BreakerPermit {
  /** True for the single HALF_OPEN trial call. */
  readonly trial: boolean;
}

const closed = (): BreakerState => ({
  state: 'closed',
  failures: 0,
  successes: 0,
  openUntil: 0,
  trialStartedAt: null,
});

type Admission = { permit: BreakerPermit; from: CircuitState } | { rejectAfterMs: number; reopensAt: number };

/**
 * One tool's circuit breaker: CLOSED → OPEN after `failureThreshold` consecutive transient failures; OPEN rejects at
 * once with `CircuitOpenError`; after `openMs` → HALF_OPEN, admitting one trial call at a time (others are rejected
 * at once with a retry-after hint); `successThreshold` consecutive successful trials → CLOSED; a failed trial →
 * OPEN for a fresh `openMs`. Ignored outcomes (permanent errors, aborts) change nothing but free the trial slot.
 */
export class CircuitBreaker {
  readonly name: string;
  readonly failureThreshold: number;
  readonly successThreshold: number;
  readonly openMs: number;
  readonly #store: BreakerStore;
  readonly #clock: Clock;

  constructor(name: string, options: CircuitBreakerOptions = {}) {
    checkBreakerOptions(options);
    this.name = name;
    this.failureThreshold = options.failureThreshold ?? defaultBreakerOptions.failureThreshold;
    this.successThreshold = options.successThreshold ?? defaultBreakerOptions.successThreshold;
    this.openMs = options.openMs ?? defaultBreakerOptions.openMs;
    this.#store = options.store ?? new InMemoryBreakerStore();
    this.#clock = options.clock ?? systemClock;
  }

  /** The current state (OPEN reads as OPEN until a call finds its time has passed). */
  async state(): Promise<CircuitState> {
    return this.#store.update(this.name, (current) => {
      const next = current ?? closed();
      return { next, result: next.state };
    });
  }

  /**
   * Admits a call or throws `CircuitOpenError` at once. `listener` hears a transition to HALF_OPEN (default: the
   * process-wide events, metrics and logger, as the default `ToolTelemetry` reports them).
   */
  async acquire(listener: CircuitListener = processCircuitListener): Promise<BreakerPermit> {
    return this.admit(listener);
  }

  /**
   * `acquire`, answered in the same tick when the store answers synchronously (the in-memory store does): returns
   * the permit or throws `CircuitOpenError` at once; with an async store, a promise of either. Lets a caller start
   * the admitted call synchronously (a tool's `execute` must return its async iterable synchronously).
   */
  admit(listener: CircuitListener = processCircuitListener): BreakerPermit | Promise<BreakerPermit> {
    const now = this.#clock.now();
    const admission = this.#store.update<Admission>(this.name, (current) => {
      const s = current ?? closed();
      if (s.state === 'closed') return { next: s, result: { permit: { trial: false }, from: 'closed' } };
      // A trial that never reported (a crashed process, a hung call) frees its slot after openMs.
      const slotFree = s.trialStartedAt === null || now - s.trialStartedAt >= this.openMs;
      if ((s.state === 'open' && now >= s.openUntil) || (s.state === 'half_open' && slotFree)) {
        return {
          next: { ...s, state: 'half_open', trialStartedAt: now },
          result: { permit: { trial: true }, from: s.state },
        };
      }
      const reopensAt = s.state === 'open' ? s.openUntil : s.trialStartedAt! + this.openMs;
      return { next: s, result: { rejectAfterMs: reopensAt - now, reopensAt } };
    });
    return isThenable(admission)
      ? Promise.resolve(admission).then((a) => this.#permit(a, listener))
      : this.#permit(admission, listener);
  }

  #permit(admission: Admission, listener: CircuitListener): BreakerPermit {
    if ('permit' in admission) {
      if (admission.from === 'open')
        listener.circuitChanged({ toolName: this.name, from: 'open', to: 'half_open' });
      return admission.permit;
    }
    throw new CircuitOpenError({
      toolName: this.name,
      retryAfterMs: admission.rejectAfterMs,
      reopensAt: admission.reopensAt,
    });
  }

  /** Records how a permitted call ended; returns the state afterwards (a transition goes to `listener`). */
  async record(
    permit: BreakerPermit,
    outcome: BreakerOutcome,
    listener: CircuitListener = processCircuitListener,
  ): Promise<CircuitState> {
    const now = this.#clock.now();
    const [from, to] = await this.#store.update<[CircuitState, CircuitState]>(this.name, (current) => {
      const s = current ?? closed();
      const next = this.#apply(s, permit, outcome, now);
      return { next, result: [s.state, next.state] };
    });
    if (from !== to) listener.circuitChanged({ toolName: this.name, from, to });
    return to;
  }

  #apply(s: BreakerState, permit: BreakerPermit, outcome: BreakerOutcome, now: number): BreakerState {
    // A result only counts in the state that admitted it: a late CLOSED call must not touch HALF_OPEN.
    if (permit.trial !== (s.state === 'half_open')) return s;
    if (s.state === 'closed') {
      if (outcome === 'success') return s.failures === 0 ? s : { ...s, failures: 0 };
      if (outcome === 'ignored') return s;
      const failures = s.failures + 1;
      return failures >= this.failureThreshold ? this.#open(now) : { ...s, failures };
    }
    if (outcome === 'ignored') return { ...s, trialStartedAt: null };
    if (outcome === 'failure') return this.#open(now);
    const successes = s.successes + 1;
    return successes >= this.successThreshold ? closed() : { ...s, successes, trialStartedAt: null };
  }

  #open(now: number): BreakerState {
    return { state: 'open', failures: 0, successes: 0, openUntil: now + this.openMs, trialStartedAt: null };
  }
}
