/**
 * The scripted provider of the conformance suite: a scenario describes what the model answers, call by call, and
 * `scriptedModel` turns that into a fresh `MockLanguageModelV4` for each run (so `ai` and the drop-in see the
 * same provider, and each run records its own `doStreamCalls` / `doGenerateCalls`).
 *
 * In stream mode the n-th `doStream` call plays `replies[n]`, and a `doGenerate` call (only the guard's recovery
 * makes one) plays `recovery[n]`. In generate mode the n-th `doGenerate` call plays `replies[n]`.
 */
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
  SharedV4ProviderMetadata,
  SharedV4Warning,
} from '@ai-sdk/provider';
import { createProviderStreamError } from '@ai-sdk/provider-utils';
import { APICallError } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';

/** One piece of a model answer. Text and reasoning stream as `deltas` pieces (default 1). */
export type Piece =
  | { type: 'text'; text: string; deltas?: number; providerMetadata?: SharedV4ProviderMetadata }
  | { type: 'reasoning'; text: string; deltas?: number; providerMetadata?: SharedV4ProviderMetadata }
  | { type: 'source'; id: string; url: string; title?: string }
  | { type: 'file'; mediaType: string; base64: string }
  | { type: 'tool-call'; toolName: string; input: string; toolCallId: string; streamInput?: boolean }
  | { type: 'custom'; kind: `${string}.${string}` }
  | { type: 'raw'; rawValue: unknown };

/** A complete answer. `finish` defaults to `tool-calls` when a tool call is in it, else `stop`. */
export interface Answer {
  content: Piece[];
  finish?: LanguageModelV4FinishReason['unified'];
  rawFinish?: string;
  warnings?: SharedV4Warning[];
  /** Send `response-metadata` (stream) / `response` (generate) with fixed id, model id and timestamp. */
  metadata?: boolean;
  providerMetadata?: SharedV4ProviderMetadata;
}

/** A fresh error per call: the code under test may annotate the objects it receives. */
export type ErrorFactory = () => unknown;

/** What one model call does. */
export type Reply =
  | { answer: Answer }
  /** `doStream` / `doGenerate` rejects before anything is sent. */
  | { reject: ErrorFactory }
  /**
   * The stream sends `stream-start` and `partial` (blocks left open), then fails: an `error` part followed by a
   * `finish` with reason `error` ('error-part'), the stream itself erroring ('throw'), a stall until the request's
   * signal aborts ('stall'), the caller aborting its own controller ('abort'), a clean `finish` with reason
   * `interrupted` ('interrupted') or `other` with no provider reason ('other', as Bedrock, xAI, DeepSeek and Azure
   * end a cut body), or a clean close with no finish at all ('no-finish', as the AI Gateway). In generate mode the
   * call fails the same way without any content.
   */
  | {
      partial: Piece[];
      ending: 'error-part' | 'throw' | 'stall' | 'abort' | 'interrupted' | 'other' | 'no-finish';
      error?: ErrorFactory;
      warnings?: SharedV4Warning[];
    };

/** The provider's side of a scenario. */
export interface ModelScript {
  replies: Reply[];
  /** Stream mode only: what `doGenerate` answers (the guard's recovery request). */
  recovery?: Reply[];
}

/** Hooks a run gives the model: the caller's abort (for `ending: 'abort'`). */
export interface ModelHooks {
  abortCaller(): void;
}

/** A fixed date for scripted response metadata (the normaliser keeps it, unlike `new Date()`). */
export const SCRIPTED_DATE = new Date(Date.UTC(2025, 0, 1, 12, 0, 0));

export const usage: LanguageModelV4Usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

const apiUrl = 'https://api.example.test/v1/chat';

/** Error factories for the scripts. */
export const errors = {
  /** An HTTP error as a provider throws it. Retryable (429, 5xx) ones carry `retry-after-ms: 0` unless told. */
  api:
    (statusCode: number, options: { retryAfterMs?: number | null; message?: string } = {}): ErrorFactory =>
    () => {
      const retryAfterMs = options.retryAfterMs === undefined ? 0 : options.retryAfterMs;
      const message = options.message ?? `HTTP ${statusCode} from the provider`;
      return new APICallError({
        message,
        url: apiUrl,
        requestBodyValues: { model: 'mock-model-id' },
        statusCode,
        responseHeaders: retryAfterMs === null ? {} : { 'retry-after-ms': String(retryAfterMs) },
        responseBody: JSON.stringify({ error: { message } }),
      });
    },
  /** An in-band provider error payload (the shape providers put into an `error` part). */
  inBand:
    (fields: {
      message: string;
      type?: string;
      code?: string;
      statusCode?: number;
      isRetryable?: boolean;
    }): ErrorFactory =>
    () =>
      createProviderStreamError({ ...fields, data: { error: { ...fields } } }),
  /** A socket reset in the middle of the body, as the fetch-based providers report it. */
  reset: (): ErrorFactory => () =>
    new APICallError({
      message: 'terminated',
      url: apiUrl,
      requestBodyValues: {},
      statusCode: 200,
      isRetryable: true,
      cause: new TypeError('terminated'),
    }),
  plain:
    (message: string): ErrorFactory =>
    () =>
      new Error(message),
};

function finishOf(answer: Answer): LanguageModelV4FinishReason {
  const toolCalls = answer.content.some((p) => p.type === 'tool-call');
  return {
    unified: answer.finish ?? (toolCalls ? 'tool-calls' : 'stop'),
    raw: answer.rawFinish ?? answer.finish ?? (toolCalls ? 'tool_calls' : 'stop'),
  };
}

function split(text: string, pieces: number): string[] {
  if (pieces <= 1 || text.length <= 1) return [text];
  const size = Math.ceil(text.length / pieces);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** The stream parts of `pieces`; `open` leaves the last text/reasoning block without its end (a cut). */
function streamParts(pieces: Piece[], open: boolean): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [];
  pieces.forEach((piece, i) => {
    const last = i === pieces.length - 1;
    switch (piece.type) {
      case 'text':
      case 'reasoning': {
        const id = `${piece.type === 'text' ? 'txt' : 'rsn'}-${i}`;
        const kind = piece.type;
        const pm = piece.providerMetadata ? { providerMetadata: piece.providerMetadata } : {};
        parts.push({ type: `${kind}-start`, id, ...pm } as LanguageModelV4StreamPart);
        for (const delta of split(piece.text, piece.deltas ?? 1)) {
          parts.push({ type: `${kind}-delta`, id, delta } as LanguageModelV4StreamPart);
        }
        if (!(open && last)) parts.push({ type: `${kind}-end`, id, ...pm } as LanguageModelV4StreamPart);
        break;
      }
      case 'source':
        parts.push({ type: 'source', sourceType: 'url', id: piece.id, url: piece.url, title: piece.title });
        break;
      case 'file':
        parts.push({ type: 'file', mediaType: piece.mediaType, data: { type: 'data', data: piece.base64 } });
        break;
      case 'tool-call':
        if (piece.streamInput) {
          parts.push({ type: 'tool-input-start', id: piece.toolCallId, toolName: piece.toolName });
          for (const delta of split(piece.input, 2)) {
            parts.push({ type: 'tool-input-delta', id: piece.toolCallId, delta });
          }
          parts.push({ type: 'tool-input-end', id: piece.toolCallId });
        }
        parts.push({
          type: 'tool-call',
          toolCallId: piece.toolCallId,
          toolName: piece.toolName,
          input: piece.input,
        });
        break;
      case 'custom':
        parts.push({ type: 'custom', kind: piece.kind });
        break;
      case 'raw':
        parts.push({ type: 'raw', rawValue: piece.rawValue });
        break;
    }
  });
  return parts;
}

function generateContent(pieces: Piece[]): LanguageModelV4Content[] {
  return pieces.flatMap((piece): LanguageModelV4Content[] => {
    switch (piece.type) {
      case 'text':
        return [{ type: 'text', text: piece.text, providerMetadata: piece.providerMetadata }];
      case 'reasoning':
        return [{ type: 'reasoning', text: piece.text, providerMetadata: piece.providerMetadata }];
      case 'source':
        return [{ type: 'source', sourceType: 'url', id: piece.id, url: piece.url, title: piece.title }];
      case 'file':
        return [{ type: 'file', mediaType: piece.mediaType, data: { type: 'data', data: piece.base64 } }];
      case 'tool-call':
        return [
          { type: 'tool-call', toolCallId: piece.toolCallId, toolName: piece.toolName, input: piece.input },
        ];
      case 'custom':
        return [{ type: 'custom', kind: piece.kind }];
      default: // 'raw' parts exist only in streams
        return [];
    }
  });
}

const metadataFields = { id: 'resp-scripted', modelId: 'mock-model-2025', timestamp: SCRIPTED_DATE };

function unscripted(n: number, mode: string): Reply {
  return { answer: { content: [{ type: 'text', text: `(unscripted ${mode} call #${n + 1})` }] } };
}

/** Waits until `signal` aborts, then rejects with its reason (as `fetch` does). Never settles without one. */
function untilAborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => {
    if (signal === undefined) return;
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

function streamOf(reply: Reply, call: LanguageModelV4CallOptions, hooks: ModelHooks) {
  const signal = call.abortSignal;
  let parts: LanguageModelV4StreamPart[];
  let ending: 'close' | 'throw' | 'stall' | 'abort' = 'close';
  let error: unknown;
  if ('answer' in reply) {
    const { answer } = reply;
    parts = [{ type: 'stream-start', warnings: answer.warnings ?? [] }];
    if (answer.metadata) parts.push({ type: 'response-metadata', ...metadataFields });
    parts.push(...streamParts(answer.content, false));
    parts.push({
      type: 'finish',
      finishReason: finishOf(answer),
      usage,
      ...(answer.providerMetadata ? { providerMetadata: answer.providerMetadata } : {}),
    });
  } else if ('partial' in reply) {
    parts = [{ type: 'stream-start', warnings: reply.warnings ?? [] }];
    const clean = reply.ending === 'interrupted' || reply.ending === 'other' || reply.ending === 'no-finish';
    parts.push(...streamParts(reply.partial, !clean));
    switch (reply.ending) {
      case 'error-part':
        parts.push({ type: 'error', error: reply.error?.() });
        parts.push({ type: 'finish', finishReason: { unified: 'error', raw: 'error' }, usage });
        break;
      case 'interrupted':
      case 'other':
        parts.push({ type: 'finish', finishReason: { unified: reply.ending, raw: undefined }, usage });
        break;
      case 'no-finish':
        break;
      case 'throw':
        ending = 'throw';
        error = reply.error?.();
        break;
      default:
        ending = reply.ending;
    }
  } else {
    throw new Error('streamOf: a rejecting reply has no stream');
  }
  let closed = false;
  let index = 0;
  return new ReadableStream<LanguageModelV4StreamPart>(
    {
      start(controller) {
        signal?.addEventListener(
          'abort',
          () => {
            if (closed) return;
            closed = true;
            controller.error(signal.reason);
          },
          { once: true },
        );
      },
      async pull(controller) {
        if (closed) return;
        const part = parts[index++];
        if (part !== undefined) {
          controller.enqueue(part);
          return;
        }
        switch (ending) {
          case 'close':
            closed = true;
            controller.close();
            return;
          case 'throw':
            closed = true;
            controller.error(error);
            return;
          case 'abort':
            hooks.abortCaller();
            return untilAborted(signal).catch(() => {});
          case 'stall':
            return untilAborted(signal).catch(() => {});
        }
      },
      cancel() {
        closed = true;
      },
    },
    { highWaterMark: 0 },
  );
}

async function generateOf(
  reply: Reply,
  call: LanguageModelV4CallOptions,
  hooks: ModelHooks,
): Promise<LanguageModelV4GenerateResult> {
  if ('reject' in reply) throw reply.reject();
  if ('partial' in reply) {
    switch (reply.ending) {
      case 'stall':
        return untilAborted(call.abortSignal);
      case 'abort':
        hooks.abortCaller();
        return untilAborted(call.abortSignal);
      default:
        throw reply.error?.() ?? new Error('scripted failure');
    }
  }
  const { answer } = reply;
  return {
    content: generateContent(answer.content),
    finishReason: finishOf(answer),
    usage,
    warnings: answer.warnings ?? [],
    ...(answer.metadata ? { response: { ...metadataFields } } : {}),
    ...(answer.providerMetadata ? { providerMetadata: answer.providerMetadata } : {}),
  };
}

/** A fresh mock model playing `script` in `mode`. */
export function scriptedModel(
  script: ModelScript,
  mode: 'stream' | 'generate',
  hooks: ModelHooks,
): MockLanguageModelV4 {
  let streams = 0;
  let generates = 0;
  return new MockLanguageModelV4({
    doStream: async (call) => {
      const n = streams++;
      const reply = (mode === 'stream' ? script.replies[n] : undefined) ?? unscripted(n, 'doStream');
      if ('reject' in reply) throw reply.reject();
      return { stream: streamOf(reply, call, hooks) };
    },
    doGenerate: async (call) => {
      const n = generates++;
      const list = mode === 'generate' ? script.replies : (script.recovery ?? []);
      return generateOf(list[n] ?? unscripted(n, 'doGenerate'), call, hooks);
    },
  });
}
