/**
 * `npm run chat-ui`: the chat page against the fault mock (no key, no network), on OpenAI chat completions by
 * default, or `npm run chat-ui -- --provider anthropic|google`. Ask for the weather in Paris, Berlin or Tokyo and the
 * agent calls its tool; ask for it anywhere else and the tool's budget runs out: the page shows both failed calls and
 * the error. Every other answer is cut mid-sentence: on OpenAI and Gemini the recovery answers in other words and the
 * page shows a reset (the words shown before the cut disappear); on Anthropic the recovery continues the text shown,
 * so the answer goes on where it was cut. With a real model, pass e.g. `openai('gpt-4o-mini')` to `startChatServer`.
 */
import { startMockServer } from '../../mocks/index.js';
import { providerFromArgs, providers } from '../demo/provider.js';
import { demoScript } from './demo-script.js';
import { startChatServer } from './server.js';

let provider: (typeof providers)[keyof typeof providers];
try {
  provider = providers[providerFromArgs(process.argv.slice(2))];
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

const mock = await startMockServer({ script: demoScript });
const server = await startChatServer({
  model: provider.models(provider.mockURL(mock))(provider.defaultModel),
  port: Number(process.env.PORT ?? 3000),
});
console.log(
  `chat UI at ${server.url} (${provider.label} on the fault mock at ${provider.mockURL(mock)}); Ctrl+C to stop`,
);
