/**
 * The stream guard on the real `@ai-sdk/deepseek` provider (`createDeepSeek(...)(id)`: `POST /chat/completions`),
 * served DeepSeek's chat-completions wire. Frame shapes follow the AI SDK's recorded fixtures (github.com/vercel/ai,
 * `packages/deepseek/src/chat/`): `__fixtures__/deepseek-text.chunks.txt` (a role chunk with empty content,
 * `usage: null` on every chunk, a finishing chunk with `delta: { content: '' }` and the usage) and
 * `__fixtures__/deepseek-text.json` (the non-streamed answer); the in-band error frame is the
 * `{ error: { message, type, param, code } }` chunk that `deepseek-chat-api-types.ts` (`deepSeekErrorSchema`) accepts
 * in the stream, and the same body answers HTTP errors. Ids and texts are shortened.
 */
import { createDeepSeek } from '@ai-sdk/deepseek';
import { sseData } from '../../provider-wire.js';
import { chatCompletionsWire, openAIErrors, openAIRejection } from './chat-completions-wire.js';
import { describeGuardOnWire, sameUrl } from './provider-scenarios.js';

const usage = {
  prompt_tokens: 13,
  completion_tokens: 4,
  total_tokens: 17,
  prompt_tokens_details: { cached_tokens: 0 },
  prompt_cache_hit_tokens: 0,
  prompt_cache_miss_tokens: 13,
};

describeGuardOnWire('@ai-sdk/deepseek', {
  model: (fetch) => createDeepSeek({ apiKey: 'sk-test', fetch })('deepseek-chat'),
  urls: sameUrl('https://api.deepseek.com/chat/completions'),
  ...chatCompletionsWire({
    envelope: (n) => ({
      id: `f6117a0b-${n}`,
      created: 1764657993,
      model: 'deepseek-chat',
      system_fingerprint: 'fp_eaab8d114b_prod0820_fp8_kvcache',
      usage: null,
    }),
    choice: { logprobs: null },
    roleDelta: { role: 'assistant', content: '' },
    finishDelta: { content: '' },
    finishing: { usage },
    usage,
  }),
  rejection: openAIRejection,
  inBandError: {
    frame: sseData({
      error: { message: openAIErrors.unavailable.message, type: 'server_error', param: null, code: null },
    }),
    message: openAIErrors.unavailable.message,
  },
  earlyEnd: { finishReason: { unified: 'other', raw: undefined } },
});
