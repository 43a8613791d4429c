import type { ErrorPattern, PatternSets } from './types.js';

// Every pattern is linear: literal alternations, bounded repetitions (`{0,80}`), never an unbounded `.*` gap
// (a `.*` between two words is quadratic on text full of the first word). Tokens are word-bounded so that, for
// instance, "Limit 15000" never reads as a 500. Providers reword their errors often: extend these sets through the
// `patterns` option rather than editing them.

/** The conversation does not fit the model's context window: never retried as is, compact it first. */
export const overflowPatterns: readonly ErrorPattern[] = [
  // OpenAI/Groq code, z.ai's `model_context_window_exceeded` stop reason, "context window exceeded".
  { id: 'context-length-exceeded', pattern: /context[_ ](?:length|window)[_ ]exceeded\b/i },
  // OpenAI responses ("Your input exceeds the context window of this model"), Anthropic ("input length and
  // `max_tokens` exceed context limit"), llama.cpp ("exceeds available context size"), Ollama, generic wording.
  {
    id: 'exceeds-context',
    pattern:
      /\bexceed(?:s|ed)? (?:the |its |your )?(?:model'?s )?(?:max(?:imum)? |available )?context (?:length|window|size|limit)\b/i,
  },
  // OpenAI chat (legacy), vLLM, OpenRouter ("This endpoint's maximum context length is …"), DeepSeek.
  { id: 'maximum-context-length', pattern: /\bmaximum context length is \d{1,9}/i },
  // "exceeds the model's maximum context length (of N)" (LiteLLM, OpenAI-compatible, Bedrock's OpenAI-compatible
  // endpoint), Cohere "total tokens exceeds the model's maximum limit", Bedrock-served Gemma "prompt tokens (N) exceed
  // model maximum (M)", Poolside "exceeds the maximum allowed input length", Volcengine Ark "Input length 69053
  // exceeds the maximum length 65536" and "Total tokens of image and text exceed max message tokens".
  {
    id: 'exceeds-model-maximum',
    pattern:
      /\bexceeds? (?:the )?model'?s? maximum (?:(?:context|limit)\b|\(\d)|\bexceeds the maximum allowed input length\b|\binput length \d{1,9} exceeds the maximum length\b|\bexceed max message tokens\b/i,
  },
  // Anthropic ("prompt is too long: 208000 tokens > 200000 maximum"), Bedrock ("Input is too long for requested
  // model"), Ollama ("prompt too long; exceeded max context length"), Baidu Qianfan ("Prompt tokens too long").
  { id: 'prompt-too-long', pattern: /\b(?:prompt|input)(?: tokens)? (?:is )?too long\b/i },
  // Gemini "The input token count (1234567) exceeds the maximum number of tokens allowed", Vertex "input exceeds
  // the maximum number of tokens", Bedrock "Input token count exceeds the maximum number of input tokens".
  {
    id: 'input-token-count',
    pattern: /\binput(?: token count)?(?: \(\d{1,9}\))? exceeds the maximum number of (?:input )?tokens\b/i,
  },
  // xAI: "This model's maximum prompt length is 131072 but the request contains 150000 tokens."
  { id: 'maximum-prompt-length', pattern: /\bmaximum prompt length is \d{1,9}/i },
  // Groq, OpenAI legacy, vLLM: "Please reduce the length of the messages or completion."
  { id: 'reduce-length', pattern: /\breduce the length of the (?:messages|prompt|input)\b/i },
  // Mistral: "Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length"
  { id: 'too-large-for-model', pattern: /\btoo large for model with \d{1,9} maximum context length\b/i },
  // llama.cpp server: "the request exceeds the available context size, try increasing it" (exceed_context_size_error).
  { id: 'available-context-size', pattern: /\bexceed_context_size_error\b/i },
  // LM Studio: "…greater than the context length" / "Trying to keep the first N tokens when context the overflows";
  // Together "The input (N tokens) is longer than the model's context length (M tokens)".
  {
    id: 'context-length-words',
    pattern:
      /\bgreater than the context length\b|\bcontext (?:the )?overflows?\b|\blonger than the model'?s context length\b|\bcontext length is only \d/i,
  },
  // vLLM: "The decoder prompt (length 5000) is longer than the maximum model length of 4096."; vLLM behind Bedrock's
  // OpenAI-compatible endpoint: "The engine prompt length 185692 exceeds the max_model_len 131072."
  {
    id: 'maximum-model-length',
    pattern:
      /\blonger than the maximum model length\b|\bmodel max length exceeded\b|\bexceeds the max_model_len\b/i,
  },
  // Amazon Bedrock (Nova): "Input Tokens Exceeded: Number of input tokens exceeds maximum length"; SiliconFlow
  // "have exceeded max_prompt_tokens"; Bedrock (Titan) "Too many input tokens. Max input tokens: 8192" (a quota per
  // minute or day is worded "per …" and stays a rate limit).
  {
    id: 'input-tokens-exceeded',
    pattern: /\binput tokens exceeded\b|\bexceeded max_prompt_tokens\b|\btoo many input tokens\b(?! per\b)/i,
  },
  // Cohere: "too many tokens: total number of tokens in the prompt cannot exceed 4081", "size limit exceeded by N tokens".
  {
    id: 'prompt-cannot-exceed',
    pattern: /\btokens in the prompt cannot exceed\b|\btoo many tokens: size limit exceeded\b/i,
  },
  // GitHub Copilot ("prompt token count of 130000 exceeds the limit of 128000"), Kimi, MiniMax, TGI; DS4/llama.cpp
  // ("Prompt has N tokens, but the configured context size is M"); Cerebras ("Current length is N while limit is M");
  // DashScope/Qwen ("Range of input length should be [1, N]"); Together ("… must be less than the context length");
  // "length of prompt_tokens (N) must be less than max_seq_len (M)"; Baidu Qianfan "the max input characters is N".
  {
    id: 'token-limit',
    pattern:
      /\bprompt token count of \d{1,9} exceeds the limit\b|\bexceeded model token limit\b|\bcontext window exceeds limit\b|\btokens \+ `?max_new_tokens`? must be <=|\bconfigured context size is\b|\bcurrent length is \d{1,9} while limit is\b|\brange of input length should be\b|\bless than the context length of the model\b|\bmust be less than max_seq_len\b|\bthe max input characters is \d/i,
  },
  // Chinese wordings (Zhipu GLM code 1261 "Prompt 超长", proxies' "上下文过长", "上下文长度超出模型最大限制", "超出最大
  // 上下文长度", "请压缩上下文后重试"). CJK has no word boundaries: the phrases themselves are the anchors.
  {
    id: 'context-too-long-zh',
    pattern:
      /上下文(?:长度)?(?:[过超]长|超[出过限])|超出了?(?:模型)?的?最大(?:上下文|输入)|(?:\bprompt|提示词?|输入(?:内容|长度)?)\s?[超过]长|压缩上下文/i,
  },
  // Anthropic 413 request_too_large and HTTP 413 wordings: the request must shrink (decided: an overflow).
  {
    id: 'request-too-large',
    pattern:
      /\brequest_too_large\b|\brequest entity too large\b|\brequest body is too large\b|\brequest exceeds the maximum size\b/i,
  },
];

/** Quota, billing and usage limits: waiting a few seconds does not help, so never retried (even on a 429). */
export const limitPatterns: readonly ErrorPattern[] = [
  { id: 'insufficient-quota', pattern: /\binsufficient[_ ]quota\b/i },
  // OpenAI: "You exceeded your current quota, please check your plan and billing details." (a spent balance; a
  // bare "quota exceeded" is Google's per-minute wording and is a rate limit).
  { id: 'quota-exceeded', pattern: /\bexceeded your (?:current )?quota\b/i },
  { id: 'billing', pattern: /\bbilling[ _](?:details|hard[ _]limit|not[ _]active|limit)\b/i },
  // OpenRouter 402 "Insufficient credits", Anthropic "Your credit balance is too low", DeepSeek "Insufficient Balance".
  {
    id: 'credits',
    pattern:
      /\b(?:insufficient|not enough) (?:credits?|balance|funds)\b|\bcredit balance (?:is )?(?:too )?low\b/i,
  },
  // "You've hit your usage limit", Anthropic "You have reached your specified API usage limits", usage_limit_reached,
  // Cline "You have reached your weekly Clinepass limit", z.ai "not available in your current plan".
  {
    id: 'usage-limit',
    pattern:
      /\busage[ _]limits?\b|\breached your (?:[\w-]{1,20} ){0,3}limit\b|\bnot available in your (?:current )?plan\b/i,
  },
  { id: 'spending-limit', pattern: /\bspend(?:ing)? limit\b/i },
  // LiteLLM's BudgetExceededError "Budget has been exceeded! Current cost: …, Max budget: …" (a 400 or a 429 from
  // the proxy), "LiteLLM Virtual Key: …, exceeded budget for model=…", "ExceededTokenBudget", "crossed budget".
  {
    id: 'budget',
    pattern:
      /\bbudget (?:has been |was )?exceeded\b|\b(?:exceeded ?(?:(?:the|their|your) |token)?|over |crossed )budget\b|\bmax budget limit reached\b/i,
  },
  { id: 'payment-required', pattern: /\bpayment required\b/i },
  // Chinese wordings: Zhipu 1113 "您的账户已欠费" (arrears, sent as a 429), 1310 "您已达到每周/每月使用上限", proxies'
  // "余额不足" (insufficient balance).
  { id: 'balance-zh', pattern: /欠费|余额不足|使用上限/ },
];

/** Overload, rate limits, server errors, network failures and timeouts: worth another attempt. */
export const retryablePatterns: readonly ErrorPattern[] = [
  { id: 'overloaded', pattern: /\boverloaded/i },
  // Rate limits; Google's "Quota exceeded for quota metric …", "Resource has been exhausted", NVIDIA
  // "ResourceExhausted"; "concurrency limit reached".
  {
    id: 'rate-limit',
    pattern:
      /\brate[ _-]?limit|\bquota (?:limit )?exceeded\b|\bexceed quota limits\b|\bresource(?:[ _]?| has been )exhausted\b|\bconcurrency limit\b|\brequest limit exceeded\b/i,
  },
  // Bedrock "ThrottlingException: Too many tokens, please wait before trying again" and xAI's token rate limit.
  { id: 'too-many-requests', pattern: /\btoo many (?:requests|tokens)\b|\bthrottl(?:ed|ing)/i },
  // Bedrock exception names when only the text is left.
  {
    id: 'aws-exception',
    pattern: /\b(?:ModelNotReady|ServiceUnavailable|InternalServer|ModelStreamError|ModelTimeout)Exception\b/,
  },
  // A status as a token (including Cloudflare's 520–524): never inside a number ("Limit 15000") or a decimal.
  { id: 'http-status', pattern: /(?<![\w.,])(?:429|5(?:0[0234]|2[0-49]))(?![\w]|[.,]\d)/ },
  { id: 'service-unavailable', pattern: /\bservice (?:is )?(?:temporarily |currently )?unavailable\b/i },
  {
    id: 'server-error',
    pattern:
      /\b(?:internal[ _])?server[ _]error\b|\bserver had an error\b|\bbad gateway\b|\bgateway time-?out\b|\borigin (?:down|is unreachable)\b/i,
  },
  { id: 'internal-error', pattern: /\binternal error\b/i },
  {
    id: 'capacity',
    pattern:
      /\b(?:at|over|out of) capacity\b|\bhigh (?:demand|load)\b|\btemporarily unavailable\b|\bmaximum queue size\b/i,
  },
  // aiohttp "Cannot connect to host api.openai.com:443", the AI SDK's "Cannot connect to API: …".
  {
    id: 'connection',
    pattern:
      /\b(?:socket )?connection (?:error|refused|reset|lost|closed|aborted|timed out|was closed)\b|\bunable to connect\b|\bcannot connect to (?:host|API)\b/i,
  },
  // A host name that did not resolve, as each runtime words it: Python ("[Errno 11001] getaddrinfo failed",
  // "Temporary failure in name resolution", "Name or service not known", "nodename nor servname provided"), Go ("no
  // such host"), Dart ("Failed host lookup"), Java ("UnknownHostException: Unable to resolve host"), PHP/curl ("Could
  // not resolve: host"). Node's codes (`ENOTFOUND`, `EAI_AGAIN`) are the network-code rule's.
  {
    id: 'dns',
    pattern:
      /\b(?:getaddrinfo failed|temporary failure in name resolution|name or service not known|nodename nor servname|no such host|failed host lookup|unable to resolve host|could not resolve(?: host)?:)/i,
  },
  // A stream cut before its terminal event: pi "OpenAI Responses stream ended before a terminal response event",
  // openai-node "stream ended without producing a Response" / "…a ChatCompletion", the Responses websocket "connection
  // closed before a terminal response event", Codex "stream closed before response.completed", "stream finished
  // without response.completed event", pi's Anthropic "stream ended without a stop reason", @ai-sdk/openai-compatible
  // "Response stream ended without a finish reason.".
  {
    id: 'stream-cut',
    pattern:
      /\b(?:stream|connection) (?:ended|closed|finished|disconnected) (?:before|without) (?:a terminal|(?:the )?response\.completed|completion|message_stop|a (?:stop|finish) reason|producing)\b/i,
  },
  {
    id: 'network-code',
    pattern:
      /\b(?:ECONNRESET|ECONNREFUSED|ECONNABORTED|ETIMEDOUT|EPIPE|EAI_AGAIN|ENOTFOUND|ENETUNREACH|EHOSTUNREACH|UND_ERR_\w+|ConnectionRefused|ConnectionClosed|FailedToOpenSocket)\b/,
  },
  { id: 'network-error', pattern: /\bnetwork[ _](?:error|failure)\b/i },
  { id: 'fetch-failed', pattern: /\bfetch failed\b/i },
  { id: 'socket-hang-up', pattern: /\bsocket hang up\b/i },
  { id: 'other-side-closed', pattern: /\bother side closed\b/i },
  { id: 'terminated', pattern: /\bterminated\b/i },
  // Envoy: "upstream connect error or disconnect/reset before headers. reset reason: connection failure".
  { id: 'upstream', pattern: /\bupstream connect error\b|\breset before headers\b/i },
  { id: 'timeout', pattern: /\btimed? ?out\b|\btimeout\b|\bdeadline[ _](?:exceeded|expired)\b/i },
  { id: 'retry-delay', pattern: /\bretry[ _]?delay\b/i },
  // OpenAI 500: "… You can retry your request …"; Bedrock "Try your request again"; "please retry later".
  {
    id: 'retry-request',
    pattern:
      /\bretry your request\b|\btry (?:your request )?again(?: later| in a (?:moment|few))\b|\btry your request again\b|\bretry later\b/i,
  },
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
      /\bunauthori[sz]ed\b|\bunauthenticated\b|\bforbidden\b|\bpermission denied\b|\b(?:invalid|incorrect|missing) (?:api[ _-]?key|api endpoint|credentials)\b|\bauthentication failed\b/i,
  },
  { id: 'not-found', pattern: /\bnot found\b|\bhas been deactivated\b/i },
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
  overflow: [
    'context_length_exceeded',
    'exceed_context_size_error',
    'context_window_exceeded',
    'model_context_window_exceeded',
    'request_too_large',
    // Baidu Qianfan ("Prompt tokens too long", "the max input characters is N") and Volcengine Ark.
    'tokens_too_long',
    'characters_too_long',
    'outofcontexterror',
  ],
  limit: [
    'insufficient_quota',
    'billing_hard_limit_reached',
    'billing_not_active',
    'usage_limit_reached',
    'insufficient_credits',
    // Anthropic's 429 `rate_limit_error` whose `details.error_code` says the monthly spend limit is spent.
    'enforced_spend_limit_reached',
    'usage_not_included',
    // DashScope: the account has an overdue payment.
    'arrearage',
    // LiteLLM proxy: a key, user, team or model budget is spent (sent as a 400 or a 429).
    'budget_exceeded',
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
    'modelstreamerrorexception',
    'modeltimeoutexception',
    // AWS documents it (a 400) as "resubmit your request later".
    'servicequotaexceededexception',
    // Groq 498 flex tier at capacity.
    'capacity_exceeded',
    // The Codex backend's in-band "stream closed before response.completed" (typed `invalid_request_error`).
    'request_timeout',
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
    // The AI Gateway's 424 (`GatewayFailedDependencyError`): documented as not retryable, change the request.
    'failed_dependency',
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
  // Bun's fetch (before 1.3 it used its own names instead of Node's).
  'ConnectionRefused',
  'ConnectionClosed',
  'FailedToOpenSocket',
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
  // `ai` replaces a gateway auth failure with a bare `Error` of this name (no status, no cause).
  'GatewayAuthenticationError',
  'ZodError',
  'ValidationError',
];

/** Error names of a timeout: transient (our own per-tool timeout and `AbortSignal.timeout()`'s reason). */
export const timeoutErrorNames: readonly string[] = ['ToolTimeoutError', 'TimeoutError'];
