import { errorMarker, GracefulError, hasMarker } from './graceful-error.js';

const name = 'ContextOverflowError';
const maxCauseChars = 300;

/**
 * The conversation no longer fits the model's context window, and compacting it did not help (or no compaction
 * is configured). Carries the provider's original error as `cause`.
 */
export class ContextOverflowError extends GracefulError {
  constructor(options: { cause: unknown; message?: string }) {
    super(name, options.message ?? defaultMessage(options.cause), { cause: options.cause });
  }

  static override isInstance(error: unknown): error is ContextOverflowError {
    return hasMarker(error, errorMarker(name));
  }
}

function defaultMessage(cause: unknown): string {
  const raw = cause instanceof Error ? cause.message : typeof cause === 'string' ? cause : '';
  const detail = raw.length > maxCauseChars ? `${raw.slice(0, maxCauseChars)}…` : raw;
  return (
    `The conversation no longer fits the model's context window${detail ? ` (${detail})` : ''}. ` +
    'Shorten it (compact or summarise earlier turns, drop large tool results) or use a model with a larger ' +
    'context window, then try again.'
  );
}
