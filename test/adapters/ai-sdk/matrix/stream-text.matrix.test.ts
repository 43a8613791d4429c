/**
 * The scenario matrix, drop-in `streamText` (the stream guard): each scenario on every wire, with the real provider
 * package parsing what the fault kit sends.
 */
import { isStepCount, type TextStreamPart, type ToolSet, tool } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { streamText } from '../../../../adapters/ai-sdk/stream-text.js';
import { fault, type RecordedRequest, reply, streamFault } from '../../../../mocks/index.js';
import { classifyError, isContextOverflow } from '../../../../src/classify/classify.js';
import { type Wire, wires } from '../../../wires.js';
import { mockEveryWire, readStream, recordedSleep } from './mocked.js';

const mock = mockEveryWire();

const ANSWER = 'The quick brown fox jumps over the lazy dog.';
const SUNNY = 'It is sunny in Paris.';

/** The guard's record of each attempt of the call's last step. */
async function attemptsOf(result: { providerMetadata: PromiseLike<unknown> }) {
  const metadata = (await result.providerMetadata) as
    | { 'graceful-ai'?: { attempts?: unknown[] } }
    | undefined;
  return metadata?.['graceful-ai']?.attempts;
}

function run(wire: Wire, options: { tools?: ToolSet; reasoning?: boolean } = {}) {
  const { sleep, delays } = recordedSleep();
  const onError = vi.fn();
  const result = streamText({
    model: wire.model(),
    prompt: 'What is the weather in Paris?',
    tools: options.tools,
    stopWhen: isStepCount(3),
    providerOptions: options.reasoning ? wire.reasoning : undefined,
    streamGuard: { sleep, random: () => 0.5 },
    onError,
  });
  return { result, delays, onError };
}

const weatherTool = () => {
  const execute = vi.fn(async ({ city }: { city: string }) => `sunny in ${city}`);
  return { execute, tools: { weather: tool({ inputSchema: z.object({ city: z.string() }), execute }) } };
};

/** Where each wire carries a reasoning signature in the request after the step that produced it. */
const signatureSent: Record<Wire['name'], (body: Record<string, unknown>) => unknown> = {
  chat: () => undefined,
  responses: (body) =>
    (body.input as Array<{ type: string; encrypted_content?: string }>).find((i) => i.type === 'reasoning')
      ?.encrypted_content,
  messages: (body) =>
    (body.messages as Array<{ role: string; content: Array<{ type: string; signature?: string }> }>)
      .find((m) => m.role === 'assistant')
      ?.content.find((c) => c.type === 'thinking')?.signature,
  generateContent: (body) =>
    (
      body.contents as Array<{
        role: string;
        parts: Array<{ functionCall?: unknown; thoughtSignature?: string }>;
      }>
    )
      .find((c) => c.role === 'model')
      ?.parts.find((p) => p.functionCall !== undefined)?.thoughtSignature,
};

const streamed = (requests: RecordedRequest[]) => requests.map((r) => r.stream);

/**
 * Parts that say something went wrong: error parts, and custom parts that are not the provider's own (Anthropic's
 * `anthropic.message_start` is), e.g. the guard's reset part (`graceful-ai.reset`).
 */
const troubleIn = (wire: Wire, parts: TextStreamPart<ToolSet>[]) =>
  parts.filter((p) => p.type === 'error' || (p.type === 'custom' && !p.kind.startsWith(`${wire.provider}.`)));

describe.each(wires)('drop-in streamText on $name ($label)', (wire) => {
  it.each([
    ['a socket reset', streamFault.cut({ afterChars: 13 })],
    ['an in-band error', streamFault.error({ afterChars: 13 })],
    ['a clean end without a finish', streamFault.endEarly({ afterChars: 13 })],
    [
      'a clean end with a finish that names no reason',
      streamFault.endEarly({ afterChars: 13, finish: 'other' }),
    ],
  ])('%s after 13 characters → the remainder only: each character shown once', async (_name, cut) => {
    const requests = mock([reply.text(ANSWER, { fault: cut }), reply.text(ANSWER)]);
    const { result } = run(wire);
    const { parts, shown } = await readStream(result.fullStream);
    expect(shown).toBe(ANSWER);
    expect(troubleIn(wire, parts)).toEqual([]);
    expect(await result.text).toBe(ANSWER);
    expect(await result.finishReason).toBe('stop');
    expect(streamed(requests)).toEqual([true, false]);
    expect(await attemptsOf(result)).toMatchObject([
      { mode: 'stream', outcome: 'failed', charsEmitted: 13 },
      { mode: 'generate', outcome: 'ok', charsEmitted: ANSWER.length - 13 },
    ]);
  });

  it.each([
    ['a 503', fault.serverError(503)],
    ['a socket reset', reply.text(ANSWER, { fault: streamFault.cut({ afterChars: 0 }) })],
    ['an in-band error', reply.text(ANSWER, { fault: streamFault.error({ afterChars: 0 }) })],
    ['a clean end without a finish', reply.text(ANSWER, { fault: streamFault.endEarly({ afterChars: 0 }) })],
    [
      'a clean end with a finish that names no reason',
      reply.text(ANSWER, { fault: streamFault.endEarly({ afterChars: 0, finish: 'other' }) }),
    ],
  ])('%s before content → a new stream after the backoff, one step shown', async (_name, first) => {
    const requests = mock([first, reply.text(ANSWER)]);
    const { result, delays } = run(wire);
    const { parts, shown } = await readStream(result.fullStream);
    expect(shown).toBe(ANSWER);
    expect(troubleIn(wire, parts)).toEqual([]);
    expect(parts.filter((p) => p.type === 'start-step')).toHaveLength(1);
    expect(streamed(requests)).toEqual([true, true]);
    expect(delays).toEqual([1000]);
  });

  it('a 429 with a retry-after before content → the injected sleep gets the requested 3 s', async () => {
    const requests = mock([fault.rateLimit({ retryAfterSeconds: 3 }), reply.text(ANSWER)]);
    const { result, delays } = run(wire);
    expect((await readStream(result.fullStream)).shown).toBe(ANSWER);
    expect(delays).toEqual([3000]);
    expect(streamed(requests)).toEqual([true, true]);
  });

  it('a context overflow is terminal: no retry, result.text rejects with an error isContextOverflow knows', async () => {
    const requests = mock([fault.contextLengthExceeded(), reply.text('never')]);
    const { result, delays, onError } = run(wire);
    const { shown } = await readStream(result.fullStream);
    expect(shown).toBe('');
    const error = await Promise.resolve(result.text).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AI_APICallError', statusCode: 400 });
    expect(isContextOverflow(error)).toBe(true);
    expect(onError).toHaveBeenCalledOnce();
    expect(requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('an auth failure is terminal: no retry, result.text rejects with the provider error', async () => {
    const requests = mock([fault.unauthorized(), reply.text('never')]);
    const { result, delays, onError } = run(wire);
    const error = await Promise.resolve(result.text).catch((e: unknown) => e);
    // Gemini answers a bad key with 400 INVALID_ARGUMENT (API_KEY_INVALID), the others with 401.
    expect(error).toMatchObject({
      name: 'AI_APICallError',
      statusCode: wire.name === 'generateContent' ? 400 : 401,
    });
    expect(classifyError(error).kind).toBe('permanent');
    expect(onError).toHaveBeenCalledOnce();
    expect(requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('an early end whose recovery fails for good: result.text rejects, never the partial answer', async () => {
    const requests = mock([
      reply.text(ANSWER, { fault: streamFault.endEarly({ afterChars: 13, finish: 'other' }) }),
      fault.unauthorized(),
    ]);
    const { result, onError } = run(wire);
    const { shown } = await readStream(result.fullStream);
    expect(shown).toBe(ANSWER.slice(0, 13));
    await expect(result.text).rejects.toMatchObject({ name: 'AI_APICallError' });
    expect(onError).toHaveBeenCalledOnce();
    expect(streamed(requests)).toEqual([true, false]);
  });

  it('an early end with recovery off (degrade: false): result.text rejects with StreamInterruptedError', async () => {
    mock([reply.text(ANSWER, { fault: streamFault.endEarly({ afterChars: 13, finish: 'other' }) })]);
    const result = streamText({
      model: wire.model(),
      prompt: 'hi',
      streamGuard: { degrade: false },
      onError: () => {},
    });
    await readStream(result.fullStream);
    await expect(result.text).rejects.toMatchObject({ name: 'StreamInterruptedError', charsEmitted: 13 });
  });

  it('a stall right after the first frame (the provider still reading ahead) → the stall timeout fires: a new stream', async () => {
    const requests = mock([
      reply.text(ANSWER, { fault: streamFault.stall({ afterChars: 0 }) }),
      reply.text(ANSWER),
    ]);
    const { sleep } = recordedSleep();
    const result = streamText({
      model: wire.model(),
      prompt: 'hi',
      timeout: { chunkMs: 50 },
      streamGuard: { sleep },
    });
    const { shown } = await readStream(result.fullStream);
    expect(shown).toBe(ANSWER);
    expect(streamed(requests)).toEqual([true, true]);
    expect(await attemptsOf(result)).toMatchObject([
      { error: { name: 'StreamStalledError' } },
      { outcome: 'ok' },
    ]);
  });

  it('text then a tool call, cut in its arguments, recovered identically: the text is shown once, no reset', async () => {
    const step = (fault?: ReturnType<typeof streamFault.cut>) =>
      reply.toolCalls([{ name: 'weather', args: { city: 'Paris' } }], { text: 'Adding. ', fault });
    const requests = mock([step(streamFault.cut({ afterChars: 10 })), step(), reply.text(SUNNY)]);
    const { execute, tools } = weatherTool();
    const { result } = run(wire, { tools });
    const { parts, shown } = await readStream(result.fullStream);
    expect(shown).toBe(`Adding. ${SUNNY}`);
    expect(troubleIn(wire, parts)).toEqual([]);
    expect(execute).toHaveBeenCalledOnce();
    expect(await result.text).toBe(SUNNY);
    expect(streamed(requests)).toEqual([true, false, true]);
    if (wire.name === 'responses') {
      // The text item of the cut response is not referred to again: the recovered response's item is.
      const input = JSON.stringify((requests[2]!.body as { input?: unknown }).input);
      expect(input).not.toContain('msg_mock_1');
      expect(input).toContain('msg_mock_2');
      // What the app keeps (steps, messages to store) names the recovered item too.
      const [first] = await result.steps;
      const itemIds = JSON.stringify([first?.content, first?.response.messages]).match(/msg_mock_\d/g);
      expect(new Set(itemIds)).toEqual(new Set(['msg_mock_2']));
    }
  });

  it('a tool loop whose answer step is cut after the tool call: the tool runs once, the answer completes', async () => {
    const requests = mock([
      reply.toolCall('weather', { city: 'Paris' }),
      reply.text(SUNNY, { fault: streamFault.cut({ afterChars: 6 }) }),
      reply.text(SUNNY),
    ]);
    const { execute, tools } = weatherTool();
    const { result } = run(wire, { tools });
    const { parts, shown } = await readStream(result.fullStream);
    expect(shown).toBe(SUNNY);
    expect(troubleIn(wire, parts)).toEqual([]);
    expect(execute).toHaveBeenCalledOnce();
    expect(await result.text).toBe(SUNNY);
    expect(streamed(requests)).toEqual([true, true, false]);
  });

  it('a stream cut after the tool call, before its finish: the recovered step runs the tool once', async () => {
    const requests = mock([
      // A position past the output falls after all of it, before the finish.
      reply.toolCall('weather', { city: 'Paris' }, { fault: streamFault.cut({ afterChars: 1_000 }) }),
      reply.toolCall('weather', { city: 'Paris' }),
      reply.text(SUNNY),
    ]);
    const { execute, tools } = weatherTool();
    const { result } = run(wire, { tools });
    const { shown } = await readStream(result.fullStream);
    expect(shown).toBe(SUNNY);
    expect(execute).toHaveBeenCalledOnce();
    expect(execute.mock.calls[0]?.[0]).toEqual({ city: 'Paris' });
    expect(streamed(requests)).toEqual([true, false, true]);
  });

  const reasoningTitle =
    'extended thinking cut mid-thought, recovered: the next step sends the signed reasoning back';
  it.skipIf(wire.reasoning === undefined)(
    wire.reasoning === undefined
      ? `${reasoningTitle} — skip: the chat wire has no reasoning`
      : reasoningTitle,
    async () => {
      const thinking = { text: 'The user wants the weather in Paris.', signature: 'sig-weather-1' };
      const requests = mock([
        reply.toolCall(
          'weather',
          { city: 'Paris' },
          { reasoning: thinking, fault: streamFault.cut({ afterChars: 12 }) },
        ),
        reply.toolCall('weather', { city: 'Paris' }, { reasoning: thinking }),
        reply.text(SUNNY),
      ]);
      const { execute, tools } = weatherTool();
      const { result } = run(wire, { tools, reasoning: true });
      const { parts, shown } = await readStream(result.fullStream);
      expect(shown).toBe(SUNNY);
      const thought = parts.map((p) => (p.type === 'reasoning-delta' ? p.text : '')).join('');
      expect(thought).toBe(thinking.text);
      expect(troubleIn(wire, parts)).toEqual([]);
      expect(execute).toHaveBeenCalledOnce();
      expect(streamed(requests)).toEqual([true, false, true]);
      expect(signatureSent[wire.name](requests[2]!.body as Record<string, unknown>)).toBe('sig-weather-1');
    },
  );
});
