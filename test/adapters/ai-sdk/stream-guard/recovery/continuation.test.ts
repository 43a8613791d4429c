/**
 * Continuation recovery at the middleware: the capability table, the opt-in styles for OpenAI-compatible servers
 * (what the recovery request's call options carry, which `@ai-sdk/openai-compatible` turns into body fields and
 * message fields), the whitespace join, a server that ignores the prefill, and the option checks.
 */
import {
  APICallError,
  type LanguageModelV4CallOptions,
  type LanguageModelV4GenerateResult,
} from '@ai-sdk/provider';
import { streamText as sdkStreamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { streamText } from '../../../../../adapters/ai-sdk/drop-in/stream-text.js';
import type { StreamGuardOptions } from '../../../../../adapters/ai-sdk/stream-guard/options.js';
import {
  continuationByProvider,
  isPrefillRejection,
  prefill,
} from '../../../../../adapters/ai-sdk/stream-guard/recovery/continuation.js';
import { EmittedContent } from '../../../../../adapters/ai-sdk/stream-guard/recovery/emitted-content.js';
import { Reconciliation } from '../../../../../adapters/ai-sdk/stream-guard/recovery/reconciliation.js';
import { streamGuard } from '../../../../../adapters/ai-sdk/stream-guard/stream-guard.js';
import { isResetPart } from '../../../../../src/stream/reset-part.js';
import { type Part, preamble, streamOf, textParts, usage } from '../../stream-guard-fixtures.js';

const cutAfter = (shown: string) =>
  streamOf([...preamble('r1'), ...textParts(shown, { open: true })], cutError());
const cutError = () => Object.assign(new Error('terminated'), { cause: { code: 'UND_ERR_SOCKET' } });
const answer = (text: string): LanguageModelV4GenerateResult => ({
  content: [{ type: 'text', text }],
  finishReason: { unified: 'stop', raw: 'stop' },
  usage,
  warnings: [],
});

/** A model of `provider` whose stream is cut after `shown`; its generate calls are recorded and answer `reply`. */
function cutModel(provider: string, shown: string, reply: (call: LanguageModelV4CallOptions) => string) {
  const calls: LanguageModelV4CallOptions[] = [];
  const model = new MockLanguageModelV4({
    provider,
    modelId: 'm',
    doStream: async () => ({ stream: cutAfter(shown) }),
    doGenerate: async (call) => {
      calls.push(call);
      return answer(reply(call));
    },
  });
  return { model, calls };
}

async function consume(model: MockLanguageModelV4, guard: StreamGuardOptions = {}) {
  const result = sdkStreamText({
    model: wrapLanguageModel({ model, middleware: streamGuard({ sleep: async () => {}, ...guard }) }),
    prompt: 'Say it.',
    maxRetries: 0,
  });
  const parts = [];
  for await (const part of result.fullStream) parts.push(part);
  return { text: await result.text, parts };
}

const lastMessage = (call: LanguageModelV4CallOptions | undefined) => call?.prompt.at(-1);

describe('which calls continue', () => {
  it('by default only the providers of the capability table (Anthropic Messages)', async () => {
    expect(continuationByProvider).toEqual({ 'anthropic.messages': 'anthropic' });
    const plain = cutModel('openai.chat', 'Hello wor', () => 'Hello world.');
    await consume(plain.model);
    expect(lastMessage(plain.calls[0])?.role).toBe('user');
  });

  it("'vllm' → the prefill, and continue_final_message / add_generation_prompt under the provider's options name", async () => {
    const { model, calls } = cutModel('vllm.chat', 'Hello wor', () => 'ld.');
    const { text } = await consume(model, { continuation: 'vllm' });
    expect(text).toBe('Hello world.');
    expect(lastMessage(calls[0])).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'Hello wor' }],
    });
    expect(calls[0]?.providerOptions).toEqual({
      vllm: { continue_final_message: true, add_generation_prompt: false },
    });
  });

  it("'prefix' → the prefill marked prefix: true for @ai-sdk/openai-compatible (DeepSeek, Mistral)", async () => {
    const { model, calls } = cutModel('deepseek.chat', 'Hello wor', () => 'ld.');
    const { text } = await consume(model, { continuation: 'prefix' });
    expect(text).toBe('Hello world.');
    expect(lastMessage(calls[0])).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'Hello wor' }],
      providerOptions: { openaiCompatible: { prefix: true } },
    });
  });

  it("'anthropic' never prefills with extended thinking enabled", () => {
    const params = { prompt: [] } as LanguageModelV4CallOptions;
    const thinking = { ...params, providerOptions: { anthropic: { thinking: { type: 'enabled' } } } };
    expect(prefill('anthropic', { provider: 'anthropic.messages' }, params, ['Hi'])).toBeDefined();
    expect(prefill('anthropic', { provider: 'anthropic.messages' }, thinking, ['Hi'])).toBeUndefined();
    // Nothing but whitespace shown: nothing to continue.
    expect(prefill('anthropic', { provider: 'anthropic.messages' }, params, [' \n'])).toBeUndefined();
  });

  it('a server that ignored the prefill (its answer repeats the shown text) is reconciled as a regeneration', async () => {
    const { model } = cutModel('vllm.chat', 'Hello wor', () => 'Hello world.');
    const { text, parts } = await consume(model, { continuation: 'vllm' });
    expect(text).toBe('Hello world.');
    expect(parts.some(isResetPart)).toBe(false);
  });
});

describe('what counts as a refused prefill', () => {
  it('a 400 or 422 from the continuation request, but not a context overflow (also a 400)', () => {
    const apiError = (statusCode: number, message: string) =>
      new APICallError({
        message,
        url: 'https://api.anthropic.com/v1/messages',
        requestBodyValues: {},
        statusCode,
      });
    expect(
      isPrefillRejection(apiError(400, 'Prefilling assistant messages is not supported for this model.')),
    ).toBe(true);
    expect(isPrefillRejection(apiError(422, 'Unprocessable'))).toBe(true);
    expect(isPrefillRejection(apiError(400, 'prompt is too long: 210000 tokens > 200000 maximum'))).toBe(
      false,
    );
    expect(isPrefillRejection(apiError(529, 'Overloaded'))).toBe(false);
  });
});

describe('the continuation joins the shown text exactly', () => {
  const continued = (shown: string, continuation: string) => {
    const emitted = new EmittedContent();
    for (const part of textParts(shown, { open: true })) emitted.track(part);
    const plan = prefill('anthropic', { provider: 'anthropic.messages' }, { prompt: [] }, [shown])!;
    const parts = new Reconciliation(emitted, 2, plan).whole(answer(continuation));
    return { plan, parts, text: parts.map((p) => (p.type === 'text-delta' ? p.delta : '')).join('') };
  };

  it.each([
    ['shown "a " + " b": the shared space once', 'a ', ' b', 'b'],
    ['shown "a " + "b": straight on', 'a ', 'b', 'b'],
    ['shown "a\\n\\n" + "\\n\\nb": both newlines once', 'a\n\n', '\n\nb', 'b'],
    ['shown "a\\n\\n" + "\\nb": the newline it repeats once', 'a\n\n', '\nb', 'b'],
    ['shown "a" + " b": the space it adds', 'a', ' b', ' b'],
  ])('%s', (_name, shown, continuation, emitted) => {
    const { plan, text, parts } = continued(shown, continuation);
    expect(plan.text).toBe(shown.trimEnd());
    expect(text).toBe(emitted);
    expect(parts.at(-1)).toEqual({ type: 'text-end', id: 't1' });
  });

  it('a prefill of several text blocks keeps each; only the last loses its trailing whitespace', () => {
    const plan = prefill('anthropic', { provider: 'anthropic.messages' }, { prompt: [] }, ['One. ', 'Two '])!;
    expect(plan.params.prompt.at(-1)).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'One. ' },
        { type: 'text', text: 'Two' },
      ],
    });
    expect(plan.whitespace).toBe(' ');
  });

  it('a streamed continuation that starts with a tool call closes the shown text first', () => {
    const emitted = new EmittedContent();
    for (const part of textParts('Let me check', { open: true })) emitted.track(part);
    const reconciliation = new Reconciliation(emitted, 2, { text: 'Let me check', whitespace: '' });
    const call: Part = { type: 'tool-call', toolCallId: 'c', toolName: 'weather', input: '{}' };
    expect([...reconciliation.push(call), ...reconciliation.end()]).toEqual([
      { type: 'text-end', id: 't1' },
      call,
    ]);
  });
});

describe('the options', () => {
  it.each([
    [{ recovery: 'streamed' }, "option 'recovery' must be one of 'generate', 'stream'"],
    [
      { continuation: 'on' },
      "option 'continuation' must be one of 'auto', 'off', 'anthropic', 'vllm', 'prefix'",
    ],
    [{ continuation: true }, "option 'continuation' must be one of"],
  ])('%j → a TypeError naming the option and its values', (options, message) => {
    expect(() => streamGuard(options as StreamGuardOptions)).toThrow(TypeError);
    expect(() => streamGuard(options as StreamGuardOptions)).toThrow(message);
  });

  it('on the drop-ins they are named streamGuard.<option>', () => {
    expect(() =>
      streamText({
        model: cutModel('x', 'a', () => 'b').model,
        prompt: 'x',
        streamGuard: { recovery: 'x' as 'stream' },
      }),
    ).toThrow("option 'streamGuard.recovery' must be one of 'generate', 'stream'");
  });
});

describe('cancelling during a streamed recovery', () => {
  it('reaches the recovery request and ends the call without a further request', async () => {
    let recoveryCancelled = false;
    let streams = 0;
    const model = new MockLanguageModelV4({
      doStream: async () => {
        streams++;
        if (streams === 1) return { stream: cutAfter('Hello') };
        return {
          stream: new ReadableStream<Part>({
            start(controller) {
              controller.enqueue({ type: 'text-start', id: 'x' });
              controller.enqueue({ type: 'text-delta', id: 'x', delta: 'Hello there' });
            },
            cancel() {
              recoveryCancelled = true;
            },
          }),
        };
      },
    });
    const guard = streamGuard({ recovery: 'stream' });
    const params = { prompt: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'x' }] }] };
    const { stream } = await guard.wrapStream!({
      model,
      params,
      doStream: () => model.doStream(params),
      doGenerate: () => model.doGenerate(params),
    });
    const reader = stream.getReader();
    let text = '';
    while (!text.includes(' there')) {
      const { value } = await reader.read();
      if (value?.type === 'text-delta') text += value.delta;
    }
    await reader.cancel();
    expect(text).toBe('Hello there');
    await new Promise((resolve) => setImmediate(resolve));
    expect(recoveryCancelled).toBe(true);
    expect(streams).toBe(2);
  });
});
