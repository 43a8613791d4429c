import type { ErrorPattern, PatternSets } from './types.js';

// Every pattern is linear: literal alternations, bounded repetitions (`{0,80}`), never an unbounded `.*` gap
// (a `.*` between two words is quadratic on text full of the first word). Tokens are word-bounded so that, for
// instance, "Limit 15000" never reads as a 500. Providers reword their errors often: extend these sets through the
// `patterns` option rather than editing them.

/** The conversation does not fit the model's context window: never retried as is, compact it first. */
export const overflowPatterns: readonly ErrorPattern[] = [
  // OpenAI chat/responses code, Groq, generic OpenAI-compatible servers.
  { id: 'context-length-exceeded', pattern: /\bcontext[_ ]length[_ ]exceeded\b/i },
  // OpenAI responses ("Your input exceeds the context window of this model"), Ollama, generic wording.
  {
    id: 'exceeds-context',
    pattern:
      /\bexceed(?:s|ed)? (?:the |its |your )?(?:model'?s )?(?:max(?:imum)? )?context (?:length|window|size|limit)\b/i,
  },
  // OpenAI chat (legacy), vLLM, OpenRouter ("This endpoint's maximum context length is …"), DeepSeek, Together.
  { id: 'maximum-context-length', pattern: /\bmaximum context length is \d{1,9}/i },
  // Anthropic ("prompt is too long: 208000 tokens > 200000 maximum"), Bedrock ("Input is too long for requested
  // model"), Ollama ("prompt too long").
  { id: 'prompt-too-long', pattern: /\b(?:prompt|input) (?:is )?too long\b/i },
  // Google Gemini: "The input token count (1234567) exceeds the maximum number of tokens allowed (1048576)."
  { id: 'input-token-count', pattern: /\binput token count\b[^\n]{0,80}?\bexceeds the maximum\b/i },
  // xAI: "This model's maximum prompt length is 131072 but the request contains 150000 tokens."
  { id: 'maximum-prompt-length', pattern: /\bmaximum prompt length is \d{1,9}/i },
  // Groq, OpenAI legacy, vLLM: "Please reduce the length of the messages or completion."
  { id: 'reduce-length', pattern: /\breduce the length of the (?:messages|prompt|input)\b/i },
  // Mistral: "Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length"
  { id: 'too-large-for-model', pattern: /\btoo large for model with \d{1,9} maximum context length\b/i },
  // llama.cpp server: "the request exceeds the available context size, try increasing it" (exceed_context_size_error).
  {
    id: 'available-context-size',
    pattern: /\bexceeds? the available context size\b|\bexceed_context_size_error\b/i,
  },
  // LM Studio: "…greater than the context length" / "Trying to keep the first N tokens when context the overflows".
  { id: 'lm-studio-context', pattern: /\bgreater than the context length\b|\bcontext (?:the )?overflows\b/i },
  // vLLM: "The decoder prompt (length 5000) is longer than the maximum model length of 4096."
  { id: 'maximum-model-length', pattern: /\blonger than the maximum model length\b/i },
  // Amazon Bedrock (Nova): "Input Tokens Exceeded: Number of input tokens exceeds maximum length".
  { id: 'input-tokens-exceeded', pattern: /\binput tokens exceeded\b/i },
  // Cohere: "too many tokens: total number of tokens in the prompt cannot exceed 4081".
  { id: 'prompt-cannot-exceed', pattern: /\btokens in the prompt cannot exceed\b/i },
  // GitHub Copilot ("prompt token count of 130000 exceeds the limit of 128000"), Kimi, MiniMax, TGI.
  {
    id: 'token-limit',
    pattern:
      /\bprompt token count of \d{1,9} exceeds the limit\b|\bexceeded model token limit\b|\bcontext window exceeds limit\b|\btokens \+ `?max_new_tokens`? must be <=/i,
  },
];

/** Quota, billing and usage limits: waiting a few seconds does not help, so never retried (even on a 429). */
export const limitPatterns: readonly ErrorPattern[] = [
  { id: 'insufficient-quota', pattern: /\binsufficient[_ ]quota\b/i },
  // OpenAI and Gemini: "You exceeded your current quota, please check your plan and billing details."
  { id: 'quota-exceeded', pattern: /\bexceeded your (?:current )?quota\b|\bquota (?:has been )?exceeded\b/i },
  { id: 'billing', pattern: /\bbilling[ _](?:details|hard[ _]limit|not[ _]active|limit)\b/i },
  // OpenRouter 402 "Insufficient credits", Anthropic "Your credit balance is too low".
  {
    id: 'credits',
    pattern: /\b(?:insufficient|not enough) (?:credits?|balance|funds)\b|\bcredit balance is too low\b/i,
  },
  // "You've hit your usage limit", Anthropic "You have reached your specified API usage limits", usage_limit_reached.
  { id: 'usage-limit', pattern: /\busage[ _]limits?\b/i },
  { id: 'spending-limit', pattern: /\bspend(?:ing)? limit\b/i },
  { id: 'payment-required', pattern: /\bpayment required\b/i },
];

/** Overload, rate limits, server errors, network failures and timeouts: worth another attempt. */
export const retryablePatterns: readonly ErrorPattern[] = [
  { id: 'overloaded', pattern: /\boverloaded/i },
  { id: 'rate-limit', pattern: /\brate[ _-]?limit/i },
  // Bedrock "ThrottlingException: Too many tokens, please wait before trying again" and xAI's token rate limit.
  { id: 'too-many-requests', pattern: /\btoo many (?:requests|tokens)\b|\bthrottl(?:ed|ing)\b/i },
  // A status as a token: never inside a number ("Limit 15000") or a decimal ("1.503").
  { id: 'http-status', pattern: /(?<![\w.,])(?:429|5(?:00|02|03|04|29))(?![\w]|[.,]\d)/ },
  { id: 'service-unavailable', pattern: /\bservice (?:is )?(?:temporarily |currently )?unavailable\b/i },
  {
    id: 'server-error',
    pattern: /\b(?:internal[ _])?server[ _]error\b|\bbad gateway\b|\bgateway time-?out\b/i,
  },
  { id: 'internal-error', pattern: /\binternal error\b/i },
  { id: 'capacity', pattern: /\b(?:at|over) capacity\b|\bhigh demand\b|\btemporarily unavailable\b/i },
  { id: 'connection', pattern: /\bconnection (?:error|refused|reset|lost|closed|aborted|timed out)\b/i },
  {
    id: 'network-code',
    pattern:
      /\b(?:ECONNRESET|ECONNREFUSED|ECONNABORTED|ETIMEDOUT|EPIPE|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH|UND_ERR_\w+)\b/,
  },
  { id: 'network-error', pattern: /\bnetwork (?:error|failure)\b/i },
  { id: 'fetch-failed', pattern: /\bfetch failed\b/i },
  { id: 'socket-hang-up', pattern: /\bsocket hang up\b/i },
  { id: 'other-side-closed', pattern: /\bother side closed\b/i },
  { id: 'terminated', pattern: /\bterminated\b/i },
  // Envoy: "upstream connect error or disconnect/reset before headers. reset reason: connection failure".
  { id: 'upstream', pattern: /\bupstream connect error\b|\breset before headers\b/i },
  { id: 'timeout', pattern: /\btimed? ?out\b|\btimeout\b/i },
  { id: 'retry-delay', pattern: /\bretry[ _]?delay\b/i },
  // OpenAI 500: "… You can retry your request, or contact us through our help center …".
  { id: 'retry-request', pattern: /\byou can retry your request\b|\btry again later\b/i },
];

/** Invalid input, auth, not found, unsupported: only consulted when no HTTP status decides. */
export const permanentPatterns: readonly ErrorPattern[] = [
  {
    id: 'invalid-input',
    pattern: /\binvalid (?:input|argument|arguments|parameter|parameters|value|request)\b/i,
  },
  { id: 'validation', pattern: /\bvalidation (?:error|failed)\b/i },
  { id: 'bad-request', pattern: /\bbad request\b/i },
  {
    id: 'auth',
    pattern:
      /\bunauthori[sz]ed\b|\bforbidden\b|\bpermission denied\b|\b(?:invalid|incorrect|missing) api[ _-]?key\b/i,
  },
  { id: 'not-found', pattern: /\bnot found\b/i },
  { id: 'unsupported', pattern: /\bnot (?:supported|implemented)\b|\bunsupported\b/i },
];

/** The default text pattern sets, in the order they are checked. */
export const defaultPatterns: PatternSets = {
  overflow: overflowPatterns,
  limit: limitPatterns,
  retryable: retryablePatterns,
  permanent: permanentPatterns,
};

/** Provider error codes and types (`code`, `type`, Google `status`, Bedrock exception names), per verdict. */
export const providerCodes = {
  overflow: ['context_length_exceeded', 'exceed_context_size_error', 'context_window_exceeded'],
  limit: [
    'insufficient_quota',
    'billing_hard_limit_reached',
    'billing_not_active',
    'usage_limit_reached',
    'insufficient_credits',
  ],
  retryable: [
    'rate_limit_exceeded',
    'rate_limit_error',
    'rate_limited',
    'too_many_requests',
    'overloaded_error',
    'overloaded',
    'server_error',
    'internal_server_error',
    'api_error',
    'service_unavailable',
    'timeout',
    'resource_exhausted',
    'unavailable',
    'internal',
    'deadline_exceeded',
    'throttlingexception',
    'toomanyrequestsexception',
    'serviceunavailableexception',
    'internalserverexception',
    'modelnotreadyexception',
  ],
  permanent: [
    'invalid_api_key',
    'authentication_error',
    'permission_error',
    'not_found_error',
    'invalid_request_error',
    'model_not_found',
    'unsupported_parameter',
    'unsupported_value',
    'invalid_value',
    'invalid_argument',
    'permission_denied',
    'unauthenticated',
    'not_found',
    'failed_precondition',
    'validationexception',
    'accessdeniedexception',
    'resourcenotfoundexception',
  ],
} as const satisfies Record<keyof PatternSets, readonly string[]>;

/** Node/undici system error codes of a failed connection: always transient. */
export const networkErrorCodes: readonly string[] = [
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'ESOCKETTIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  // A DNS miss is usually a blip in a container; a typo'd host fails after the retry budget instead.
  'ENOTFOUND',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
  'ERR_STREAM_PREMATURE_CLOSE',
  'ERR_HTTP2_STREAM_ERROR',
];

/** Error names (AI SDK and common validation libraries) that retrying cannot fix. */
export const permanentErrorNames: readonly string[] = [
  'AI_NoSuchToolError',
  'AI_InvalidToolInputError',
  'AI_TypeValidationError',
  'AI_InvalidArgumentError',
  'AI_InvalidPromptError',
  'AI_UnsupportedFunctionalityError',
  'AI_LoadAPIKeyError',
  'AI_NoSuchModelError',
  'ZodError',
  'ValidationError',
];

/** Error names of a timeout: transient (our own per-tool timeout and `AbortSignal.timeout()`'s reason). */
export const timeoutErrorNames: readonly string[] = ['ToolTimeoutError', 'TimeoutError'];
