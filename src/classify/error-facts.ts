// What the classifier and the retry-after parser read from an error: its cause chain and the structured fields
// and text found along it. Error objects are untrusted input: every read is guarded (getters and proxies may
// throw) and all text is cut to a bounded view, so classifying a 1 MB message costs the same as a 20 KB one.

import { read, readPath, safeJson } from '../util/guarded.js';

/** Walk limits: a chain deeper or wider than this is cut (cycles are detected separately). */
const maxDepth = 8;
const maxNodes = 16;
const maxListedErrors = 8;

/** Characters kept from the start and the end of attacker-sized text. */
export const textHead = 16_384;
export const textTail = 4_096;

/** Facts gathered along an error's cause chain, root first. */
export interface ErrorFacts {
  /** The errors of the chain (objects or thrown strings), root first, each once. */
  nodes: readonly unknown[];
  /** The first HTTP error status (400–599) along the chain. */
  status?: number;
  /** Provider codes/types and system error codes along the chain, as written. */
  codes: readonly string[];
  /** Error `name`s along the chain. */
  names: readonly string[];
  /** The first `isRetryable` flag along the chain (AI SDK errors and the provider stream-error object). */
  isRetryable?: boolean;
  /** Messages, codes and response bodies along the chain, joined and cut to a bounded view. */
  text: string;
  /**
   * Retry hints along the chain, root first: a number is an error's own `retryAfterMs` field (e.g.
   * `CircuitOpenError`), an object a response header record (`responseHeaders`, `headers`, `response.headers`, and
   * the headers a gateway relays in its body, OpenRouter's `error.metadata.headers`).
   */
  retryHints: readonly unknown[];
}

/** Terminal colour codes (`ESC[1m`, `ESC[31m`, `ESC[0m`): `ai`'s development-mode messages carry them. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape character is what is matched.
const sgrCodes = /\u001b\[[0-9;]{0,20}m/g;

/** The first `head` and last `tail` characters of `text` (all of it when short). */
export function boundedView(text: string, head = textHead, tail = textTail): string {
  return text.length <= head + tail ? text : `${text.slice(0, head)}\n…\n${text.slice(text.length - tail)}`;
}

/** The errors of a chain: the error, a RetryError's `lastError`, `cause`, else an aggregate's `errors[]`. */
function errorChain(error: unknown): unknown[] {
  const nodes: unknown[] = [];
  const seen = new Set<unknown>();
  const visit = (node: unknown, depth: number): void => {
    if (node === undefined || node === null || depth > maxDepth || nodes.length >= maxNodes) return;
    if (typeof node !== 'object' && typeof node !== 'string') return;
    if (seen.has(node)) return;
    seen.add(node);
    nodes.push(node);
    if (typeof node === 'string') return;
    const lastError = read(node, 'lastError');
    visit(lastError, depth + 1);
    visit(read(node, 'cause'), depth + 1);
    const errors = read(node, 'errors');
    if (lastError === undefined && Array.isArray(errors)) {
      // Newest first: in a list of attempts the last one says most about the present.
      for (let i = errors.length - 1; i >= 0 && i >= errors.length - maxListedErrors; i--)
        visit(errors[i], depth + 1);
    }
  };
  try {
    visit(error, 0);
  } catch {
    // A hostile structure (e.g. a proxy throwing on `Array.isArray`): keep what was gathered.
  }
  return nodes;
}

const httpStatus = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) && value >= 400 && value <= 599 ? value : undefined;

/** Gathers the facts of `error` (never throws). */
export function errorFacts(error: unknown): ErrorFacts {
  const nodes = errorChain(error);
  const codes: string[] = [];
  const names: string[] = [];
  const retryHints: unknown[] = [];
  const texts: string[] = [];
  let status: number | undefined;
  let isRetryable: boolean | undefined;

  const addCode = (value: unknown): void => {
    if (typeof value === 'string' && value.length > 0 && value.length <= 100) codes.push(value);
    else status ??= httpStatus(value);
  };
  const addText = (value: unknown): void => {
    if (typeof value === 'string' && value.length > 0)
      texts.push(boundedView(value, textHead / 2, textTail / 2).replace(sgrCodes, ''));
  };

  for (const node of nodes) {
    if (typeof node === 'string') {
      // The AI SDK hands invalid tool calls over as text ("AI_InvalidToolInputError: …"): keep the name.
      const name = /^(AI_[A-Za-z]{1,60}Error):/.exec(node)?.[1];
      if (name) names.push(name);
      addText(node);
      continue;
    }
    status ??= httpStatus(read(node, 'statusCode')) ?? httpStatus(read(node, 'status'));
    status ??= httpStatus(readPath(node, 'response', 'status'));
    const retryable = read(node, 'isRetryable');
    if (typeof retryable === 'boolean') isRetryable ??= retryable;
    const name = read(node, 'name');
    if (typeof name === 'string') names.push(name);
    addText(read(node, 'message'));
    addCode(read(node, 'code'));
    addCode(read(node, 'type'));
    // Newer AI SDK releases mark an overflow structurally on APICallError, StreamProviderError and gateway errors.
    if (read(node, 'failureReason') === 'context-length-exceeded') codes.push('context_length_exceeded');
    // Provider payloads, at every path the AI SDK providers use: chat HTTP body, SSE error frame,
    // responses `response.failed`, Google's `error.status`. An error frame the provider's chunk schema does not
    // know (an Anthropic `overloaded_error` relayed into an OpenAI responses stream) arrives as a
    // TypeValidationError whose `value` is that frame: read it as a payload too.
    const data = read(node, 'data');
    const payloads = name === 'AI_TypeValidationError' ? [data, read(node, 'value')] : [data];
    const relayedHeaders: unknown[] = [];
    for (const payload of payloads) {
      for (const detail of [read(payload, 'error'), payload, readPath(payload, 'response', 'error')]) {
        addCode(read(detail, 'code'));
        addCode(read(detail, 'type'));
        // Bedrock stream exceptions (`ThrottlingException`), Anthropic's `details.error_code`.
        addCode(read(detail, 'name'));
        addCode(readPath(detail, 'details', 'error_code'));
        const detailStatus = read(detail, 'status');
        if (typeof detailStatus === 'string') addCode(detailStatus);
        googleDetails(read(detail, 'details'), addCode, retryHints);
        // OpenRouter relays the upstream's rate-limit headers in `error.metadata.headers`.
        relayedHeaders.push(readPath(detail, 'metadata', 'headers'));
      }
    }
    const ownHint = read(node, 'retryAfterMs');
    if (typeof ownHint === 'number' && Number.isFinite(ownHint) && ownHint >= 0) retryHints.push(ownHint);
    for (const source of [
      read(node, 'responseHeaders'),
      read(node, 'headers'),
      readPath(node, 'response', 'headers'),
      ...relayedHeaders,
    ]) {
      if (typeof source === 'object' && source !== null) retryHints.push(source);
    }
    // Bedrock names its exception in a header: "ThrottlingException:http://internal.amazon.com/coral/…".
    const amznType = headerValue(read(node, 'responseHeaders'), 'x-amzn-errortype');
    if (amznType !== undefined) addCode(amznType.split(':')[0]);
    // The body holds what the message may lack (OpenRouter's upstream error in `metadata.raw`, Gemini's
    // RetryInfo); a stream-error object has no body, only the parsed `data`.
    const body = read(node, 'responseBody');
    if (typeof body === 'string') addText(body);
    else if (data !== undefined) addText(typeof data === 'string' ? data : safeJson(data));
  }
  texts.push(...codes);
  return { nodes, status, codes, names, isRetryable, text: boundedView(texts.join('\n')), retryHints };
}

const googleType = (detail: unknown, type: string): boolean => {
  const at = read(detail, '@type');
  return typeof at === 'string' && at.endsWith(type);
};

/**
 * Google's `error.details[]`: an `ErrorInfo.reason` (e.g. `RATE_LIMIT_EXCEEDED`) is a code, a
 * `RetryInfo.retryDelay` ("34s", "0.5s") a retry hint in ms.
 */
function googleDetails(details: unknown, addCode: (code: unknown) => void, retryHints: unknown[]): void {
  let listed: unknown[];
  try {
    // `Array.isArray` and `slice` throw on a revoked proxy: such details are none.
    if (!Array.isArray(details)) return;
    listed = details.slice(0, maxListedErrors);
  } catch {
    return;
  }
  for (const detail of listed) {
    if (googleType(detail, 'google.rpc.ErrorInfo')) addCode(read(detail, 'reason'));
    const delay = googleType(detail, 'google.rpc.RetryInfo') ? read(detail, 'retryDelay') : undefined;
    const seconds = typeof delay === 'string' ? /^(\d{1,9}(?:\.\d{1,9})?)s$/.exec(delay) : null;
    if (seconds) retryHints.push(Math.round(Number(seconds[1]) * 1000));
  }
}

/** One header of a `Headers` instance or a plain record, matched case-insensitively. */
export function headerValue(headers: unknown, name: string): string | undefined {
  if (typeof headers !== 'object' || headers === null) return undefined;
  try {
    if (typeof Headers !== 'undefined' && headers instanceof Headers) return headers.get(name) ?? undefined;
    const record = headers as Record<string, unknown>;
    let value = record[name];
    if (value === undefined) {
      const key = Object.keys(record).find((k) => k.toLowerCase() === name);
      value = key === undefined ? undefined : record[key];
    }
    if (Array.isArray(value)) value = value[0];
    return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
  } catch {
    return undefined;
  }
}
