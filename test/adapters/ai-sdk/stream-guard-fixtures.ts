import type {
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { APICallError } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';

export type Part = LanguageModelV4StreamPart;

export const usage: LanguageModelV4Usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

export const preamble = (id: string): Part[] => [
  { type: 'stream-start', warnings: [] },
  { type: 'response-metadata', id, modelId: 'mock' },
];

/** `text` streamed as deltas of `size` characters in block `id`; `open` leaves the block unended. */
export function textParts(text: string, { id = 't1', size = 4, open = false } = {}): Part[] {
  const parts: Part[] = [{ type: 'text-start', id }];
  for (let i = 0; i < text.length; i += size)
    parts.push({ type: 'text-delta', id, delta: text.slice(i, i + size) });
  if (!open) parts.push({ type: 'text-end', id });
  return parts;
}

type Unified = Extract<Part, { type: 'finish' }>['finishReason']['unified'];

/** A finish part; the raw reason is the unified one unless given (`undefined`: the provider gave none). */
export const finish = (unified: Unified = 'stop', ...raw: [string | undefined] | []): Part => ({
  type: 'finish',
  usage,
  finishReason: { unified, raw: raw.length === 0 ? unified : raw[0] },
});

/** A pull-based stream: the parts, then an error (the stream rejects) or a clean close. */
export function streamOf(parts: Part[], failWith?: unknown): ReadableStream<Part> {
  let i = 0;
  return new ReadableStream<Part>(
    {
      pull(controller) {
        if (i < parts.length) controller.enqueue(parts[i++]!);
        else if (failWith !== undefined) controller.error(failWith);
        else controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}

/** A stream that sends `parts`, then nothing at all (a stall). */
export function stallingStream(parts: Part[]): ReadableStream<Part> {
  let i = 0;
  return new ReadableStream<Part>(
    {
      pull(controller) {
        if (i < parts.length) controller.enqueue(parts[i++]!);
        else return new Promise<void>(() => {});
      },
    },
    { highWaterMark: 0 },
  );
}

export function apiError(
  statusCode: number,
  { body = '', headers = {} as Record<string, string> } = {},
): APICallError {
  return new APICallError({
    message: `HTTP ${statusCode}`,
    url: 'https://api.example/v1',
    requestBodyValues: {},
    statusCode,
    responseHeaders: headers,
    responseBody: body,
    isRetryable: statusCode === 429 || statusCode >= 500,
    data: body ? JSON.parse(body) : undefined,
  });
}

/** The in-band error payload a provider puts in an `error` part (tagged, not an Error). */
export function inBandError(fields: { message: string; type?: string; code?: string; statusCode?: number }) {
  const error = { ...fields, isRetryable: undefined, data: { error: fields } };
  Object.defineProperty(error, Symbol.for('vercel.ai.providerStreamError'), { value: true });
  return error;
}

export function generated(
  text: string,
  extra: LanguageModelV4GenerateResult['content'] = [],
): LanguageModelV4GenerateResult {
  return {
    content: [...extra, { type: 'text', text }],
    finishReason: { unified: extra.some((c) => c.type === 'tool-call') ? 'tool-calls' : 'stop', raw: 'stop' },
    usage,
    warnings: [],
  };
}

type StreamStep = ReadableStream<Part> | { throws: unknown };
type GenerateStep = LanguageModelV4GenerateResult | { throws: unknown };

/** A MockLanguageModelV4 that answers each doStream / doGenerate call with the next scripted step. */
export function scriptedModel(
  streams: StreamStep[],
  generates: GenerateStep[] = [],
  id: { provider?: string; modelId?: string } = {},
) {
  return new MockLanguageModelV4({
    ...id,
    doStream: async () => {
      const step = streams.shift();
      if (step === undefined) throw new Error('test script: no more streams');
      if ('throws' in step) throw step.throws;
      return { stream: step };
    },
    doGenerate: async () => {
      const step = generates.shift();
      if (step === undefined) throw new Error('test script: no more generate results');
      if ('throws' in step) throw step.throws;
      return step;
    },
  });
}

/** A tool's `execute` whose first `failures` calls fail with a connection reset (transient), then return `result`. */
export function flakyExecute<R>(failures: number, result: R): { execute: () => Promise<R>; calls(): number } {
  let calls = 0;
  return {
    execute: async () => {
      if (calls++ < failures) throw Object.assign(new Error('connect ECONNRESET'), { code: 'ECONNRESET' });
      return result;
    },
    calls: () => calls,
  };
}
