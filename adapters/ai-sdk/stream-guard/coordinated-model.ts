/**
 * The stream guard's side of shared cool-downs: a model whose every request first waits out a cool-down announced
 * by another caller of the same provider, model and API key (or fails fast with `CooldownError`), and whose
 * failures carrying a retry-after announce one. Wrapped around the provider model per guarded call, so the guard's
 * own retry loop is unchanged: a `CooldownError` is one more transient failure with a retry-after it cannot wait.
 */
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4StreamPart as Part,
} from '@ai-sdk/provider';
import { classifyError } from '../../../src/classify/classify.js';
import type { ClassifyOverrides } from '../../../src/classify/types.js';
import { cooldownGate } from '../../../src/policy/cooldown-gate.js';
import type { Coordination } from '../../../src/policy/coordination.js';
import { fingerprint } from '../../../src/util/fingerprint.js';
import { read } from '../../../src/util/guarded.js';
import type { Clock, Sleep } from '../../../src/util/time.js';

/** What the wrapper needs of the guard's resolved options. */
export interface CoordinatedModelOptions {
  coordination: Coordination;
  /** The longest wait for a cool-down (the guard's `maxRetryAfterMs`). */
  maxWaitMs: number;
  classify: ClassifyOverrides | undefined;
  clock: Clock;
  sleep: Sleep;
}

/** The request headers that carry a provider's API key (OpenAI and compatibles, Anthropic, Azure, Google). */
const credentialHeaders = ['authorization', 'x-api-key', 'api-key', 'x-goog-api-key'];

const keys = new WeakMap<object, Promise<string>>();

/**
 * `model:<provider>:<model id>`, plus `:<fingerprint>` of the API key when the model exposes its request headers as
 * the AI SDK's providers do (`config.headers`, a record or a function returning one: see
 * github.com/vercel/ai packages/openai/src/chat/openai-chat-language-model.ts). Two keys never share a cool-down;
 * the key itself never leaves the process.
 */
export function modelCooldownKey(model: LanguageModelV4): Promise<string> {
  let key = keys.get(model);
  if (key === undefined) {
    key = keyOf(model);
    keys.set(model, key);
  }
  return key;
}

async function keyOf(model: LanguageModelV4): Promise<string> {
  const base = `model:${model.provider}:${model.modelId}`;
  try {
    const source = read(read(model, 'config'), 'headers');
    const headers: unknown = await (typeof source === 'function' ? source() : source);
    for (const [name, value] of Object.entries((headers ?? {}) as Record<string, unknown>)) {
      if (typeof value === 'string' && value !== '' && credentialHeaders.includes(name.toLowerCase())) {
        return `${base}:${await fingerprint(value)}`;
      }
    }
  } catch {
    // No readable credentials (a missing key throws here, and fails the request itself): provider and model only.
  }
  return base;
}

/** `model` with shared cool-downs before each request and announced after each failure with a retry-after. */
export function coordinatedModel(model: LanguageModelV4, options: CoordinatedModelOptions): LanguageModelV4 {
  const gateOf = async () => cooldownGate(options.coordination, await modelCooldownKey(model));
  const delayOf = (error: unknown) => {
    const { retryAfterMs, kind } = classifyError(error, { ...options.classify, clock: options.clock });
    return kind === 'transient' ? retryAfterMs : undefined;
  };
  const wait = (params: LanguageModelV4CallOptions) => ({
    maxWaitMs: options.maxWaitMs,
    sleep: options.sleep,
    signal: params.abortSignal,
  });
  return {
    specificationVersion: model.specificationVersion,
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    doGenerate: async (params) =>
      (await gateOf()).around(wait(params), () => model.doGenerate(params), delayOf),
    doStream: async (params) => {
      const gate = await gateOf();
      const result = await gate.around(wait(params), () => model.doStream(params), delayOf);
      return {
        ...result,
        stream: announcingErrorParts(result.stream, (error) => gate.failed(delayOf(error))),
      };
    },
  };
}

/** The same stream; an in-band `error` part (a rate limit inside a 200 stream) is announced before it is passed on. */
function announcingErrorParts(
  stream: ReadableStream<Part>,
  announce: (error: unknown) => void | Promise<void>,
): ReadableStream<Part> {
  const reader = stream.getReader();
  return new ReadableStream<Part>(
    {
      pull: async (controller) => {
        const next = await reader.read();
        if (next.done) return controller.close();
        if (next.value.type === 'error') await announce(next.value.error);
        controller.enqueue(next.value);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}
