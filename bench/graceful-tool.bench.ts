import type { LanguageModelV4Usage } from '@ai-sdk/provider';
import { generateText, isStepCount, type ToolSet, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { gracefulTools } from '../adapters/ai-sdk/tools/graceful-tool.js';
import { type Bench, compareAlternating, round } from './harness.js';

const STEPS = 200;
const usage: LanguageModelV4Usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A model that calls `add` on every step until the last one. */
function loopModel() {
  let call = 0;
  return new MockLanguageModelV4({
    doGenerate: async () => {
      const step = call++ % STEPS;
      if (step === STEPS - 1) {
        return {
          content: [{ type: 'text', text: 'done' }],
          finishReason: { unified: 'stop', raw: undefined },
          usage,
          warnings: [],
        };
      }
      return {
        content: [
          { type: 'tool-call', toolCallId: `c${step}`, toolName: 'add', input: `{"a":${step},"b":1}` },
        ],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}

const plain = {
  add: tool({ inputSchema: z.object({ a: z.number(), b: z.number() }), execute: async ({ a, b }) => a + b }),
};
const wrapped = gracefulTools(plain);

async function loop(tools: ToolSet) {
  const result = await generateText({
    model: loopModel(),
    prompt: 'add',
    tools,
    stopWhen: isStepCount(STEPS),
    maxRetries: 0,
  });
  if (result.steps.length !== STEPS) throw new Error(`expected ${STEPS} steps, got ${result.steps.length}`);
}

export const benches: Bench[] = [
  {
    name: 'gracefulTool overhead (200-step tool loop)',
    async run() {
      const { medianA, medianB, ratio } = await compareAlternating(
        () => loop(plain),
        () => loop(wrapped),
        { rounds: 30, warmup: 5 },
      );
      return {
        name: 'gracefulTool overhead (200-step tool loop)',
        metrics: { plainMs: round(medianA, 1), wrappedMs: round(medianB, 1), ratio: round(ratio) },
        target: 'ratio <= 1.05',
        met: ratio <= 1.05,
        notes:
          'MockLanguageModelV4, generateText, one tool call per step, plain vs gracefulTools, alternated',
      };
    },
  },
];
