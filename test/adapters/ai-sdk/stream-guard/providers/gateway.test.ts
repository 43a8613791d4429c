/**
 * The stream guard on the real `@ai-sdk/gateway` provider (`createGateway({ apiKey, baseURL })(id)`:
 * `POST {baseURL}/language-model`, streaming asked by the `ai-language-model-streaming: true` header). The gateway's
 * wire is its own: SSE `data:` frames each holding one LanguageModelV4 stream part, which the package passes on as
 * they are; the non-streamed answer is a LanguageModelV4 generate result. Frame shapes follow the AI SDK's
 * `packages/gateway/src/gateway-language-model.test.ts` (github.com/vercel/ai: `stream-start`, `response-metadata`
 * with a string timestamp, `text-delta`, `finish`; the `{ error: { message, type } }` bodies of 'should convert API
 * call errors to Gateway errors' and `errors/create-gateway-error.ts`), with the parts written in the V4 shape ai 7
 * reads (`text-start`/`text-delta { id, delta }`/`text-end`, `finishReason: { unified, raw }`, V4 usage) where that
 * test still writes older ones (`textDelta`, a string finish reason). No recorded fixture shows an in-band error from
 * the gateway: the one here is the V4 `error` part its wire carries by construction, holding the gateway's own
 * error object.
 */
import { createGateway } from '@ai-sdk/gateway';
import { sseData } from '../../provider-wire.js';
import { describeGuardOnWire, type ProviderWire, sameUrl } from './provider-scenarios.js';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 4, text: 4, reasoning: 0 },
};
const finishReason = { unified: 'stop', raw: 'end_turn' };

/** The gateway's error bodies, by rejection: status, `type`, message. */
const errors = {
  auth: [401, 'authentication_error', 'Invalid API key provided'],
  'rate-limit': [429, 'rate_limit_exceeded', 'Rate limit exceeded. Try again later.'],
  unavailable: [503, 'internal_server_error', 'The model provider is temporarily unavailable.'],
} as const;
const unavailable = 'Provider stream failed: overloaded.';

const wire: ProviderWire = {
  model: (fetch) =>
    createGateway({ apiKey: 'test-api-key', baseURL: 'https://ai-gateway.vercel.sh/v4/ai', fetch })(
      'anthropic/claude-sonnet-4.5',
    ),
  urls: sameUrl('https://ai-gateway.vercel.sh/v4/ai/language-model'),
  framing: 'sse',
  head: (n) => [
    sseData({ type: 'stream-start', warnings: [] }),
    sseData({
      type: 'response-metadata',
      id: `gen_01KYX5CJTDD0MQY1RDMBR08C1${n}`,
      modelId: 'anthropic/claude-sonnet-4.5',
      timestamp: '2026-07-31T10:30:00.000Z',
    }),
    sseData({ type: 'text-start', id: '0' }),
  ],
  text: (_n, delta) => sseData({ type: 'text-delta', id: '0', delta }),
  tail: () => [sseData({ type: 'text-end', id: '0' }), sseData({ type: 'finish', finishReason, usage })],
  generated: (_n, text) => ({
    json: { content: [{ type: 'text', text }], finishReason, usage, warnings: [] },
  }),
  rejection: (kind, headers) => {
    const [status, type, message] = errors[kind];
    return { status, headers, json: { error: { message, type } } };
  },
  inBandError: {
    frame: sseData({ type: 'error', error: { message: unavailable, type: 'internal_server_error' } }),
    message: unavailable,
  },
  earlyEnd: 'no finish part',
};

describeGuardOnWire('@ai-sdk/gateway', wire);
