import { createOpenAI } from '@ai-sdk/openai';
import {
  type GenerateTextResult,
  Output,
  type StreamTextResult,
  type generateText as sdkGenerateText,
  type streamText as sdkStreamText,
  tool,
} from 'ai';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { generateText, streamText } from '../../../../adapters/ai-sdk/index.js';

const model = createOpenAI({ apiKey: 'sk-test' }).chat('gpt-4o');
const tools = {
  weather: tool({ inputSchema: z.object({ city: z.string() }), execute: async () => 'sunny' }),
};
type Tools = typeof tools;

// Compile-time proofs (checked by `tsc`); the calls never run.
describe('drop-ins keep the AI SDK v7 signatures and result types', () => {
  it('streamText: every SDK options object is accepted and the result type is identical', () => {
    expectTypeOf<Parameters<typeof sdkStreamText<Tools>>[0]>().toExtend<
      Parameters<typeof streamText<Tools>>[0]
    >();
    expectTypeOf<ReturnType<typeof streamText<Tools>>>().toEqualTypeOf<
      ReturnType<typeof sdkStreamText<Tools>>
    >();
    const call = () =>
      streamText({
        model,
        tools,
        prompt: 'hi',
        output: Output.object({ schema: z.object({ a: z.number() }) }),
      });
    expectTypeOf(call).returns.toEqualTypeOf<
      StreamTextResult<Tools, Record<string, unknown>, ReturnType<typeof Output.object<{ a: number }>>>
    >();
  });

  it('generateText: the same', () => {
    expectTypeOf<Parameters<typeof sdkGenerateText<Tools>>[0]>().toExtend<
      Parameters<typeof generateText<Tools>>[0]
    >();
    expectTypeOf<ReturnType<typeof generateText<Tools>>>().toEqualTypeOf<
      ReturnType<typeof sdkGenerateText<Tools>>
    >();
    const call = () => generateText({ model, tools, prompt: 'hi' });
    expectTypeOf(call).returns.resolves.toExtend<GenerateTextResult<Tools, Record<string, unknown>, never>>();
  });
});
