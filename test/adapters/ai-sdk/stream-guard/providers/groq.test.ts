/**
 * The stream guard on the real `@ai-sdk/groq` provider (`createGroq(...)(id)`: `POST /openai/v1/chat/completions`),
 * served Groq's chat-completions wire. Frame shapes follow the AI SDK's recorded fixtures (github.com/vercel/ai,
 * `packages/groq/src/`): `__fixtures__/groq-text.chunks.txt` (a role chunk with empty content and `x_groq.id`, a
 * finishing chunk carrying the usage twice, top-level and in `x_groq`), `__fixtures__/groq-text.json` (the
 * non-streamed answer), and the in-band `data: {"error": {"message", "type"}}` chunk of
 * `groq-chat-language-model.test.ts` ('should handle error stream parts'; there with type `invalid_request_error`,
 * here `server_error`, which the package marks retryable). HTTP errors carry the same `{ error }` body
 * (`groq-error.ts`). Ids and texts are shortened.
 */
import { createGroq } from '@ai-sdk/groq';
import { sseData } from '../../provider-wire.js';
import { chatCompletionsWire, openAIErrors, openAIRejection } from './chat-completions-wire.js';
import { describeGuardOnWire, sameUrl } from './provider-scenarios.js';

const usage = {
  queue_time: 0.04,
  prompt_tokens: 45,
  completion_tokens: 4,
  total_tokens: 49,
  total_time: 0.01,
};

describeGuardOnWire('@ai-sdk/groq', {
  model: (fetch) => createGroq({ apiKey: 'gsk-test', fetch })('llama-3.3-70b-versatile'),
  urls: sameUrl('https://api.groq.com/openai/v1/chat/completions'),
  ...chatCompletionsWire({
    envelope: (n) => ({
      id: `chatcmpl-7eb08824-${n}`,
      created: 1770770839,
      model: 'llama-3.3-70b-versatile',
      system_fingerprint: 'fp_f8b414701e',
    }),
    choice: { logprobs: null },
    roleDelta: { role: 'assistant', content: '' },
    finishing: { x_groq: { id: 'req_01kh52ndshfr2azv0xe6tnv4fx', usage }, usage },
    usage,
  }),
  rejection: openAIRejection,
  inBandError: {
    frame: sseData({ error: { message: openAIErrors.unavailable.message, type: 'server_error' } }),
    message: openAIErrors.unavailable.message,
  },
  earlyEnd: { finishReason: { unified: 'interrupted', raw: undefined } },
});
