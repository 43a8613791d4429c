/**
 * The drop-ins behave like `ai`'s functions where nothing went wrong, and like them plus graceful-ai's guarantees
 * where something did (issue "Drop-ins in fact"). One test per break found by running the AI SDK's own suites.
 */
import { experimental_toolCaller, isStepCount, tool, type UIMessageChunk } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { generateText } from '../../../../adapters/ai-sdk/drop-in/generate-text.js';
import { streamText } from '../../../../adapters/ai-sdk/drop-in/stream-text.js';
import { scriptedModel as turnModel } from '../scripted-model.js';
import {
  apiError,
  finish,
  inBandError,
  preamble,
  scriptedModel,
  streamOf,
  textParts,
} from '../stream-guard-fixtures.js';

const noSleep = { sleep: async () => {} };
const cutAfter = (text: string, error: unknown) =>
  streamOf([...preamble('r1'), ...textParts(text, { open: true })], error);
const errorPartAfter = (text: string, error: unknown) =>
  streamOf([...preamble('r1'), ...textParts(text, { open: true }), { type: 'error', error }, finish()]);

async function chunksOf(stream: ReadableStream<UIMessageChunk>): Promise<UIMessageChunk[]> {
  const chunks: UIMessageChunk[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
  return chunks;
}

describe('a failure nothing recovers is surfaced the SDK way, and the partial answer is never passed off', () => {
  const scenarios = [
    ['a 401 error part mid-answer', () => scriptedModel([errorPartAfter('Hello wor', apiError(401))])],
    [
      'an in-band auth error mid-answer',
      () =>
        scriptedModel([
          errorPartAfter(
            'Hello wor',
            inBandError({ message: 'bad key', type: 'authentication_error', statusCode: 401 }),
          ),
        ]),
    ],
    [
      'a cut mid-answer whose recovery request fails too (retries used up)',
      () => scriptedModel([cutAfter('Hello wor', apiError(503))], [{ throws: apiError(503) }]),
    ],
  ] as const;

  it.each(scenarios)(
    '%s: error part in fullStream, onError, onEnd and onFinish, and text rejects',
    async (_, model) => {
      const onError = vi.fn();
      const onEnd = vi.fn();
      const result = streamText({ model: model(), prompt: 'hi', onError, onEnd, streamGuard: noSleep });
      const types: string[] = [];
      for await (const part of result.fullStream) types.push(part.type);
      expect(types).toContain('error');
      expect(types.at(-1)).toBe('finish');
      expect(onError).toHaveBeenCalledTimes(1);
      expect(onEnd).toHaveBeenCalledTimes(1);
      await expect(result.text).rejects.toBeDefined();
      await expect(result.steps).rejects.toBeDefined();
    },
  );

  it.each(scenarios)(
    '%s: the UI stream ends with an error chunk, not an aborted response',
    async (_, model) => {
      const onFinish = vi.fn();
      const result = streamText({
        model: model(),
        prompt: 'hi',
        onFinish,
        onError() {},
        streamGuard: noSleep,
      });
      const chunks = await chunksOf(result.toUIMessageStream());
      expect(chunks.filter((c) => c.type === 'error')).toHaveLength(1);
      expect(chunks.at(-1)?.type).toBe('finish');
      expect(onFinish).toHaveBeenCalledTimes(1); // the deprecated alias of onEnd
    },
  );

  it('text rejects with the very error the provider sent (a 401 mid-answer)', async () => {
    const error = apiError(401);
    const result = streamText({
      model: scriptedModel([errorPartAfter('Hello', error)]),
      prompt: 'hi',
      onError() {},
    });
    await expect(result.text).rejects.toBe(error);
  });

  it('a 401 before any output: onError, and text rejects with it (ai: NoOutputGeneratedError, no cause)', async () => {
    const error = apiError(401);
    const onError = vi.fn();
    const result = streamText({ model: scriptedModel([{ throws: error }]), prompt: 'hi', onError });
    await expect(result.text).rejects.toBe(error);
    expect(onError).toHaveBeenCalledWith({ error });
  });
});

describe('callbacks and their deprecated aliases', () => {
  const answer = () =>
    scriptedModel(
      [streamOf([...preamble('r1'), ...textParts('Hi'), finish()])],
      [
        {
          content: [{ type: 'text', text: 'Hi' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: {
            inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: 1, text: 1, reasoning: 0 },
          },
          warnings: [],
        },
      ],
    );

  it('onFinish (deprecated alias of onEnd) is called by both drop-ins', async () => {
    const streamed = vi.fn();
    await streamText({ model: answer(), prompt: 'hi', onFinish: streamed }).text;
    expect(streamed).toHaveBeenCalledTimes(1);
    const generated = vi.fn();
    await generateText({ model: answer(), prompt: 'hi', onFinish: generated });
    expect(generated).toHaveBeenCalledTimes(1);
  });

  it("onStart reports the caller's maxRetries (the SDK runs with 0 underneath)", async () => {
    const onStart = vi.fn();
    await streamText({ model: answer(), prompt: 'hi', maxRetries: 5, onStart }).text;
    expect(onStart.mock.calls[0]?.[0]).toMatchObject({ maxRetries: 5 });
    const defaulted = vi.fn();
    await generateText({ model: answer(), prompt: 'hi', onStart: defaulted });
    expect(defaulted.mock.calls[0]?.[0]).toMatchObject({ maxRetries: 2 });
  });

  it('a clean first-attempt success carries no graceful-ai metadata, as the SDK result has none', async () => {
    const streamed = streamText({ model: answer(), prompt: 'hi' });
    expect((await streamed.providerMetadata)?.['graceful-ai']).toBeUndefined();
    const generated = await generateText({ model: answer(), prompt: 'hi' });
    expect(generated.providerMetadata?.['graceful-ai']).toBeUndefined();
  });

  it('generateText keeps the SDK warning that timeout.chunkMs applies to streaming only', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const plain = await import('ai').then(({ generateText: sdk }) =>
      sdk({ model: answer(), prompt: 'hi', timeout: { chunkMs: 1_000 } }),
    );
    const ours = await generateText({ model: answer(), prompt: 'hi', timeout: { chunkMs: 1_000 } });
    expect(ours.warnings).toEqual(plain.warnings);
    warn.mockRestore();
  });
});

describe('tools keep what makes them work', () => {
  const callThenText = (name: string) =>
    turnModel((step) => (step === 0 ? { calls: [[name, { q: 'x' }]] } : { text: 'done' }));

  it.each(['streamText', 'generateText'] as const)(
    'a generator tool streams preliminary results and stores its final output (%s)',
    async (api) => {
      const search = tool({
        inputSchema: z.object({ q: z.string() }),
        async *execute() {
          yield { status: 'searching' };
          yield { status: 'done', hits: 3 };
        },
      });
      const options = {
        model: callThenText('search'),
        prompt: 'go',
        tools: { search },
        stopWhen: isStepCount(3),
      };
      if (api === 'generateText') {
        const result = await generateText(options);
        expect(result.steps[0]?.toolResults.map((r) => r.output)).toEqual([{ status: 'done', hits: 3 }]);
        return;
      }
      const result = streamText(options);
      const results = [];
      for await (const part of result.fullStream) if (part.type === 'tool-result') results.push(part);
      expect(results.map((p) => [p.preliminary ?? false, p.output])).toEqual([
        [true, { status: 'searching' }],
        [true, { status: 'done', hits: 3 }],
        [false, { status: 'done', hits: 3 }],
      ]);
      expect((await result.steps)[0]?.toolResults.map((r) => r.output)).toEqual([
        { status: 'done', hits: 3 },
      ]);
      const ui = streamText({ ...options, model: callThenText('search') }).toUIMessageStream();
      const preliminary = (await chunksOf(ui)).filter(
        (c) => c.type === 'tool-output-available' && c.preliminary === true,
      );
      expect(preliminary).toHaveLength(2);
    },
  );

  it('a class-based tool keeps `this` (its fields and methods)', async () => {
    class Lookup {
      readonly inputSchema = z.object({ q: z.string() });
      readonly prefix = 'found';
      format(q: string) {
        return `${this.prefix}: ${q}`;
      }
      async execute({ q }: { q: string }) {
        return this.format(q);
      }
    }
    const lookup = new Lookup();
    const options = () => ({
      model: callThenText('lookup'),
      prompt: 'go',
      tools: { lookup },
      stopWhen: isStepCount(3),
    });
    const generated = (await generateText(options())).steps;
    const streamed = await streamText(options()).steps;
    for (const steps of [generated, streamed]) {
      expect(steps[0]?.toolResults.map((r) => r.output)).toEqual(['found: x']);
    }
  });

  it('a non-enumerable property (experimental_toolCaller) still reaches the SDK: allowedCallers in the request', async () => {
    const inner = tool({ inputSchema: z.object({ q: z.string() }), execute: async () => 'ok' });
    const withCaller = experimental_toolCaller(inner, { allowedCallers: ['code_execution'] } as never);
    const sdk = await import('ai');
    const sent = async (run: typeof generateText | typeof sdk.generateText) => {
      const model = callThenText('t');
      await run({ model, prompt: 'go', tools: { t: withCaller }, stopWhen: isStepCount(1) }).catch(() => {});
      return model.doGenerateCalls[0]?.tools;
    };
    expect(await sent(generateText)).toEqual(await sent(sdk.generateText));
  });

  it('approval hooks and input hooks run with the tool as `this`', async () => {
    const seen: unknown[] = [];
    const hooked = {
      inputSchema: z.object({ q: z.string() }),
      marker: 'me',
      onInputAvailable(this: { marker: string }) {
        seen.push(this.marker);
      },
      execute: async () => 'ok',
    };
    await generateText({
      model: callThenText('h'),
      prompt: 'go',
      tools: { h: tool(hooked) },
      stopWhen: isStepCount(3),
    });
    expect(seen).toEqual(['me']);
  });
});

describe('callbacks as the caller sees them', () => {
  it('onStart gets the caller’s own tools object, even when the SDK hands over a frozen event', async () => {
    const { guardCallOptions } = await import('../../../../adapters/ai-sdk/drop-in/guard-call-options.js');
    const weather = tool({ inputSchema: z.object({ q: z.string() }), execute: async () => 'ok' });
    const tools = { weather };
    const seen: unknown[] = [];
    const { options } = guardCallOptions(
      {
        model: scriptedModel([]),
        tools,
        onStart: (event: { tools: unknown }) => seen.push(event.tools),
      } as never,
      'generateText',
    );
    const sdkSide = options as unknown as { tools: unknown; onStart(event: object): void };
    sdkSide.onStart(Object.freeze({ tools: sdkSide.tools, maxRetries: 0 }));
    expect(sdkSide.tools).not.toBe(tools);
    expect(seen).toEqual([tools]);
    seen.length = 0;
    sdkSide.onStart({ tools: sdkSide.tools });
    expect(seen[0]).toBe(tools);
  });
});
