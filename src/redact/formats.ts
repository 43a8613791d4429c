/**
 * The secret formats the redaction knows, as data: keys recognised by their prefix (this file) and the names under
 * which any value is a secret. The shapes of keys that have no prefix (Mistral, Cohere, Together's older keys,
 * Azure, Twilio auth tokens) are indistinguishable from ids and hashes: they are caught by their context (a
 * `Bearer`/`Authorization` header, a secret-named field, a URL password, an environment variable's value).
 */

/**
 * A character class as a table: entry `c` (an ASCII code) is 1 when the class holds it, entry 128 says whether it
 * holds the characters past ASCII. A run is then measured with one lookup per character.
 */
export type CharClass = Uint8Array;

export const charClass = (re: RegExp): CharClass =>
  Uint8Array.from({ length: 129 }, (_, c) => Number(re.test(String.fromCharCode(c < 128 ? c : 0x100))));

/** Whether the character at `i` belongs to `cls` (false past the end of the text). */
export function isIn(cls: CharClass, text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c < 128 ? cls[c] === 1 : c >= 128 && cls[128] === 1;
}

export const ALNUM = charClass(/[A-Za-z0-9]/);
/** Letters, digits, `-` and `_`. */
export const BASE64URL = charClass(/[\w-]/);
const UPPER_ALNUM = charClass(/[A-Z0-9]/);
const LOWER_HEX = charClass(/[0-9a-f]/);
/** Letters, digits and `-`. */
const ALNUM_DASH = charClass(/[A-Za-z0-9-]/);
/** Letters, digits, `+` and `/`. */
export const BASE64 = charClass(/[A-Za-z0-9+/]/);
/** What a credential in a header or field may hold: printable ASCII except quotes, separators and brackets. */
export const TOKEN = charClass(/[!#-%*+\-./0-:=?-Z^_a-z~]/);

/** A key recognised by its prefix, wherever it stands (after a letter, a digit, `_`, `=` or an escape). */
export interface KeyFormat {
  readonly prefixes: readonly string[];
  /** The class of the characters after the prefix. */
  readonly body: CharClass;
  /**
   * Fewest body characters. A distinctive prefix needs 1, so a key cut short by a bound is still a key; a prefix
   * that also occurs in words (`xai-`, `hf_`) needs a key-length body.
   */
  readonly min: number;
  /** The body has exactly `min` characters and is not followed by another body character. */
  readonly exact?: boolean;
  /** The prefix ends ordinary words (`task-`, `mask_`): the body's start must also look random. */
  readonly random?: boolean;
}

/**
 * Each entry is a row of the table in docs/graceful-tool.md "Secret redaction", named in the comment above it (the
 * docs test checks that the table shows every prefix).
 */
export const KEY_FORMATS: readonly KeyFormat[] = [
  // Anthropic
  { prefixes: ['sk-ant-'], body: BASE64URL, min: 1 },
  // OpenAI project, service account and admin keys
  { prefixes: ['sk-proj-', 'sk-svcacct-', 'sk-admin-', 'sk-None-'], body: BASE64URL, min: 1 },
  // OpenRouter
  { prefixes: ['sk-or-'], body: BASE64URL, min: 1 },
  // other sk- keys: OpenAI (legacy), DeepSeek, Moonshot
  { prefixes: ['sk-'], body: BASE64URL, min: 20, random: true },
  // Stripe secret, restricted and webhook keys
  { prefixes: ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_', 'whsec_'], body: ALNUM, min: 1 },
  // other sk_ keys: ElevenLabs
  { prefixes: ['sk_'], body: ALNUM, min: 20, random: true },
  // Slack tokens
  {
    prefixes: ['xoxb-', 'xoxp-', 'xoxa-', 'xoxr-', 'xoxs-', 'xoxe-', 'xoxe.', 'xapp-'],
    body: ALNUM_DASH,
    min: 1,
  },
  // GitHub tokens
  { prefixes: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], body: ALNUM, min: 1 },
  // GitHub fine-grained tokens
  { prefixes: ['github_pat_'], body: BASE64URL, min: 1 },
  // GitLab tokens
  { prefixes: ['glpat-'], body: BASE64URL, min: 1 },
  // Google API keys
  { prefixes: ['AIza'], body: BASE64URL, min: 1 },
  // Google OAuth access tokens
  { prefixes: ['ya29.'], body: BASE64URL, min: 1 },
  // Hugging Face
  { prefixes: ['hf_'], body: ALNUM, min: 30 },
  // Groq
  { prefixes: ['gsk_'], body: ALNUM, min: 20 },
  // xAI
  { prefixes: ['xai-'], body: ALNUM, min: 20 },
  // Perplexity
  { prefixes: ['pplx-'], body: ALNUM, min: 20 },
  // Fireworks
  { prefixes: ['fw_'], body: ALNUM, min: 20 },
  // Together AI
  { prefixes: ['tgp_v1_'], body: BASE64URL, min: 1 },
  // Cerebras
  { prefixes: ['csk-'], body: ALNUM, min: 20 },
  // Replicate
  { prefixes: ['r8_'], body: ALNUM, min: 20 },
  // Vercel AI Gateway
  { prefixes: ['vck_'], body: ALNUM, min: 20 },
  // npm tokens
  { prefixes: ['npm_'], body: ALNUM, min: 20 },
  // AWS access key ids
  { prefixes: ['AKIA', 'ASIA', 'ABIA', 'ACCA'], body: UPPER_ALNUM, min: 16, exact: true },
  // Twilio API key and account SIDs
  { prefixes: ['SK', 'AC'], body: LOWER_HEX, min: 32, exact: true },
];

/**
 * How a field name says its value is secret, compared case-insensitively with `-`, `_` and `.` ignored, at the end
 * of the name (`OPENAI_API_KEY`, `x-api-key`, `clientSecret`) and starting at a word boundary (not `monkey`).
 * - `strong`: any value is a secret, except an ordinary word after `: ` ("password: Required").
 * - `weak`: the value must look like a credential (16+ characters with letters and digits).
 * - `scheme`: an `Authorization` value: the scheme word (`Basic`, `Token`) stays, the credential goes.
 */
export const SECRET_NAMES: readonly (readonly [name: string, kind: 'strong' | 'weak' | 'scheme'])[] = [
  ['authorization', 'scheme'],
  ['subscriptionkey', 'strong'],
  ['sessiontoken', 'strong'],
  ['refreshtoken', 'strong'],
  ['accesstoken', 'strong'],
  ['credentials', 'strong'],
  ['privatekey', 'strong'],
  ['passphrase', 'strong'],
  ['credential', 'strong'],
  ['accesskey', 'strong'],
  ['secretkey', 'strong'],
  ['authtoken', 'strong'],
  ['password', 'strong'],
  ['idtoken', 'strong'],
  ['apikey', 'strong'],
  ['passwd', 'strong'],
  ['secret', 'strong'],
  ['pwd', 'strong'],
  ['signature', 'weak'],
  ['token', 'weak'],
  ['auth', 'weak'],
  ['key', 'weak'],
  ['sig', 'weak'],
];
