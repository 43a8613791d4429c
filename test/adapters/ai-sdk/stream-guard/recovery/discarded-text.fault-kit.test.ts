/**
 * After a divergent recovery (a `graceful-ai.reset`), the discarded text must not reach the chat UI, what the app
 * persists, or any later request: the next step of the same turn, or the next turn built from stored messages.
 * Driven through the real `@ai-sdk/openai` provider (chat and responses) and the fault kit.
 */
import { createOpenAI } from '@ai-sdk/openai';
import {
  convertToModelMessages,
  isStepCount,
  type ModelMessage,
  readUIMessageStream,
  toUIMessageStream as sdkToUIMessageStream,
  type TextStreamPart,
  type ToolSet,
  tool,
  type UIMessage,
  type UIMessageChunk,
} from 'ai';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { generateText } from '../../../../../adapters/ai-sdk/drop-in/generate-text.js';
import { streamText } from '../../../../../adapters/ai-sdk/drop-in/stream-text.js';
import { withoutDiscarded } from '../../../../../adapters/ui/index.js';
import { type RecordedRequest, reply, type ScriptFunction, streamFault } from '../../../../../mocks/index.js';
import { mockHandlers } from '../../../../../mocks/msw.js';
import { isResetPart } from '../../../../../src/stream/reset-part.js';
import { FakeServerResponse } from '../../../../sdk-conformance/observe.js';

const msw = setupServer();
beforeAll(() => msw.listen({ onUnhandledFrame: 'error' }));
afterEach(() => msw.resetHandlers());
afterAll(() => msw.close());

const openai = createOpenAI({ apiKey: 'sk-test' });
const noSleep = { sleep: async () => {} };

const DISCARDED = 'Hmm, let me ';
const ANSWER = 'The answer is 42.';

/** Streams "Hmm, let me …" and cuts it after 12 characters; the recovery request answers something else. */
const cutThenOtherAnswer: ScriptFunction = (_request, { index }) =>
  index === 0
    ? reply.text(`${DISCARDED}think.`, { fault: streamFault.cut({ afterChars: DISCARDED.length }) })
    : reply.text(ANSWER);

const add = tool({
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

/**
 * A tool turn: the first answer ("Hmm, let me think." + a call) is cut after 12 characters, streamed or not; the
 * recovery says "I will add them." with the same call; then the final answer.
 */
const toolTurn: ScriptFunction = (_request, { index }) => {
  const call = [{ name: 'add', args: { a: 1, b: 2 } }];
  if (index === 0)
    return reply.toolCalls(call, {
      text: `${DISCARDED}think.`,
      fault: streamFault.cut({ afterChars: DISCARDED.length }),
    });
  if (index === 1) return reply.toolCalls(call, { text: 'I will add them.' });
  return reply.text('1 + 2 = 3.');
};

function mock(script: ScriptFunction): RecordedRequest[] {
  const handlers = mockHandlers(script);
  msw.use(...handlers);
  return handlers.requests;
}

const body = (request: RecordedRequest | undefined) => JSON.stringify(request?.body);

/** The UI message as `useChat` holds it at the end of the stream. */
async function lastMessage(stream: ReadableStream<never> | AsyncIterable<unknown>): Promise<UIMessage> {
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream: stream as ReadableStream<never> }))
    last = message;
  if (last === undefined) throw new Error('the UI stream produced no message');
  return last;
}

/** The UI chunks of a stream, in order. */
async function chunksOf(stream: AsyncIterable<UIMessageChunk>): Promise<UIMessageChunk[]> {
  const chunks: UIMessageChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

/** What a client holds when the result's parts went through `ai`'s own converter, which keeps a reset `custom`. */
function sdkUIStream<T extends ToolSet>(result: {
  stream: ReadableStream<TextStreamPart<T>>;
}): ReadableStream<UIMessageChunk> {
  return sdkToUIMessageStream({ stream: result.stream });
}

const texts = (message: UIMessage) => message.parts.flatMap((p) => (p.type === 'text' ? [p.text] : []));
const partTypes = (message: UIMessage) => message.parts.map((p) => p.type);

type UIEnd = { responseMessage: UIMessage; messages: UIMessage[] };

/** The event of a UI stream callback's first call. */
function uiEnd(callback: { mock: { calls: unknown[][] } }): UIEnd {
  const event = callback.mock.calls[0]?.[0];
  if (event === undefined) throw new Error('the callback was not called');
  return event as UIEnd;
}

const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'What is the answer?' }] };

/** The ids of stored response items a responses request refers to instead of sending them. */
function referencedItems(request: RecordedRequest | undefined): string[] {
  const input = (request?.body as { input?: { type?: string; id?: string }[] } | undefined)?.input ?? [];
  return input.flatMap((item) => (item.type === 'item_reference' && item.id ? [item.id] : []));
}

/** The ids of the text blocks the resets in a UI message discarded (on responses: the failed stream's items). */
function discardedIds(message: UIMessage): string[] {
  return message.parts.flatMap((part) =>
    isResetPart(part) ? part.providerMetadata['graceful-ai'].reset.textIds : [],
  );
}

/**
 * The request holds the recovered answer only: no discarded text, no reference to a discarded item, and the
 * answer itself (as text, or on stored responses possibly as a reference to its own item).
 */
function expectOnlyRecovered(request: RecordedRequest | undefined, shown: UIMessage): void {
  const sent = body(request);
  const referenced = referencedItems(request);
  expect(sent).not.toContain(DISCARDED);
  expect(referenced.filter((id) => discardedIds(shown).includes(id))).toEqual([]);
  expect(sent.includes(ANSWER) || referenced.length > 0).toBe(true);
}

describe.each(['chat', 'responses'] as const)('discarded text after a reset (%s)', (api) => {
  const model = api === 'chat' ? openai.chat('gpt-4o') : openai.responses('gpt-4o');
  // The responses provider sends stored items by reference; unstored, it sends their text, which a test can read.
  const unstored = { openai: { store: false } };

  describe('in the chat UI', () => {
    it('the UI stream sends reset-step: the client holds only the recovered answer, with no helper', async () => {
      mock(cutThenOtherAnswer);
      const result = streamText({ model, prompt: 'hi', streamGuard: noSleep });
      const chunks = await chunksOf(result.toUIMessageStream());
      const reset = chunks.findIndex((chunk) => chunk.type === 'reset-step');
      expect(chunks.slice(0, reset)).toContainEqual(
        expect.objectContaining({ type: 'text-delta', delta: 'Hmm,' }),
      );
      expect(chunks.filter((chunk) => chunk.type === 'custom')).toEqual([]);
      const shown = await lastMessage(
        streamText({ model, prompt: 'hi', streamGuard: noSleep }).toUIMessageStream(),
      );
      expect(partTypes(shown)).toEqual(['step-start', 'text']);
      expect(texts(shown)).toEqual([ANSWER]);
    });

    it('ai’s own converter keeps the reset as a custom part, which withoutDiscarded hides', async () => {
      mock(cutThenOtherAnswer);
      const result = streamText({ model, prompt: 'hi', streamGuard: noSleep });
      const shown = await lastMessage(sdkUIStream(result));
      expect(partTypes(shown)).toEqual(['step-start', 'text', 'custom', 'text']);
      expect(texts(shown)).toEqual([DISCARDED, ANSWER]);
      const clean = withoutDiscarded(shown);
      expect(partTypes(clean)).toEqual(['step-start', 'text']);
      expect(texts(clean)).toEqual([ANSWER]);
    });

    it('a cut inside a tool call’s arguments: the incomplete tool input goes with the discarded text', async () => {
      mock((_request, { index }) =>
        index === 0
          ? reply.toolCalls([{ name: 'add', args: { a: 1, b: 2 } }], {
              text: DISCARDED,
              // 12 characters of text, then 4 of the arguments.
              fault: streamFault.cut({ afterChars: DISCARDED.length + 4 }),
            })
          : reply.text(ANSWER),
      );
      const onFinish = vi.fn();
      const result = streamText({ model, prompt: 'hi', tools: { add }, streamGuard: noSleep });
      const shown = await lastMessage(result.toUIMessageStream({ onFinish }));
      expect(shown.parts).toEqual([
        { type: 'step-start' },
        expect.objectContaining({ type: 'text', text: ANSWER }),
      ]);
      expect(uiEnd(onFinish).responseMessage).toEqual(shown);
      const sdkShown = await lastMessage(sdkUIStream(result));
      expect(sdkShown.parts).toContainEqual(
        expect.objectContaining({ type: 'tool-add', state: 'input-streaming' }),
      );
      expect(withoutDiscarded(sdkShown).parts).toEqual(shown.parts);
    });
  });

  describe('in what onFinish hands the app to persist', () => {
    it('toUIMessageStream: onFinish, onEnd and onStepEnd get responseMessage and messages without it', async () => {
      mock(cutThenOtherAnswer);
      const onFinish = vi.fn();
      const onEnd = vi.fn();
      const onStepEnd = vi.fn();
      const result = streamText({ model, prompt: 'hi', streamGuard: noSleep });
      // Two readers of the same result: the deprecated alias and the current name.
      await lastMessage(result.toUIMessageStream({ originalMessages: [user], onFinish, onStepEnd }));
      await lastMessage(result.toUIMessageStream({ originalMessages: [user], onEnd }));
      for (const callback of [onFinish, onEnd, onStepEnd]) {
        expect(callback).toHaveBeenCalledOnce();
        const { responseMessage, messages } = uiEnd(callback);
        expect(texts(responseMessage)).toEqual([ANSWER]);
        expect(partTypes(responseMessage)).toEqual(['step-start', 'text']);
        expect(messages).toHaveLength(2);
        expect(messages[0]).toBe(user);
        expect(messages[1]).toEqual(responseMessage);
      }
    });

    it('toUIMessageStreamResponse: the body carries reset-step, onFinish persists the clean message', async () => {
      mock(cutThenOtherAnswer);
      const onFinish = vi.fn();
      const result = streamText({ model, prompt: 'hi', streamGuard: noSleep });
      const response = result.toUIMessageStreamResponse({ onFinish, headers: { 'x-app': '1' } });
      expect(response.headers.get('x-app')).toBe('1');
      const sent = await response.text();
      expect(sent).toContain('"type":"reset-step"');
      expect(sent).not.toContain('graceful-ai.reset');
      expect(sent).toContain('"delta":"Hmm,"');
      const { responseMessage } = uiEnd(onFinish);
      expect(texts(responseMessage)).toEqual([ANSWER]);
    });

    it('pipeUIMessageStreamToResponse: onFinish persists the clean message; the response options still apply', async () => {
      mock(cutThenOtherAnswer);
      const onFinish = vi.fn();
      const result = streamText({ model, prompt: 'hi', streamGuard: noSleep });
      const response = new FakeServerResponse();
      result.pipeUIMessageStreamToResponse(response as never, { onFinish, status: 201 });
      await response.finished;
      await vi.waitFor(() => expect(onFinish).toHaveBeenCalledOnce());
      expect(response.statusCode).toBe(201);
      expect(response.body).toContain('"type":"reset-step"');
      expect(texts(uiEnd(onFinish).responseMessage)).toEqual([ANSWER]);
    });

    it('the next turn, built from the persisted messages, sends only the recovered answer', async () => {
      const requests = mock((request, ctx) =>
        ctx.index < 2 ? cutThenOtherAnswer(request, ctx) : reply.text('You are welcome.'),
      );
      let persisted: UIMessage[] = [];
      const first = streamText({ model, prompt: 'hi', streamGuard: noSleep });
      await lastMessage(
        first.toUIMessageStream({
          originalMessages: [user],
          onFinish: ({ messages }) => {
            persisted = messages;
          },
        }),
      );
      const shown = await lastMessage(sdkUIStream(first));
      const thanks: UIMessage = { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'Thanks' }] };
      const next = streamText({
        model,
        messages: await convertToModelMessages([...persisted, thanks]),
        streamGuard: noSleep,
      });
      expect(await next.text).toBe('You are welcome.');
      expect(discardedIds(shown)).toHaveLength(1);
      expectOnlyRecovered(requests[2], shown);
    });
  });

  describe('in the next request', () => {
    it('streamText: the next step of a tool turn carries only the recovered answer', async () => {
      const requests = mock(toolTurn);
      const result = streamText({
        model,
        prompt: 'Add 1 and 2.',
        tools: { add },
        stopWhen: isStepCount(3),
        providerOptions: unstored,
        streamGuard: noSleep,
      });
      expect(await result.text).toBe('1 + 2 = 3.');
      expect(requests.map((r) => r.stream)).toEqual([true, false, true]);
      expect(body(requests[2])).toContain('I will add them.');
      expect(body(requests[2])).not.toContain(DISCARDED);
    });

    it.runIf(api === 'responses')(
      'streamText, stored responses: the next step never refers to the failed stream’s message item',
      async () => {
        const requests = mock(toolTurn);
        const result = streamText({
          model,
          prompt: 'Add 1 and 2.',
          tools: { add },
          stopWhen: isStepCount(3),
          streamGuard: noSleep,
        });
        const failedItems: string[] = [];
        for await (const part of result.fullStream) {
          if (isResetPart(part)) failedItems.push(...part.providerMetadata['graceful-ai'].reset.textIds);
        }
        expect(failedItems).toHaveLength(1);
        expect(referencedItems(requests[2])).not.toContain(failedItems[0]);
        expect(body(requests[2])).not.toContain(DISCARDED);
      },
    );

    it('streamText: the caller’s prepareStep sees the clean messages, and what it returns is sent', async () => {
      const requests = mock(toolTurn);
      const seen: ModelMessage[][] = [];
      const result = streamText({
        model,
        prompt: 'Add 1 and 2.',
        tools: { add },
        stopWhen: isStepCount(3),
        providerOptions: unstored,
        prepareStep: ({ messages, responseMessages }) => {
          seen.push(messages, responseMessages);
          return { messages: [...messages, { role: 'user', content: 'Be brief.' }] };
        },
        streamGuard: noSleep,
      });
      await result.text;
      const secondStep = JSON.stringify(seen.slice(2));
      expect(secondStep).toContain('I will add them.');
      expect(secondStep).not.toContain(DISCARDED);
      expect(body(requests[2])).toContain('Be brief.');
      expect(body(requests[2])).not.toContain(DISCARDED);
    });

    it('generateText: after a recovered tool step, the next step carries only the recovered answer', async () => {
      const requests = mock(toolTurn);
      const result = await generateText({
        model,
        prompt: 'Add 1 and 2.',
        tools: { add },
        stopWhen: isStepCount(3),
        providerOptions: unstored,
        streamGuard: noSleep,
      });
      expect(result.text).toBe('1 + 2 = 3.');
      expect(requests.map((r) => r.stream)).toEqual([false, false, false]);
      expect(body(requests[2])).toContain('I will add them.');
      expect(body(requests[2])).not.toContain(DISCARDED);
    });

    it.each(['streamText', 'generateText', 'streamText, streamGuard: false'] as const)(
      '%s: a prompt from chat messages the client did not clean carries no discarded text',
      async (dropIn) => {
        // A client of ai's own converter, sending its state back as it is: discarded text and reset part included.
        mock(cutThenOtherAnswer);
        const shown = await lastMessage(
          sdkUIStream(streamText({ model, prompt: 'hi', streamGuard: noSleep })),
        );
        expect(texts(shown)).toContain(DISCARDED);
        msw.resetHandlers();
        const requests = mock(() => reply.text('You are welcome.'));
        const thanks: UIMessage = { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'Thanks' }] };
        const messages = await convertToModelMessages([user, shown, thanks]);
        const text =
          dropIn === 'generateText'
            ? (await generateText({ model, messages, streamGuard: noSleep })).text
            : await streamText({ model, messages, streamGuard: dropIn === 'streamText' ? noSleep : false })
                .text;
        expect(text).toBe('You are welcome.');
        expectOnlyRecovered(requests[0], shown);
      },
    );
  });
});
