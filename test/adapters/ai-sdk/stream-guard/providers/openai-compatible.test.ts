/**
 * The stream guard on the real `@ai-sdk/openai-compatible` provider (`createOpenAICompatible({ name, baseURL })(id)`:
 * `POST {baseURL}/chat/completions`), served the chat-completions wire as an OpenAI-compatible server speaks it.
 * Frame shapes follow the AI SDK's recorded fixtures (github.com/vercel/ai, `packages/openai-compatible/src/chat/`):
 * `__fixtures__/xai-text.chunks.txt` (grok-3-mini through this package: no role-only chunk, the role rides on the
 * first delta; a finishing chunk with `delta: {}`, then a `choices: []` usage chunk), `__fixtures__/xai-text.json`
 * (the non-streamed answer), and the in-band `data: {"error": {"message", "code"}}` chunk of
 * `openai-compatible-chat-language-model.test.ts` ('should preserve structured error stream parts'; there a context
 * overflow, here a server error). HTTP errors carry the OpenAI `{ error }` body (`openai-compatible-error.ts`). Ids
 * and texts are shortened.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { sseData } from '../../provider-wire.js';
import { chatCompletionsWire, openAIErrors, openAIRejection } from './chat-completions-wire.js';
import { describeGuardOnWire, sameUrl } from './provider-scenarios.js';

const usage = {
  prompt_tokens: 12,
  completion_tokens: 4,
  total_tokens: 16,
  prompt_tokens_details: { text_tokens: 12, audio_tokens: 0, image_tokens: 0, cached_tokens: 11 },
  completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
};

describeGuardOnWire('@ai-sdk/openai-compatible', {
  model: (fetch) =>
    createOpenAICompatible({
      name: 'example',
      baseURL: 'https://api.example.com/v1',
      apiKey: 'test-key',
      fetch,
    })('grok-3-mini'),
  urls: sameUrl('https://api.example.com/v1/chat/completions'),
  ...chatCompletionsWire({
    envelope: (n) => ({
      id: `f0f0f217-c24d-1fee-5fe3-${n}`,
      created: 1770772287,
      model: 'grok-3-mini',
      system_fingerprint: 'fp_2a885414fb',
    }),
    usageChunk: { choices: [], usage },
    usage,
  }),
  rejection: openAIRejection,
  inBandError: {
    frame: sseData({ error: { message: openAIErrors.unavailable.message, code: 'server_error' } }),
    message: openAIErrors.unavailable.message,
  },
  earlyEnd: { errorPart: 'Response stream ended without a finish reason.' },
});
