import { APICallError } from '@ai-sdk/provider';
import type { ErrorKind } from '../../../src/classify/types.js';

/** One real-world provider failure, as the AI SDK hands it over. */
export interface RealWorldCase {
  provider: string;
  what: string;
  status?: number;
  /** The provider's response body (JSON object or raw text). */
  body: unknown;
  /** The message the provider package extracts (defaults to `body.error.message` / `body.message` / `body.error`). */
  message?: string;
  headers?: Record<string, string>;
  kind: ErrorKind;
  retryAfterMs?: number;
  /** The expected reason, when it documents a trap. */
  reason?: string;
}

const get = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;

function messageOf(body: unknown): string {
  for (const candidate of [
    get(get(body, 'error'), 'message'),
    get(body, 'message'),
    get(body, 'error'),
    body,
  ]) {
    if (typeof candidate === 'string') return candidate;
  }
  return 'Request failed';
}

/** The `APICallError` a provider package throws for `c` (statusCode, headers, raw body, parsed data). */
export function toApiCallError(c: RealWorldCase): APICallError {
  const responseBody = typeof c.body === 'string' ? c.body : JSON.stringify(c.body);
  return new APICallError({
    message: c.message ?? messageOf(c.body),
    url: `https://api.${c.provider.toLowerCase().replace(/[^a-z]/g, '')}.example/v1/chat/completions`,
    requestBodyValues: { model: 'some-model' },
    statusCode: c.status,
    responseHeaders: { 'content-type': 'application/json', ...c.headers },
    responseBody,
    data: typeof c.body === 'string' ? undefined : c.body,
  });
}

const anthropicError = (type: string, message: string) => ({ type: 'error', error: { type, message } });
const openaiError = (message: string, type: string, code: string | null, param: string | null = null) => ({
  error: { message, type, param, code },
});
const googleError = (code: number, message: string, status: string, details?: unknown[]) => ({
  error: { code, message, status, ...(details ? { details } : {}) },
});
const bedrockHeaders = (type: string) => ({
  'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
  'x-amzn-requestid': '7f6c8a7e-1b8e-4c1e-9d1f-2f6a3c1d9e01',
});

export const realWorldCases: RealWorldCase[] = [
  // OpenAI (chat completions and responses)
  {
    provider: 'OpenAI',
    what: 'chat context overflow',
    status: 400,
    body: openaiError(
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130532 tokens. Please reduce the length of the messages.",
      'invalid_request_error',
      'context_length_exceeded',
      'messages',
    ),
    kind: 'overflow',
    reason: 'provider:context_length_exceeded',
  },
  {
    provider: 'OpenAI',
    what: 'responses context overflow',
    status: 400,
    body: openaiError(
      'Your input exceeds the context window of this model. Please adjust your input and try again.',
      'invalid_request_error',
      'context_length_exceeded',
      'input',
    ),
    kind: 'overflow',
  },
  {
    provider: 'OpenAI',
    what: 'overflow wording without a code',
    status: 400,
    body: openaiError(
      'Your input exceeds the context window of this model. Please adjust your input and try again.',
      'invalid_request_error',
      null,
    ),
    kind: 'overflow',
    reason: 'pattern:exceeds-context',
  },
  {
    provider: 'OpenAI',
    what: 'TPM rate limit, retry-after-ms header wins over the text',
    status: 429,
    body: openaiError(
      'Rate limit reached for gpt-4o in organization org-3xAmPl3 on tokens per min (TPM): Limit 30000, Used 28000, Requested 4000. Please try again in 4s. Visit https://platform.openai.com/account/rate-limits to learn more.',
      'tokens',
      'rate_limit_exceeded',
    ),
    headers: { 'retry-after-ms': '3500', 'retry-after': '4' },
    kind: 'transient',
    retryAfterMs: 3500,
    reason: 'status:429',
  },
  {
    provider: 'OpenAI',
    what: 'RPM rate limit in milliseconds',
    status: 429,
    body: openaiError(
      'Rate limit reached for gpt-4o-mini in organization org-3xAmPl3 on requests per min (RPM): Limit 500, Used 500, Requested 1. Please try again in 634ms. Visit https://platform.openai.com/account/rate-limits to learn more.',
      'requests',
      'rate_limit_exceeded',
    ),
    kind: 'transient',
    retryAfterMs: 634,
  },
  {
    provider: 'OpenAI',
    what: 'TPD rate limit with a long window ("Limit 15000" is no 500)',
    status: 429,
    body: openaiError(
      'Rate limit reached for gpt-4 in organization org-3xAmPl3 on tokens per day (TPD): Limit 15000, Used 14200, Requested 2000. Please try again in 9m38.016s. Visit https://platform.openai.com/account/rate-limits to learn more.',
      'tokens',
      'rate_limit_exceeded',
    ),
    kind: 'transient',
    retryAfterMs: 578_016,
  },
  {
    provider: 'OpenAI',
    what: 'insufficient_quota on a 429',
    status: 429,
    body: openaiError(
      'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
      'insufficient_quota',
      'insufficient_quota',
    ),
    kind: 'permanent',
    reason: 'provider:insufficient_quota',
  },
  {
    provider: 'OpenAI',
    what: 'server error',
    status: 500,
    body: openaiError(
      'The server had an error while processing your request. Sorry about that! You can retry your request, or contact us through our help center at help.openai.com if the error persists.',
      'server_error',
      null,
    ),
    kind: 'transient',
  },
  {
    provider: 'OpenAI',
    what: 'overloaded engine',
    status: 503,
    body: openaiError(
      'That model is currently overloaded with other requests. You can retry your request, or contact us through our help center at help.openai.com if the error persists.',
      'server_error',
      null,
    ),
    kind: 'transient',
  },
  {
    provider: 'OpenAI',
    what: 'invalid API key',
    status: 401,
    body: openaiError(
      'Incorrect API key provided: sk-proj-********************abcd. You can find your API key at https://platform.openai.com/account/api-keys.',
      'invalid_request_error',
      'invalid_api_key',
    ),
    kind: 'permanent',
    reason: 'status:401',
  },
  {
    provider: 'OpenAI',
    what: 'unknown model',
    status: 404,
    body: openaiError(
      'The model `gpt-9` does not exist or you do not have access to it.',
      'invalid_request_error',
      'model_not_found',
    ),
    kind: 'permanent',
  },
  {
    provider: 'OpenAI',
    what: 'billing hard limit',
    status: 400,
    body: openaiError(
      'Billing hard limit has been reached',
      'billing_hard_limit_reached',
      'billing_hard_limit_reached',
    ),
    kind: 'permanent',
    reason: 'provider:billing_hard_limit_reached',
  },
  // Anthropic
  {
    provider: 'Anthropic',
    what: 'prompt too long',
    status: 400,
    body: anthropicError('invalid_request_error', 'prompt is too long: 208310 tokens > 200000 maximum'),
    kind: 'overflow',
    reason: 'pattern:prompt-too-long',
  },
  {
    provider: 'Anthropic',
    what: 'overloaded (529)',
    status: 529,
    body: anthropicError('overloaded_error', 'Overloaded'),
    kind: 'transient',
    reason: 'status:529',
  },
  {
    provider: 'Anthropic',
    what: 'rate limit with retry-after seconds',
    status: 429,
    body: anthropicError(
      'rate_limit_error',
      'This request would exceed the rate limit for your organization (8c5b2a1e) of 50,000 input tokens per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits.',
    ),
    headers: { 'retry-after': '23', 'anthropic-ratelimit-input-tokens-remaining': '0' },
    kind: 'transient',
    retryAfterMs: 23_000,
  },
  {
    provider: 'Anthropic',
    what: 'credit balance too low',
    status: 400,
    body: anthropicError(
      'invalid_request_error',
      'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
    ),
    kind: 'permanent',
    reason: 'pattern:credits',
  },
  {
    provider: 'Anthropic',
    what: 'API usage limits with a reset date',
    status: 400,
    body: anthropicError(
      'invalid_request_error',
      'You have reached your specified API usage limits. You will regain access on 2025-07-01 at 00:00 UTC.',
    ),
    kind: 'permanent',
    reason: 'pattern:usage-limit',
  },
  {
    provider: 'Anthropic',
    what: 'internal api_error',
    status: 500,
    body: anthropicError('api_error', 'Internal server error'),
    kind: 'transient',
  },
  {
    provider: 'Anthropic',
    what: 'invalid x-api-key',
    status: 401,
    body: anthropicError('authentication_error', 'invalid x-api-key'),
    kind: 'permanent',
  },
  // Google Gemini
  {
    provider: 'Gemini',
    what: 'input token count exceeds the maximum',
    status: 400,
    body: googleError(
      400,
      'The input token count (1196265) exceeds the maximum number of tokens allowed (1048575).',
      'INVALID_ARGUMENT',
    ),
    kind: 'overflow',
    reason: 'pattern:input-token-count',
  },
  {
    provider: 'Gemini',
    what: '429 "quota exceeded" with "retry in 47s" is a short rate limit',
    status: 429,
    body: googleError(
      429,
      'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 10, model: gemini-2.5-flash\nPlease retry in 47s.',
      'RESOURCE_EXHAUSTED',
      [
        { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaId: 'PerMinute' }] },
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '47s' },
      ],
    ),
    kind: 'transient',
    retryAfterMs: 47_000,
    reason: 'status:429',
  },
  {
    provider: 'Gemini',
    what: 'daily quota with a long retryDelay stays a hard limit',
    status: 429,
    body: googleError(
      429,
      'You exceeded your current quota, please check your plan and billing details.\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 250',
      'RESOURCE_EXHAUSTED',
      [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '33123s' }],
    ),
    kind: 'permanent',
    retryAfterMs: 33_123_000,
    reason: 'pattern:quota-exceeded',
  },
  {
    provider: 'Gemini',
    what: 'model overloaded',
    status: 503,
    body: googleError(503, 'The model is overloaded. Please try again later.', 'UNAVAILABLE'),
    kind: 'transient',
  },
  {
    provider: 'Gemini',
    what: 'internal error',
    status: 500,
    body: googleError(
      500,
      'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
      'INTERNAL',
    ),
    kind: 'transient',
  },
  {
    provider: 'Gemini',
    what: 'API key not valid',
    status: 400,
    body: googleError(400, 'API key not valid. Please pass a valid API key.', 'INVALID_ARGUMENT'),
    kind: 'permanent',
  },
  // xAI
  {
    provider: 'xAI',
    what: 'maximum prompt length',
    status: 400,
    body: {
      code: 'Client specified an invalid argument',
      error: "This model's maximum prompt length is 131072 but the request contains 160012 tokens.",
    },
    kind: 'overflow',
    reason: 'pattern:maximum-prompt-length',
  },
  {
    provider: 'xAI',
    what: '"Too many tokens" rate limit is not an overflow',
    status: 429,
    body: {
      code: 'Some resource has been exhausted',
      error:
        'Too many tokens: your team has exceeded its tokens per minute limit. Please wait before trying again.',
    },
    kind: 'transient',
    reason: 'status:429',
  },
  // Groq
  {
    provider: 'Groq',
    what: 'reduce the length of the messages',
    status: 400,
    body: openaiError(
      'Please reduce the length of the messages or completion.',
      'invalid_request_error',
      'context_length_exceeded',
      'messages',
    ),
    kind: 'overflow',
  },
  {
    provider: 'Groq',
    what: 'TPM limit with fractional seconds (mentions billing, not a billing limit)',
    status: 429,
    body: openaiError(
      'Rate limit reached for model `llama-3.3-70b-versatile` in organization `org_01jexample` service tier `on_demand` on tokens per minute (TPM): Limit 12000, Used 11234, Requested 1543. Please try again in 3.885s. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing',
      'tokens',
      'rate_limit_exceeded',
    ),
    kind: 'transient',
    retryAfterMs: 3885,
  },
  {
    provider: 'Groq',
    what: 'service unavailable',
    status: 503,
    body: openaiError('Service Unavailable', 'internal_server_error', 'service_unavailable'),
    kind: 'transient',
  },
  // OpenRouter
  {
    provider: 'OpenRouter',
    what: 'maximum context length',
    status: 400,
    body: {
      error: {
        message:
          'This endpoint\'s maximum context length is 200000 tokens. However, you requested about 245318 tokens (237126 of text input, 8192 in the output). Please reduce the length of either one, or use the "middle-out" transform to compress your prompt automatically.',
        code: 400,
      },
    },
    kind: 'overflow',
  },
  {
    provider: 'OpenRouter',
    what: 'overflow wrapped in "Provider returned error"',
    status: 400,
    body: {
      error: {
        message: 'Provider returned error',
        code: 400,
        metadata: {
          raw: JSON.stringify(
            anthropicError('invalid_request_error', 'prompt is too long: 210457 tokens > 200000 maximum'),
          ),
          provider_name: 'Anthropic',
        },
      },
    },
    kind: 'overflow',
    reason: 'pattern:prompt-too-long',
  },
  {
    provider: 'OpenRouter',
    what: 'not enough credits (402)',
    status: 402,
    body: {
      error: {
        message:
          'This request requires more credits, or fewer max_tokens. You requested up to 8192 tokens, but can only afford 1203. To increase, visit https://openrouter.ai/settings/credits and upgrade to a paid account',
        code: 402,
      },
    },
    kind: 'permanent',
    reason: 'status:402',
  },
  {
    provider: 'OpenRouter',
    what: 'free model rate limit',
    status: 429,
    body: { error: { message: 'Rate limit exceeded: free-models-per-min. ', code: 429 } },
    kind: 'transient',
  },
  {
    provider: 'OpenRouter',
    what: 'upstream reset before headers',
    status: 502,
    body: {
      error: {
        message: 'Provider returned error',
        code: 502,
        metadata: {
          raw: 'upstream connect error or disconnect/reset before headers. reset reason: connection failure',
        },
      },
    },
    kind: 'transient',
  },
  // Mistral
  {
    provider: 'Mistral',
    what: 'too large for model',
    status: 400,
    body: {
      object: 'error',
      message:
        'Prompt contains 40960 tokens and 0 draft tokens, too large for model with 32768 maximum context length',
      type: 'invalid_request_message_error',
      param: null,
      code: '3051',
    },
    kind: 'overflow',
    reason: 'pattern:too-large-for-model',
  },
  {
    provider: 'Mistral',
    what: 'requests rate limit',
    status: 429,
    body: { message: 'Requests rate limit exceeded' },
    kind: 'transient',
  },
  {
    provider: 'Mistral',
    what: 'unauthorized',
    status: 401,
    body: { message: 'Unauthorized', request_id: '5d3c1f0e9b2a4c7d' },
    kind: 'permanent',
  },
  // Amazon Bedrock
  {
    provider: 'Bedrock',
    what: 'input is too long for requested model',
    status: 400,
    body: { message: 'Input is too long for requested model.' },
    headers: bedrockHeaders('ValidationException'),
    kind: 'overflow',
  },
  {
    provider: 'Bedrock',
    what: '"Too many tokens" throttling is not an overflow',
    status: 429,
    body: { message: 'Too many tokens, please wait before trying again.' },
    headers: bedrockHeaders('ThrottlingException'),
    kind: 'transient',
    reason: 'status:429',
  },
  {
    provider: 'Bedrock',
    what: 'service unavailable',
    status: 503,
    body: { message: 'Bedrock is unable to process your request.' },
    headers: bedrockHeaders('ServiceUnavailableException'),
    kind: 'transient',
  },
  {
    provider: 'Bedrock',
    what: 'no access to the model',
    status: 403,
    body: { message: "You don't have access to the model with the specified model ID." },
    headers: bedrockHeaders('AccessDeniedException'),
    kind: 'permanent',
  },
  // llama.cpp server
  {
    provider: 'llama.cpp',
    what: 'exceeds the available context size',
    status: 400,
    body: {
      error: {
        code: 400,
        message: 'the request exceeds the available context size, try increasing it',
        type: 'exceed_context_size_error',
        n_prompt_tokens: 5120,
        n_ctx: 4096,
      },
    },
    kind: 'overflow',
    reason: 'provider:exceed_context_size_error',
  },
  {
    provider: 'llama.cpp',
    what: 'model still loading',
    status: 503,
    body: { error: { code: 503, message: 'Loading model', type: 'unavailable_error' } },
    kind: 'transient',
  },
  // LM Studio
  {
    provider: 'LM Studio',
    what: 'tokens to keep greater than the context length',
    status: 400,
    body: {
      error:
        'The number of tokens to keep from the initial prompt is greater than the context length. Try to load the model with a larger context length, or provide a shorter input',
    },
    kind: 'overflow',
  },
  {
    provider: 'LM Studio',
    what: 'context the overflows',
    status: 400,
    body: {
      error:
        'Trying to keep the first 6012 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input',
    },
    kind: 'overflow',
  },
  // Ollama
  {
    provider: 'Ollama',
    what: 'input length exceeds the context length',
    status: 400,
    body: { error: 'the input length exceeds the context length' },
    kind: 'overflow',
    reason: 'pattern:exceeds-context',
  },
  {
    provider: 'Ollama',
    what: 'model not pulled',
    status: 404,
    body: { error: 'model "llama9" not found, try pulling it first' },
    kind: 'permanent',
  },
  // vLLM
  {
    provider: 'vLLM',
    what: 'maximum context length (OpenAI-compatible wording)',
    status: 400,
    body: {
      object: 'error',
      message:
        "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4500 in the messages, 500 in the completion). Please reduce the length of the messages or completion.",
      type: 'BadRequestError',
      param: null,
      code: 400,
    },
    kind: 'overflow',
  },
  {
    provider: 'vLLM',
    what: 'decoder prompt longer than the maximum model length',
    status: 400,
    body: {
      object: 'error',
      message:
        'The decoder prompt (length 5120) is longer than the maximum model length of 4096. Make sure that `max_model_len` is no smaller than the number of text tokens.',
      type: 'BadRequestError',
      code: 400,
    },
    kind: 'overflow',
  },
  // Traps that cross providers
  {
    provider: 'OpenRouter',
    what: 'overflow that also says "503" and "connection error"',
    status: 503,
    body: {
      error: {
        message:
          'Upstream returned 503 after a connection error; last attempt: prompt is too long: 201334 tokens > 200000 maximum',
        code: 503,
      },
    },
    kind: 'overflow',
  },
];
