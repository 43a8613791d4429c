/**
 * The secret formats the redaction knows, as data: keys recognised by their prefix (this file) and the names under
 * which any value is a secret. The shapes of keys that have no prefix (Mistral, Cohere, Together's older keys,
 * Azure, Twilio auth tokens) are indistinguishable from ids and hashes: they are caught by their context (a
 * `Bearer`/`Authorization` header, a secret-named field, a URL password, an environment variable's value).
 */

/** Character classes over ASCII, as bit flags (`CLASS[code] & flag`). */
export const ALNUM = 1;
/** Letters, digits, `-` and `_`. */
export const BASE64URL = 2;
const UPPER_ALNUM = 4;
const LOWER_HEX = 8;
/** Letters, digits and `-`. */
const ALNUM_DASH = 16;
/** Letters, digits, `+` and `/`. */
export const BASE64 = 32;
/** What a credential in a header or field may hold: printable ASCII except quotes, separators and brackets. */
export const TOKEN = 64;
export const LETTER = 128;

export const CLASS: Uint8Array = (() => {
  const table = new Uint8Array(128);
  const add = (flag: number, test: (c: string) => boolean) => {
    for (let code = 0; code < 128; code++) if (test(String.fromCharCode(code))) table[code]! |= flag;
  };
  const letter = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  const digit = (c: string) => c >= '0' && c <= '9';
  add(LETTER, letter);
  add(ALNUM, (c) => letter(c) || digit(c));
  add(BASE64URL, (c) => letter(c) || digit(c) || c === '-' || c === '_');
  add(UPPER_ALNUM, (c) => (c >= 'A' && c <= 'Z') || digit(c));
  add(LOWER_HEX, (c) => digit(c) || (c >= 'a' && c <= 'f'));
  add(ALNUM_DASH, (c) => letter(c) || digit(c) || c === '-');
  add(BASE64, (c) => letter(c) || digit(c) || c === '+' || c === '/');
  add(TOKEN, (c) => c > ' ' && c < '\x7f' && !'"\'`,;\\<>(){}[]|&'.includes(c));
  return table;
})();

/** A key recognised by its prefix, wherever it stands (after a letter, a digit, `_`, `=` or an escape). */
export interface KeyFormat {
  /** Who issues it (the docs table lists every name). */
  readonly name: string;
  /** What it looks like, for the docs. */
  readonly shape: string;
  readonly prefixes: readonly string[];
  /** The class of the characters after the prefix. */
  readonly body: number;
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

export const KEY_FORMATS: readonly KeyFormat[] = [
  {
    name: 'Anthropic',
    shape: 'sk-ant-api03-…, sk-ant-admin01-…',
    prefixes: ['sk-ant-'],
    body: BASE64URL,
    min: 1,
  },
  {
    name: 'OpenAI project, service account and admin keys',
    shape: 'sk-proj-…, sk-svcacct-…, sk-admin-…, sk-None-…',
    prefixes: ['sk-proj-', 'sk-svcacct-', 'sk-admin-', 'sk-None-'],
    body: BASE64URL,
    min: 1,
  },
  { name: 'OpenRouter', shape: 'sk-or-v1-<64 hex>', prefixes: ['sk-or-'], body: BASE64URL, min: 1 },
  {
    name: 'other sk- keys: OpenAI (legacy), DeepSeek, Moonshot',
    shape: 'sk-<20+ random characters>',
    prefixes: ['sk-'],
    body: BASE64URL,
    min: 20,
    random: true,
  },
  {
    name: 'Stripe secret, restricted and webhook keys',
    shape: 'sk_live_…, sk_test_…, rk_live_…, rk_test_…, whsec_…',
    prefixes: ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_', 'whsec_'],
    body: ALNUM,
    min: 1,
  },
  {
    name: 'other sk_ keys: ElevenLabs',
    shape: 'sk_<20+ random characters>',
    prefixes: ['sk_'],
    body: ALNUM,
    min: 20,
    random: true,
  },
  {
    name: 'Slack tokens',
    shape: 'xoxb-…, xoxp-…, xoxa-…, xoxr-…, xoxs-…, xoxe-…, xapp-…',
    prefixes: ['xoxb-', 'xoxp-', 'xoxa-', 'xoxr-', 'xoxs-', 'xoxe-', 'xoxe.', 'xapp-'],
    body: ALNUM_DASH,
    min: 1,
  },
  {
    name: 'GitHub tokens',
    shape: 'ghp_…, gho_…, ghu_…, ghs_…, ghr_…',
    prefixes: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'],
    body: ALNUM,
    min: 1,
  },
  {
    name: 'GitHub fine-grained tokens',
    shape: 'github_pat_…',
    prefixes: ['github_pat_'],
    body: BASE64URL,
    min: 1,
  },
  { name: 'GitLab tokens', shape: 'glpat-…', prefixes: ['glpat-'], body: BASE64URL, min: 1 },
  { name: 'Google API keys', shape: 'AIza<35 characters>', prefixes: ['AIza'], body: BASE64URL, min: 1 },
  { name: 'Google OAuth access tokens', shape: 'ya29.…', prefixes: ['ya29.'], body: BASE64URL, min: 1 },
  { name: 'Hugging Face', shape: 'hf_<34 letters>', prefixes: ['hf_'], body: ALNUM, min: 30 },
  { name: 'Groq', shape: 'gsk_<52 characters>', prefixes: ['gsk_'], body: ALNUM, min: 20 },
  { name: 'xAI', shape: 'xai-<80 characters>', prefixes: ['xai-'], body: ALNUM, min: 20 },
  { name: 'Perplexity', shape: 'pplx-<48 characters>', prefixes: ['pplx-'], body: ALNUM, min: 20 },
  { name: 'Fireworks', shape: 'fw_<24 characters>', prefixes: ['fw_'], body: ALNUM, min: 20 },
  { name: 'Together AI', shape: 'tgp_v1_…', prefixes: ['tgp_v1_'], body: BASE64URL, min: 1 },
  { name: 'Cerebras', shape: 'csk-<48 characters>', prefixes: ['csk-'], body: ALNUM, min: 20 },
  { name: 'Replicate', shape: 'r8_<37 characters>', prefixes: ['r8_'], body: ALNUM, min: 20 },
  { name: 'Vercel AI Gateway', shape: 'vck_…', prefixes: ['vck_'], body: ALNUM, min: 20 },
  { name: 'npm tokens', shape: 'npm_<36 characters>', prefixes: ['npm_'], body: ALNUM, min: 20 },
  {
    name: 'AWS access key ids',
    shape: 'AKIA<16>, ASIA<16>, ABIA<16>, ACCA<16>',
    prefixes: ['AKIA', 'ASIA', 'ABIA', 'ACCA'],
    body: UPPER_ALNUM,
    min: 16,
    exact: true,
  },
  {
    name: 'Twilio API key and account SIDs',
    shape: 'SK<32 hex>, AC<32 hex>',
    prefixes: ['SK', 'AC'],
    body: LOWER_HEX,
    min: 32,
    exact: true,
  },
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
