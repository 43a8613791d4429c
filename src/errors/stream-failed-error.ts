import { errorMarker, GracefulError, hasMarker } from './graceful-error.js';

/** The fields a provider reports for an error inside a stream (the AI SDK's provider stream error payload). */
export interface StreamErrorFields {
  /** The provider's error message. */
  message: string;
  /** The provider's error type (e.g. `server_error`). */
  type?: string;
  /** The provider's error code. */
  code?: string | number;
  /** The HTTP status the provider reported, when it did. */
  statusCode?: number;
  /** Whether the provider marked the error as retryable. */
  isRetryable?: boolean;
  /** Any further provider payload. */
  data?: unknown;
}

/**
 * A stream ended with a provider error that is not an `Error` object (an in-band error event). Carries the
 * provider's fields so callers can inspect them; `cause` is the original payload.
 */
export class StreamFailedError extends GracefulError {
  readonly type: string | undefined;
  readonly code: string | number | undefined;
  readonly statusCode: number | undefined;
  readonly data: unknown;

  constructor(fields: StreamErrorFields) {
    super(
      'StreamFailedError',
      `The model stream failed: ${withoutFinalStop(fields.message)}. The answer is incomplete; fix the cause (see \`code\`/\`statusCode\`) and ask again.`,
      { cause: fields },
    );
    this.type = fields.type;
    this.code = fields.code;
    this.statusCode = fields.statusCode;
    this.data = fields.data;
  }

  static override isInstance(error: unknown): error is StreamFailedError {
    return hasMarker(error, errorMarker('StreamFailedError'));
  }
}

/**
 * The message without its trailing full stops and spaces, so the sentence built on it has exactly one. A loop, not a
 * regex: `/[.\s]+$/` is quadratic on a long run of dots (provider text is attacker-sized).
 */
function withoutFinalStop(message: string): string {
  let end = message.length;
  while (end > 0 && (message[end - 1] === '.' || message[end - 1]!.trim() === '')) end--;
  return message.slice(0, end);
}
