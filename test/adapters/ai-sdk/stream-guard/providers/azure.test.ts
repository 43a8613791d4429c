/**
 * The stream guard on the real `@ai-sdk/azure` provider. `createAzure({ resourceName })(deployment)` is the
 * Responses API (`provider.languageModel` is `createResponsesModel`; `.chat()` is opt-in) at
 * `https://{resourceName}.openai.azure.com/openai/v1/responses?api-version=v1`, run by `@ai-sdk/openai`'s Responses
 * model (the version `@ai-sdk/azure` pins). Frame shapes follow the AI SDK's recorded fixtures (github.com/vercel/ai,
 * `packages/azure/src/__fixtures__/`): `azure-text.1.chunks.txt` (`response.created`, `response.in_progress`, a
 * message item, `content_part.added`, `output_text.delta`, the `.done` events, `response.completed`) and
 * `azure-text.1.json` (the non-streamed response); the in-band `error` event is the OpenAI Responses one of
 * `packages/openai/src/responses/openai-responses-language-model.test.ts` (`{ type: 'error', sequence_number, code,
 * message, param }`: without `sequence_number` the package reports a validation error instead), and HTTP errors
 * carry the OpenAI `{ error }` body. Ids, texts and the content-filter results are shortened.
 */
import { createAzure } from '@ai-sdk/azure';
import { sseEvent } from '../../provider-wire.js';
import { openAIErrors, openAIRejection } from './chat-completions-wire.js';
import { describeGuardOnWire, type ProviderWire, sameUrl } from './provider-scenarios.js';
import { responsesWire } from './responses-wire.js';

const wire: ProviderWire = {
  model: (fetch) => createAzure({ resourceName: 'my-resource', apiKey: 'test-key', fetch })('gpt-5.1'),
  urls: sameUrl('https://my-resource.openai.azure.com/openai/v1/responses?api-version=v1'),
  ...responsesWire({
    frame: sseEvent,
    response: (n, status, output) => ({
      id: `resp_02ce8deeb6197db2${n}`,
      object: 'response',
      created_at: 1770803606,
      status,
      background: false,
      error: null,
      incomplete_details: null,
      model: 'gpt-5.1',
      output,
      service_tier: 'auto',
      store: true,
      usage:
        status === 'in_progress'
          ? null
          : {
              input_tokens: 12,
              input_tokens_details: { cached_tokens: 0 },
              output_tokens: 4,
              output_tokens_details: { reasoning_tokens: 0 },
              total_tokens: 16,
            },
    }),
  }),
  rejection: openAIRejection,
  inBandError: {
    frame: sseEvent({
      type: 'error',
      sequence_number: 5,
      code: 'server_error',
      message: openAIErrors.unavailable.message,
      param: null,
    } as { type: string }),
    message: openAIErrors.unavailable.message,
  },
  earlyEnd: { finishReason: { unified: 'other', raw: undefined } },
};

describeGuardOnWire('@ai-sdk/azure', wire);
