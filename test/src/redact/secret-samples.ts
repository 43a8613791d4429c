import fc from 'fast-check';

/**
 * Realistic secrets of every covered format, for the redaction tests: the shapes providers issue (lengths,
 * alphabets, fixed parts), drawn without bias, because real keys are random and a biased generator's `aaaa…`
 * bodies are no key anyone holds.
 */

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const HEX = `${DIGITS}abcdef`;
const BASE64URL = `${ALNUM}-_`;
const BASE64 = `${ALNUM}+/`;
const PASSWORD = `${ALNUM}!#$*~`;
/** A URL password: `#` and `?` would end the authority (a real URL escapes them). */
const URL_PASSWORD = `${ALNUM}!$*~`;

/** `length` characters drawn uniformly from `alphabet`. */
export function chars(alphabet: string, length: number): fc.Arbitrary<string> {
  return fc
    .noBias(
      fc.array(fc.integer({ min: 0, max: alphabet.length - 1 }), { minLength: length, maxLength: length }),
    )
    .map((indexes) => indexes.map((i) => alphabet[i]).join(''));
}

/** A string of parts, each a literal or an arbitrary. */
function shape(...parts: (string | fc.Arbitrary<string>)[]): fc.Arbitrary<string> {
  return fc
    .tuple(...parts.map((part) => (typeof part === 'string' ? fc.constant(part) : part)))
    .map((values) => values.join(''));
}

/**
 * One secret as it appears in text: `text` (with its context, e.g. `Authorization: Bearer `), and `secret`, the
 * characters that must never reach the model.
 */
export interface SecretSample {
  readonly text: string;
  readonly secret: string;
}

export interface SecretKind {
  /** The format's row in docs/graceful-tool.md. */
  readonly format: string;
  /**
   * How the text may be glued to what precedes it: `any` (a key found by its prefix: after a letter, a digit,
   * `_`, `=`), or `delimited` (a bare key or a context word needs a space, a quote or a line start before it).
   */
  readonly glue: 'any' | 'delimited';
  readonly sample: fc.Arbitrary<SecretSample>;
}

/** A key that is its own text; `prefix` is public (it names the issuer), the rest is secret. */
function key(
  format: string,
  prefix: string | fc.Arbitrary<string>,
  ...body: (string | fc.Arbitrary<string>)[]
) {
  const glue: SecretKind['glue'] = 'any';
  return {
    format,
    glue,
    sample: fc
      .tuple(typeof prefix === 'string' ? fc.constant(prefix) : prefix, shape(...body))
      .map(([p, secret]) => ({ text: p + secret, secret })),
  };
}

/** A secret known by its context: `before` (e.g. `api-key: `) is public. */
function inContext(format: string, before: string, secret: fc.Arbitrary<string>, after = ''): SecretKind {
  return {
    format,
    glue: 'delimited',
    sample: secret.map((value) => ({ text: `${before}${value}${after}`, secret: value })),
  };
}

const pemBody = fc.array(chars(BASE64, 64), { minLength: 3, maxLength: 3 }).map((lines) => lines.join('\n'));

export const secretKinds: readonly SecretKind[] = [
  key('Anthropic', 'sk-ant-api03-', chars(BASE64URL, 93), 'AA'),
  key('OpenAI project, service account and admin keys', 'sk-proj-', chars(BASE64URL, 156)),
  key('OpenAI project, service account and admin keys', 'sk-svcacct-', chars(BASE64URL, 120)),
  key('OpenRouter', 'sk-or-v1-', chars(HEX, 64)),
  key(
    'other sk- keys: OpenAI (legacy), DeepSeek, Moonshot',
    'sk-',
    chars(ALNUM, 20),
    'T3BlbkFJ',
    chars(ALNUM, 20),
  ),
  key('other sk- keys: OpenAI (legacy), DeepSeek, Moonshot', 'sk-', chars(HEX, 32)),
  key(
    'Stripe secret, restricted and webhook keys',
    fc.constantFrom('sk_live_', 'sk_test_', 'rk_live_', 'whsec_'),
    chars(ALNUM, 40),
  ),
  key('other sk_ keys: ElevenLabs', 'sk_', chars(HEX, 48)),
  key('Slack tokens', 'xoxb-', chars(DIGITS, 12), '-', chars(DIGITS, 13), '-', chars(ALNUM, 24)),
  key('Slack tokens', 'xoxp-', chars(DIGITS, 12), '-', chars(DIGITS, 13), '-', chars(HEX, 32)),
  key('GitHub tokens', fc.constantFrom('ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'), chars(ALNUM, 36)),
  key('GitHub fine-grained tokens', 'github_pat_', chars(ALNUM, 22), '_', chars(ALNUM, 59)),
  key('GitLab tokens', 'glpat-', chars(BASE64URL, 20)),
  key('Google API keys', 'AIza', chars(BASE64URL, 35)),
  key('Google OAuth access tokens', 'ya29.', chars(BASE64URL, 120)),
  key('Hugging Face', 'hf_', chars(UPPER + LOWER, 34)),
  key('Groq', 'gsk_', chars(ALNUM, 52)),
  key('xAI', 'xai-', chars(ALNUM, 80)),
  key('Perplexity', 'pplx-', chars(ALNUM, 48)),
  key('Fireworks', 'fw_', chars(ALNUM, 24)),
  key('Together AI', 'tgp_v1_', chars(BASE64URL, 43)),
  key('Cerebras', 'csk-', chars(ALNUM, 48)),
  key('Replicate', 'r8_', chars(ALNUM, 37)),
  key('Vercel AI Gateway', 'vck_', chars(ALNUM, 56)),
  key('npm tokens', 'npm_', chars(ALNUM, 36)),
  key('AWS access key ids', fc.constantFrom('AKIA', 'ASIA'), chars(UPPER + DIGITS, 16)),
  key('Twilio API key and account SIDs', fc.constantFrom('SK', 'AC'), chars(HEX, 32)),
  key('JWTs', 'eyJ', chars(BASE64URL, 33), '.eyJ', chars(BASE64URL, 60), '.', chars(BASE64URL, 43)),
  {
    format: 'PEM private keys',
    glue: 'any',
    sample: fc
      .tuple(fc.constantFrom('', 'RSA ', 'EC ', 'OPENSSH ', 'ENCRYPTED '), pemBody)
      .map(([kind, body]) => ({
        text: `-----BEGIN ${kind}PRIVATE KEY-----\n${body}\n-----END ${kind}PRIVATE KEY-----`,
        secret: body,
      })),
  },
  inContext('40-character base64 keys standing alone: AWS secret access keys, Cohere', '', chars(BASE64, 40)),
  inContext('40-character base64 keys standing alone: AWS secret access keys, Cohere', '', chars(ALNUM, 40)),
  inContext('Bearer tokens', 'Authorization: Bearer ', chars(ALNUM, 32)),
  inContext('Bearer tokens', 'Bearer ', chars(BASE64URL, 24)),
  {
    format: 'Authorization header values',
    glue: 'delimited',
    sample: chars(PASSWORD, 16).map((password) => {
      const secret = btoa(`user:${password}`);
      return { text: `Authorization: Basic ${secret}`, secret };
    }),
  },
  inContext('Authorization header values', '"authorization":"Token ', chars(ALNUM, 40), '"'),
  inContext('secret-named fields and parameters', 'api-key: ', chars(HEX, 32)),
  inContext(
    'secret-named fields and parameters',
    'https://api.example.com/v1/x?access_token=',
    chars(ALNUM, 40),
  ),
  inContext('secret-named fields and parameters', '?q=1&api_key=', chars(ALNUM, 32), '&page=2'),
  inContext('secret-named fields and parameters', 'TWILIO_AUTH_TOKEN=', chars(HEX, 32)),
  inContext('secret-named fields and parameters', 'TOGETHER_API_KEY=', chars(HEX, 64)),
  inContext('secret-named fields and parameters', 'aws_secret_access_key = ', chars(BASE64, 40)),
  inContext('secret-named fields and parameters', '{"password":"', chars(PASSWORD, 16), '"}'),
  inContext('passwords in URLs', 'postgres://admin:', chars(URL_PASSWORD, 16), '@db.internal:5432/app'),
];

/** Invisible characters and ANSI sequences a key may be split with. */
const SPLITTERS = [
  '\u200b',
  '\u200c',
  '\u200d',
  '\u2060',
  '\ufeff',
  '\u00ad',
  '\x1b[31m',
  '\x1b[0m',
  '\x1b[1;32m',
];

/** `text` with invisible characters or ANSI sequences inserted at random places. */
export function splitBy(text: string, cuts: readonly (readonly [number, number])[]): string {
  const positions = cuts.map(([at, which]) => [at % (text.length + 1), which % SPLITTERS.length] as const);
  positions.sort((a, b) => b[0] - a[0]);
  let out = text;
  for (const [at, which] of positions) out = `${out.slice(0, at)}${SPLITTERS[which]}${out.slice(at)}`;
  return out;
}

const fullPercent = (text: string): string =>
  Array.from(
    new TextEncoder().encode(text),
    (byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
  ).join('');
const unicodeEscaped = (text: string): string =>
  Array.from(text, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

/** How a secret may be encoded in an error's text. */
export const ENCODINGS: Readonly<Record<string, (text: string) => string>> = {
  raw: (text) => text,
  percent: encodeURIComponent,
  'percent, every character': fullPercent,
  json: (text) => JSON.stringify({ detail: text }),
  'json in json': (text) => JSON.stringify(JSON.stringify({ detail: text })),
  'unicode escapes': unicodeEscaped,
  'percent-encoded json': (text) => encodeURIComponent(JSON.stringify({ key: text })),
};

/** What may come right before a secret; a delimited one gets a delimiter. */
export const BEFORE_ANY = ['', ' ', '=', '_', 'x', '9', 'OPENAI_KEY_', '%3D', 'token%3D', '"key":"', ':'];
export const BEFORE_DELIMITED = ['', ' ', '\n', '(', '"', ': '];
export const AFTER = ['', ' ', '.', ',', '"', '\n', ';', ')', ' rejected'];

/**
 * The text a reader could recover from `output`: ANSI sequences and invisible characters removed, percent-escapes
 * and JSON escapes decoded, repeatedly. Written independently of the library's decoder, with regular expressions.
 */
const ANSI = new RegExp(`${String.fromCharCode(0x1b)}\\[[0-?]*[ -/]*[@-~]`, 'g');

export function reveal(output: string): string {
  let text = output;
  for (let pass = 0; pass < 4; pass++) {
    text = text
      .replace(ANSI, '')
      .replace(/[\u00ad\u200b-\u200f\u2060-\u206f\ufeff]/g, '')
      .replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
        try {
          return decodeURIComponent(run);
        } catch {
          return run;
        }
      })
      .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
      .replace(/\\(["\\/])/g, '$1')
      .replace(/\\n/g, '\n');
  }
  return text;
}

/** The first 8-character piece of `secret` that `output` still shows (once revealed), if any. */
export function leakedPiece(output: string, secret: string): string | undefined {
  const shown = reveal(output).replace(/\s+/g, '');
  const plain = secret.replace(/\s+/g, '');
  for (let i = 0; i + 8 <= plain.length; i++) {
    const piece = plain.slice(i, i + 8);
    if (shown.includes(piece)) return piece;
  }
  return undefined;
}
