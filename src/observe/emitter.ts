import { defaultLogger, type Logger } from '../util/logger.js';

/** A map from event type to its payload type. */
export type EventMap = Record<string, object>;

/** One event as listeners receive it: the payload with its `type`. */
export type EventOf<E extends EventMap> = { [K in keyof E & string]: { type: K } & E[K] }[keyof E & string];

export type Listener<E extends EventMap> = (event: EventOf<E>) => void;

/** Anything events can be sent to: an {@link Emitter}, or your own object with an `emit(type, payload)` method. */
export interface EventSink<E extends EventMap> {
  emit<K extends keyof E & string>(type: K, payload: E[K]): void;
}

/**
 * Typed listeners. A listener that throws is logged and ignored: observers never change a call's outcome.
 */
export class Emitter<E extends EventMap> implements EventSink<E> {
  readonly #listeners = new Set<Listener<E>>();

  constructor(private readonly logger: Logger = defaultLogger) {}

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: Listener<E>): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  emit<K extends keyof E & string>(type: K, payload: E[K]): void {
    if (this.#listeners.size === 0) return;
    const event = { type, ...payload } as EventOf<E>;
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.logger.warn(`graceful-ai: a '${type}' listener threw; ignored`, { error });
      }
    }
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }
}
