/**
 * Empty answers: no content with a finish that is no deliberate end (`content-filter`, `other`, `error`) is retried
 * once (counted as a retry), then the call fails with `EmptyAnswerError`, which `ai`'s `NoOutputGeneratedError.isInstance`
 * recognises too; `text` never resolves to `''` after such an answer. An empty answer that ends with `stop` (nothing to
 * add after the tool calls) is an answer.
 */
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import type { LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { isStepCount, NoOutputGeneratedError, streamText as sdkStreamText, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generateText } from '../../../../adapters/ai-sdk/drop-in/generate-text.js';
import { streamText } from '../../../../adapters/ai-sdk/drop-in/stream-text.js';
import type { StreamGuardEvent } from '../../../../adapters/ai-sdk/stream-guard/options.js';
import { EmptyAnswerError } from '../../../../src/errors/empty-answer-error.js';
import { type Reply, replayFetch, sseData } from '../provider-wire.js';
import {
  finish,
  generated,
  type Part,
  preamble,
  scriptedModel,
  streamOf,
  textParts,
  usage,
} from '../stream-guard-fixtures.js';

type Unified = Extract<Part, { type: 'finish' }>['finishReason']['unified'];

/** A stream that ends with `unified` (raw `raw`) before any content. */
const emptyStream = (unified: Unified, raw?: string) => streamOf([...preamble('r'), finish(unified, raw)]);
const answer = () => streamOf([...preamble('ok'), ...textParts('Here it is.'), finish('stop')]);
const emptyResult = (unified: Unified, raw?: string): LanguageModelV4GenerateResult => ({
  content: [],
  finishReason: { unified, raw },
  usage,
  warnings: [],
});

const noWait = { sleep: async () => {} };

describe('without the guard (what users report)', () => {
  it("ai's streamText resolves text to '' for an answer the content filter withheld", async () => {
    const result = sdkStreamText({
      model: scriptedModel([emptyStream('content-filter', 'SAFETY')]),
      prompt: 'x',
    });
    expect(await result.text).toBe('');
  });
});

describe('streamText: an empty answer is retried once, then the call fails', () => {
  it.each([
    ['content-filter', 'SAFETY'],
    ['other', 'some_provider_reason'],
  ] as const)('%s (%s) then an answer: the answer, after one retry', async (unified, raw) => {
    const events: StreamGuardEvent[] = [];
    const model = scriptedModel([emptyStream(unified, raw), answer()]);
    const result = streamText({
      model,
      prompt: 'x',
      streamGuard: { ...noWait, onEvent: (e) => events.push(e) },
    });
    expect(await result.text).toBe('Here it is.');
    expect(model.doStreamCalls).toHaveLength(2);
    expect(events.map((e) => e.type)).toEqual(['stream_retry']);
    expect((await result.providerMetadata)?.['graceful-ai']).toMatchObject({
      attempts: [
        {
          outcome: 'failed',
          error: { name: 'EmptyAnswerError' },
          classification: { kind: 'transient', reason: 'name:EmptyAnswerError' },
        },
        { outcome: 'ok' },
      ],
    });
  });

  it('twice empty: text rejects with EmptyAnswerError (also a NoOutputGeneratedError), after exactly one retry', async () => {
    const model = scriptedModel([
      emptyStream('content-filter', 'SAFETY'),
      emptyStream('content-filter', 'SAFETY'),
    ]);
    const errors: unknown[] = [];
    const result = streamText({
      model,
      prompt: 'x',
      maxRetries: 5,
      streamGuard: noWait,
      onError: ({ error }) => errors.push(error),
    });
    const error = await Promise.resolve(result.text).catch((e: unknown) => e);
    expect(EmptyAnswerError.isInstance(error)).toBe(true);
    expect(NoOutputGeneratedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ finishReason: 'content-filter', rawFinishReason: 'SAFETY' });
    expect((error as Error).message).toContain('content filter withheld the answer');
    expect(model.doStreamCalls).toHaveLength(2);
    expect(errors).toEqual([error]);
  });

  it('with maxRetries: 0 the first empty answer fails the call', async () => {
    const model = scriptedModel([emptyStream('content-filter')]);
    const result = streamText({ model, prompt: 'x', maxRetries: 0, onError: () => {} });
    await expect(result.text).rejects.toSatisfy(EmptyAnswerError.isInstance);
    expect(model.doStreamCalls).toHaveLength(1);
  });

  it("an empty 'stop' after tool calls, 'length' and content with a content-filter finish are answers", async () => {
    const afterTool = scriptedModel([
      streamOf([
        ...preamble('a'),
        { type: 'tool-call', toolCallId: 'c1', toolName: 'ping', input: '{}' },
        finish('tool-calls'),
      ]),
      emptyStream('stop'),
    ]);
    const result = streamText({
      model: afterTool,
      prompt: 'x',
      tools: { ping: tool({ inputSchema: z.object({}), execute: async () => 'pong' }) },
      stopWhen: isStepCount(3),
    });
    expect(await result.text).toBe('');
    expect(afterTool.doStreamCalls).toHaveLength(2);
    const length = scriptedModel([emptyStream('length')]);
    expect(await streamText({ model: length, prompt: 'x' }).text).toBe('');
    const filtered = scriptedModel([
      streamOf([...preamble('f'), ...textParts('Partly'), finish('content-filter')]),
    ]);
    expect(await streamText({ model: filtered, prompt: 'x' }).text).toBe('Partly');
  });
});

describe('generateText: the same rule for answers that are not streamed', () => {
  it.each([
    ['other', undefined],
    ['error', 'error'],
    ['content-filter', 'SAFETY'],
  ] as const)('%s then an answer: the answer, after one retry', async (unified, raw) => {
    const model = scriptedModel([], [emptyResult(unified, raw), generated('Here it is.')]);
    const result = await generateText({ model, prompt: 'x', streamGuard: noWait });
    expect(result.text).toBe('Here it is.');
    expect(model.doGenerateCalls).toHaveLength(2);
  });

  it('twice empty: rejects with EmptyAnswerError after exactly one retry', async () => {
    const model = scriptedModel([], [emptyResult('other'), emptyResult('other'), generated('never')]);
    const error = await generateText({ model, prompt: 'x', maxRetries: 5, streamGuard: noWait }).catch(
      (e: unknown) => e,
    );
    expect(EmptyAnswerError.isInstance(error)).toBe(true);
    expect(NoOutputGeneratedError.isInstance(error)).toBe(true);
    expect(model.doGenerateCalls).toHaveLength(2);
  });

  it("an empty answer with finish 'stop' is an answer", async () => {
    const model = new MockLanguageModelV4({ doGenerate: async () => emptyResult('stop', 'stop') });
    expect((await generateText({ model, prompt: 'x' })).text).toBe('');
    expect(model.doGenerateCalls).toHaveLength(1);
  });
});

describe('on the real @ai-sdk/google: a candidate the safety filter blocked', () => {
  // Gemini's blocked candidate: finishReason SAFETY, no `content`, a rating marked `blocked` (the candidate shape of
  // vercel/ai packages/google/src/google-language-model.test.ts, whose finish reasons map-google-finish-reason.ts
  // maps: SAFETY → 'content-filter').
  const blocked = {
    candidates: [
      {
        finishReason: 'SAFETY',
        index: 0,
        safetyRatings: [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true }],
      },
    ],
    usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 },
    modelVersion: 'gemini-2.5-flash',
    responseId: 'blocked',
  };
  const answered = {
    candidates: [{ content: { parts: [{ text: 'Sunny.' }], role: 'model' }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 2, totalTokenCount: 11 },
    modelVersion: 'gemini-2.5-flash',
    responseId: 'ok',
  };
  const google = (replies: Reply[]) => {
    const wire = replayFetch(replies);
    return {
      wire,
      model: createGoogleGenerativeAI({ apiKey: 'test-key', fetch: wire.fetch })('gemini-2.5-flash'),
    };
  };

  it('streamText: retried once, then the answer', async () => {
    const { wire, model } = google([{ sse: [sseData(blocked)] }, { sse: [sseData(answered)] }]);
    const result = streamText({ model, prompt: 'x', streamGuard: noWait });
    expect(await result.text).toBe('Sunny.');
    expect(wire.requests.map((r) => r.stream)).toEqual([true, true]);
  });

  it('generateText: blocked twice, rejects with EmptyAnswerError naming SAFETY', async () => {
    const { wire, model } = google([{ json: blocked }, { json: blocked }]);
    const error = await generateText({ model, prompt: 'x', streamGuard: noWait }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'EmptyAnswerError',
      finishReason: 'content-filter',
      rawFinishReason: 'SAFETY',
    });
    expect(wire.requests).toHaveLength(2);
  });
});
