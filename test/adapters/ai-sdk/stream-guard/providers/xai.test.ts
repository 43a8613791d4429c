/**
 * The stream guard on the real `@ai-sdk/xai` provider. `createXai(...)(id)` is xAI's Responses API
 * (`POST https://api.x.ai/v1/responses`; this major has no chat-completions model). Frame shapes follow the AI
 * SDK's recorded fixtures (github.com/vercel/ai, `packages/xai/src/responses/`):
 * `__fixtures__/xai-text-streaming.1.chunks.txt` (`data:`-only frames: `response.created`, `response.in_progress`, a
 * message item, `content_part.added`, `output_text.delta`, the `.done` events, `response.completed`), the in-band
 * `error` event of `xai-responses-language-model.test.ts` ('should emit error chunk for server error events'), and
 * the Responses error body `{ code, error }` of `packages/xai/src/xai-error.test.ts`. The fixture's reasoning item
 * is left out; ids and texts are shortened.
 */
import { createXai } from '@ai-sdk/xai';
import { sseData } from '../../provider-wire.js';
import { describeGuardOnWire, type ProviderWire, sameUrl } from './provider-scenarios.js';
import { responsesWire } from './responses-wire.js';

/** xAI's Responses error body (a status text as `code`, the message as `error`), by rejection. */
const errors = {
  auth: [
    401,
    'Unauthenticated',
    'Incorrect API key provided: xai-***. Obtain an API key at https://console.x.ai.',
  ],
  'rate-limit': [
    429,
    'Some resource has been exhausted',
    'Your team has reached its requests-per-second limit.',
  ],
  unavailable: [
    503,
    'The service is currently unavailable',
    'Service temporarily unavailable. Please retry.',
  ],
} as const;
const unavailable = 'Service temporarily unavailable. The model did not respond to this request.';

const wire: ProviderWire = {
  model: (fetch) => createXai({ apiKey: 'xai-test', fetch })('grok-code-fast-1'),
  urls: sameUrl('https://api.x.ai/v1/responses'),
  ...responsesWire({
    frame: sseData,
    response: (n, status, output) => ({
      created_at: 1763853500,
      id: `769f3302-64f9-4c72-2b48-${n}`,
      model: 'grok-code-fast-1',
      object: 'response',
      output,
      parallel_tool_calls: true,
      previous_response_id: null,
      tool_choice: 'auto',
      tools: [],
      incomplete_details: null,
      status,
      store: true,
      ...(status === 'completed' && {
        usage: {
          input_tokens: 216,
          input_tokens_details: { cached_tokens: 192 },
          output_tokens: 4,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: 220,
          num_sources_used: 0,
          num_server_side_tools_used: 0,
        },
      }),
    }),
  }),
  rejection: (kind, headers) => {
    const [status, code, error] = errors[kind];
    return { status, headers, json: { code, error } };
  },
  inBandError: {
    frame: sseData({ type: 'error', code: null, message: unavailable, param: null }),
    message: unavailable,
  },
  earlyEnd: { finishReason: { unified: 'other', raw: undefined } },
};

describeGuardOnWire('@ai-sdk/xai', wire);
