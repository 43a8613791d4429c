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
import { type LanguageModelMiddleware, wrapLanguageModel } from 'ai';
import { classifyError } from '../../../../src/classify/classify.js';
import type { ClassifyOverrides } from '../../../../src/classify/types.js';
import { cooldownGate } from '../../../../src/policy/cooldown-gate.js';
import type { Coordination } from '../../../../src/policy/coordination.js';
import type { Clock, Sleep } from '../../../../src/util/time.js';
import { keyAs, modelKey } from './model-key.js';

/** What the wrapper needs of the guard's resolved options. */
export interface CoordinatedModelOptions {
  coordination: Coordination;
  /** The longest wait for a cool-down (the guard's `maxRetryAfterMs`). */
  maxWaitMs: number;
  classify: ClassifyOverrides | undefined;
  clock: Clock;
  sleep: Sleep;
}

/** `model` with shared cool-downs before each request and announced after each failure with a retry-after. */
export function coordinatedModel(model: LanguageModelV4, options: CoordinatedModelOptions): LanguageModelV4 {
  const gateOf = async () => cooldownGate(options.coordination, await modelKey(model));
  const delayOf = (error: unknown) => {
    const { retryAfterMs, kind } = classifyError(error, { ...options.classify, clock: options.clock });
    return kind === 'transient' ? retryAfterMs : undefined;
  };
  const wait = (params: LanguageModelV4CallOptions) => ({
    maxWaitMs: options.maxWaitMs,
    sleep: options.sleep,
    signal: params.abortSignal,
  });
  const middleware: LanguageModelMiddleware = {
    specificationVersion: 'v4',
    wrapGenerate: async ({ doGenerate, params }) =>
      (await gateOf()).around(wait(params), doGenerate, delayOf),
    wrapStream: async ({ doStream, params }) => {
      const gate = await gateOf();
      const result = await gate.around(wait(params), doStream, delayOf);
      return {
        ...result,
        stream: announcingErrorParts(result.stream, (error) => gate.failed(delayOf(error))),
      };
    },
  };
  return keyAs(wrapLanguageModel({ model, middleware }), model);
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
