/**
 * The stream guard on the real `@ai-sdk/mistral` provider (`createMistral(...)(id)`: `POST /v1/chat/completions`),
 * served Mistral's chat-completions wire. Frame shapes follow the AI SDK's recorded fixtures (github.com/vercel/ai,
 * `packages/mistral/src/`): `__fixtures__/mistral-text.chunks.txt` (a role chunk with empty content, `logprobs: null`
 * on every choice, a finishing chunk with `delta: { content: '' }` and the usage) and `__fixtures__/mistral-text.json`
 * (the non-streamed answer, `tool_calls: null`); HTTP errors carry Mistral's flat error object
 * (`mistral-error.ts`: `{ object: 'error', message, type, param, code }`). Ids and texts are shortened.
 */
import { createMistral } from '@ai-sdk/mistral';
import { chatCompletionsWire, openAIErrors } from './chat-completions-wire.js';
import { describeGuardOnWire, sameUrl } from './provider-scenarios.js';

const usage = { prompt_tokens: 13, total_tokens: 17, completion_tokens: 4 };

describeGuardOnWire('@ai-sdk/mistral', {
  model: (fetch) => createMistral({ apiKey: 'test-key', fetch })('mistral-small-latest'),
  urls: sameUrl('https://api.mistral.ai/v1/chat/completions'),
  ...chatCompletionsWire({
    envelope: (n) => ({
      id: `5319bd0299614c679a0068a4f2c8ffd${n}`,
      created: 1769088720,
      model: 'mistral-small-latest',
    }),
    choice: { logprobs: null },
    roleDelta: { role: 'assistant', content: '' },
    finishDelta: { content: '' },
    finishing: { usage },
    usage,
  }),
  rejection: (kind, headers) => {
    const { status, ...error } = openAIErrors[kind];
    return { status, headers, json: { object: 'error', ...error, param: null } };
  },
  inBandError: {
    none:
      "Mistral's stream has no error chunk: the package's chunk schema (`mistralChatChunkSchema`) has no error " +
      'member, and no fixture or test of the AI SDK shows one',
  },
  earlyEnd: { finishReason: { unified: 'interrupted', raw: undefined } },
});
