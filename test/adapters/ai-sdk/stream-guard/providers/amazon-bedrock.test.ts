/**
 * The stream guard on the real `@ai-sdk/amazon-bedrock` provider (`createAmazonBedrock({ region, apiKey })(id)`:
 * `POST https://bedrock-runtime.{region}.amazonaws.com/model/{id}/converse-stream`, and `/converse` non-streamed),
 * served Bedrock's binary AWS event stream (`aws-event-stream.ts` encodes it). Event payloads follow the AI SDK's
 * recorded fixtures (github.com/vercel/ai, `packages/amazon-bedrock/src/`): `__fixtures__/amazon-bedrock-text.chunks.txt`
 * (each line one event, keyed by its `:event-type`: `messageStart`, `contentBlockDelta`…, `contentBlockStop`,
 * `messageStop` with `stopReason: 'end_turn'`, `metadata` with usage and metrics; no `contentBlockStart` for text)
 * and `__fixtures__/amazon-bedrock-text.json` (the non-streamed Converse answer). The framing (`:message-type`
 * `event` or `exception`, `:exception-type` naming the union member) follows
 * `amazon-bedrock-chat-language-model-event-stream.test.ts` and `amazon-bedrock-event-stream-response-handler.ts`;
 * the in-band exceptions are the ConverseStream ones `amazon-bedrock-chat-language-model.test.ts` handles
 * (`modelStreamErrorException`, `throttlingException`…). HTTP errors carry Bedrock's `{ message }` body
 * (`amazon-bedrock-error.ts`) and the `x-amzn-errortype` header. Texts are shortened.
 */
import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { describe, expect, it } from 'vitest';
import { awsEvent, awsException } from './aws-event-stream.js';
import {
  answer,
  answerFrames,
  describeGuardOnWire,
  type ProviderWire,
  pieces,
  run,
  streamReply,
} from './provider-scenarios.js';

const modelId = 'anthropic.claude-3-haiku-20240307-v1:0';
const bedrockModelUrl = `https://bedrock-runtime.us-east-1.amazonaws.com/model/${encodeURIComponent(modelId)}`;
const usage = { inputTokens: 22, outputTokens: 4, serverToolUsage: {}, totalTokens: 26 };

/** Bedrock's HTTP errors: status, `x-amzn-errortype`, message. */
const errors = {
  auth: [403, 'AccessDeniedException', 'Authentication failed: Please make sure your API Key is valid.'],
  'rate-limit': [429, 'ThrottlingException', 'Too many requests, please wait before trying again.'],
  unavailable: [503, 'ServiceUnavailableException', 'Bedrock is unable to process your request.'],
} as const;

const wire: ProviderWire = {
  model: (fetch) => createAmazonBedrock({ region: 'us-east-1', apiKey: 'test-api-key', fetch })(modelId),
  urls: { stream: `${bedrockModelUrl}/converse-stream`, generate: `${bedrockModelUrl}/converse` },
  framing: 'aws-event-stream',
  head: () => [awsEvent('messageStart', { role: 'assistant' })],
  text: (_n, text) => awsEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text } }),
  tail: () => [
    awsEvent('contentBlockStop', { contentBlockIndex: 0 }),
    awsEvent('messageStop', {
      additionalModelResponseFields: { delta: { stop_sequence: null } },
      stopReason: 'end_turn',
    }),
    awsEvent('metadata', { metrics: { latencyMs: 2040 }, usage }),
  ],
  generated: (_n, text) => ({
    json: {
      metrics: { latencyMs: 1864 },
      output: { message: { content: [{ text }], role: 'assistant' } },
      stopReason: 'end_turn',
      usage,
    },
  }),
  rejection: (kind, headers) => {
    const [status, type, message] = errors[kind];
    return { status, headers: { 'x-amzn-errortype': type, ...headers }, json: { message } };
  },
  inBandError: {
    frame: awsException('modelStreamErrorException', 'Model stream error: the model stopped responding.'),
    message: 'Model stream error: the model stopped responding.',
  },
  earlyEnd: { finishReason: { unified: 'other', raw: undefined } },
};

describeGuardOnWire('@ai-sdk/amazon-bedrock', wire);

describe('@ai-sdk/amazon-bedrock: exceptions inside the event stream', () => {
  it('a throttlingException before any text → a new streamed request after the backoff', async () => {
    const { result, streamed, delays } = await run(wire, [
      streamReply(wire, [
        ...wire.head(1),
        awsException('throttlingException', 'Too many tokens, please wait.'),
      ]),
      streamReply(wire, answerFrames(wire, 2, pieces)),
    ]);
    expect(streamed).toEqual([true, true]);
    expect(delays).toEqual([1000]);
    expect(await result.text).toBe(answer);
  });
});
