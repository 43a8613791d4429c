import { createOpenAI } from '@ai-sdk/openai';
import {
  type Agent,
  type GenerateTextResult,
  Output,
  type ToolLoopAgent as SdkToolLoopAgent,
  type StreamTextResult,
  type createAgentUIStream as sdkCreateAgentUIStream,
  type createAgentUIStreamResponse as sdkCreateAgentUIStreamResponse,
  type pipeAgentUIStreamToResponse as sdkPipeAgentUIStreamToResponse,
  type toUIMessageStream as sdkToUIMessageStream,
  tool,
} from 'ai';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  createAgentUIStream,
  createAgentUIStreamResponse,
  pipeAgentUIStreamToResponse,
  ToolLoopAgent,
  toUIMessageStream,
} from '../../../../adapters/ai-sdk/index.js';

const model = createOpenAI({ apiKey: 'sk-test' }).chat('gpt-4o');
const tools = {
  weather: tool({ inputSchema: z.object({ city: z.string() }), execute: async () => 'sunny' }),
};
type Tools = typeof tools;

// Compile-time proofs (checked by `tsc`); the calls never run.
describe('the agent and the UI helpers keep the AI SDK v7 types', () => {
  it('ToolLoopAgent: ai’s settings, ai’s methods, an Agent, and assignable to ai’s class', () => {
    const agent = new ToolLoopAgent({ model, tools, turnTimeoutMs: 60_000 });
    expectTypeOf(agent).toExtend<SdkToolLoopAgent<never, Tools>>();
    expectTypeOf(agent).toExtend<Agent<never, Tools>>();
    expectTypeOf<ConstructorParameters<typeof SdkToolLoopAgent<{ id: string }, Tools>>[0]>().toExtend<
      ConstructorParameters<typeof ToolLoopAgent<{ id: string }, Tools>>[0]
    >();
    expectTypeOf(agent.generate).returns.resolves.toEqualTypeOf<
      GenerateTextResult<Tools, Record<string, unknown>, never>
    >();
    expectTypeOf(agent.stream).returns.resolves.toEqualTypeOf<
      StreamTextResult<Tools, Record<string, unknown>, never>
    >();
    const typed = new ToolLoopAgent({
      model,
      output: Output.object({ schema: z.object({ a: z.number() }) }),
    });
    expectTypeOf(typed.generate).returns.resolves.toHaveProperty('output').toEqualTypeOf<{ a: number }>();
  });

  it('the UI helpers have exactly ai’s signatures', () => {
    expectTypeOf(createAgentUIStream).toEqualTypeOf<typeof sdkCreateAgentUIStream>();
    expectTypeOf(createAgentUIStreamResponse).toEqualTypeOf<typeof sdkCreateAgentUIStreamResponse>();
    expectTypeOf(pipeAgentUIStreamToResponse).toEqualTypeOf<typeof sdkPipeAgentUIStreamToResponse>();
    expectTypeOf(toUIMessageStream).toEqualTypeOf<typeof sdkToUIMessageStream>();
  });
});
