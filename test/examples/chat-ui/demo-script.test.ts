import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { streamText, UnexpectedModelBehavior } from '../../../adapters/ai-sdk/index.js';
import { isResetPart } from '../../../adapters/ui/index.js';
import { chatAgent } from '../../../examples/chat-ui/chat-agent.js';
import { demoScript } from '../../../examples/chat-ui/demo-script.js';
import { providers } from '../../../examples/demo/provider.js';
import { assistantPrefill, type MockServer, startMockServer } from '../../../mocks/index.js';

const question = 'Capital of France?';
const answer = `You asked: "${question}". Let me think about that for a while…`;

describe('examples/chat-ui demo script', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ script: demoScript });
  });
  afterAll(() => mock?.close());
  // A new script also clears what the mock recorded.
  beforeEach(() => mock.setScript(demoScript));

  async function ask(name: keyof typeof providers) {
    const provider = providers[name];
    const result = streamText({
      model: provider.models(provider.mockURL(mock))(provider.defaultModel),
      prompt: question,
    });
    const parts = [];
    for await (const part of result.fullStream) parts.push(part);
    return { text: await result.text, resets: parts.filter(isResetPart).length };
  }

  it('cuts every stream; on OpenAI the recovery answers in other words, after a reset', async () => {
    expect(await ask('openai')).toEqual({
      text: `Recovered answer to "${question}": the stream was cut, this replaced it.`,
      resets: 1,
    });
    expect(mock.requests.map((r) => [r.stream, assistantPrefill(r)])).toEqual([
      [true, undefined],
      [false, undefined],
    ]);
  });

  it('on Anthropic the recovery continues the prefill: the one answer, no reset', async () => {
    expect(await ask('anthropic')).toEqual({ text: answer, resets: 0 });
    expect(mock.requests.map((r) => [r.stream, assistantPrefill(r)])).toEqual([
      [true, undefined],
      [false, answer.slice(0, 40).trimEnd()],
    ]);
  });

  it.each(['openai', 'anthropic', 'google'] as const)(
    '%s: the weather scene answers from the tool for a known city; for another, the budget runs out',
    async (name) => {
      const provider = providers[name];
      const agent = chatAgent(provider.models(provider.mockURL(mock))(provider.defaultModel));
      const paris = await agent.generate({ prompt: 'What is the weather in Paris?' });
      expect(paris.text).toBe('The weather in Paris: Sunny, 24 °C.');
      mock.setScript(demoScript);
      const error = await agent
        .generate({ prompt: 'What is the weather in Atlantis?' })
        .catch((e: unknown) => e);
      expect(UnexpectedModelBehavior.isInstance(error)).toBe(true);
      expect(mock.requests).toHaveLength(2);
    },
  );
});
