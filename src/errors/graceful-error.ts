const baseMarker = Symbol.for('graceful-ai.error');

/** The marker symbol of one error class, shared by every copy of the package in a process. */
export function errorMarker(name: string): symbol {
  return Symbol.for(`graceful-ai.error.${name}`);
}

/**
 * Base of every graceful-ai error. Checks go through `isInstance()` (a `Symbol.for` marker, as the AI SDK
 * does) so they survive duplicate installs, where `instanceof` would not.
 */
export class GracefulError extends Error {
  readonly [baseMarker] = true;

  constructor(name: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = name;
    Object.defineProperty(this, errorMarker(name), { value: true, enumerable: false });
  }

  static isInstance(error: unknown): error is GracefulError {
    return hasMarker(error, baseMarker);
  }
}

export function hasMarker(error: unknown, marker: symbol): boolean {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
}
