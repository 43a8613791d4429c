/** What to do about an error: retry it later, give up, compact the context, or stop because the caller asked. */
export type ErrorKind = 'transient' | 'permanent' | 'overflow' | 'abort';

export interface Classification {
  kind: ErrorKind;
  /** A short machine-readable reason, e.g. `status:503`, `code:ECONNRESET`, `pattern:rate-limit`. */
  reason: string;
  /** A delay the server asked for, in milliseconds. */
  retryAfterMs?: number;
}

/** A value a manifest override matches: an HTTP status, an error `code`/`name`, or a pattern over the message. */
export type ErrorMatcher = number | string | RegExp;

/** Per-tool or per-session overrides; they win over the default rules. */
export interface ClassifyOverrides {
  /** Your own verdict; return `undefined` to fall back to the rules. */
  classify?: (error: unknown) => ErrorKind | Classification | undefined;
  /** Statuses, codes/names or message patterns that are never retried. */
  treatAsPermanent?: readonly ErrorMatcher[];
  /** Statuses, codes/names or message patterns that are always retried. */
  treatAsTransient?: readonly ErrorMatcher[];
  /** What an error no rule recognises is (default `'transient'`, the safer choice for tools). */
  unknown?: 'transient' | 'permanent';
}
