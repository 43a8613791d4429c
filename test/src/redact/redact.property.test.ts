import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ModelRetry } from '../../../src/errors/model-retry.js';
import { formatToolError } from '../../../src/model-text/format-for-model.js';
import { redactSecrets } from '../../../src/redact/redact.js';
import {
  AFTER,
  BEFORE_ANY,
  BEFORE_DELIMITED,
  ENCODINGS,
  leakedPiece,
  type SecretKind,
  secretKinds,
  splitBy,
} from './secret-samples.js';

/** Where in a thrown value the secret's text is put. */
const SITES: Readonly<Record<string, (text: string) => unknown>> = {
  message: (text) => new Error(text),
  'third cause': (text) =>
    new Error('request failed', { cause: new Error('upstream error', { cause: new Error(text) }) }),
  'thrown object': (text) => ({ code: 'E_AUTH', detail: text }),
  'thrown string': (text) => text,
  'aggregate inner error': (text) =>
    new AggregateError([new Error('first'), new Error(text)], 'several failed'),
  ModelRetry: (text) => new ModelRetry(text),
  'property of the error': (text) =>
    Object.assign(new Error('unauthorized'), { headers: { authorization: text } }),
};

/** A secret of one kind, glued into text, encoded and perhaps split by invisible characters. */
const embedded = (kind: SecretKind) =>
  fc.record({
    sample: kind.sample,
    before: fc.constantFrom(...(kind.glue === 'any' ? BEFORE_ANY : BEFORE_DELIMITED)),
    after: fc.constantFrom(...AFTER),
    encoding: fc.constantFrom(...Object.keys(ENCODINGS)),
    splits: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 4 }),
  });

const anyEmbedded = fc.constantFrom(...secretKinds).chain((kind) =>
  embedded(kind).map((parts) => {
    const split = splitBy(parts.sample.text, parts.splits);
    const text = `login failed: ${parts.before}${ENCODINGS[parts.encoding]!(split)}${parts.after} (retry later)`;
    return { ...parts, format: kind.format, text };
  }),
);

describe('redaction properties', () => {
  it('a secret of any covered format, anywhere in an error and however encoded, never reaches the model', () => {
    fc.assert(
      fc.property(anyEmbedded, fc.constantFrom(...Object.keys(SITES)), (secret, site) => {
        const modelText = formatToolError(SITES[site]!(secret.text));
        expect(
          leakedPiece(modelText, secret.sample.secret),
          `${secret.format} in ${site}: ${modelText}`,
        ).toBe(undefined);
        const redacted = redactSecrets(secret.text);
        expect(leakedPiece(redacted, secret.sample.secret), `${secret.format}: ${redacted}`).toBe(undefined);
      }),
      { numRuns: 1000 },
    );
  });

  it('a secret split between two levels of a cause chain reaches the model in neither', () => {
    fc.assert(
      fc.property(anyEmbedded, fc.nat(), (secret, cut) => {
        const at = cut % (secret.text.length + 1);
        const error = new Error(secret.text.slice(0, at), { cause: new Error(secret.text.slice(at)) });
        const modelText = formatToolError(error);
        expect(
          leakedPiece(modelText, secret.sample.secret),
          `${secret.format} cut at ${at}: ${modelText}`,
        ).toBe(undefined);
      }),
      { numRuns: 500 },
    );
  });

  it('redacting twice changes nothing more', () => {
    fc.assert(
      fc.property(anyEmbedded, (secret) => {
        const once = redactSecrets(secret.text);
        expect(redactSecrets(once)).toBe(once);
      }),
      { numRuns: 300 },
    );
  });
});

/** Words of ordinary error text, among them every near miss the rules must leave alone. */
const BENIGN_WORDS = [
  'the request failed with status 429 Too Many Requests',
  'ECONNRESET socket hang up',
  'task-management-service',
  'disk-usage-monitor',
  'risk-assessment-2024-q3-report',
  'desk-booking-v2-api-gateway',
  'monkey=42',
  'turkey: 1234567890abcdefXYZ',
  'keyboard=US',
  'max_tokens=4096',
  'input_tokens: 123',
  'password: Required',
  'token: expired',
  'secret: Missing',
  'x-api-key: missing',
  'Authorization: required',
  'Bearer realm="api"',
  'Bearer authentication',
  'Basic plan',
  'Basic Authentication required',
  'pplx-embed-v1-4b',
  '@xai-official/grok',
  'hf_hub_download',
  'npm_config_cache',
  'gpt-4o-mini',
  'claude-3-5-sonnet-20241022',
  'https://api.openai.com/v1/chat/completions',
  'https://docs.example.com/a:b?x=1&y=2',
  'postgres://db.internal:5432/app',
  '/data/q3.csv',
  'C:\\Users\\me\\file.txt',
  'caf%C3%A9',
  '100%',
  '50%OFF',
  'a%20b',
  '\x1b[31merror\x1b[0m',
  'zero\u200bwidth',
  '{"error":{"code":"rate_limit_exceeded","type":"tokens"}}',
  '{"type":"invalid_request_error","param":"messages.0.content"}',
  'req_0123456789abcdef0123456789abcdef',
  'chatcmpl-AbC123',
  '550e8400-e29b-41d4-a716-446655440000',
  'da39a3ee5e6b4b0d3255bfef95601890afd80709',
  'eyJ',
  'sk-',
  'AKIA',
  'SK',
  'AC',
  'Incorrect API key provided: sk-proj-********************abcd.',
  '-----BEGIN CERTIFICATE-----',
];
const SEPARATORS = [' ', ', ', '. ', ' - ', ' | ', '; '];
const benignText = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom(...BENIGN_WORDS),
        fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789 -.,'), maxLength: 10 }),
      ),
      fc.constantFrom(...SEPARATORS),
    ),
    { minLength: 1, maxLength: 20 },
  )
  .map((parts) =>
    parts
      .map(([word, separator]) => word + separator)
      .join('')
      .trim(),
  );

describe('text without secrets', () => {
  it('is left unchanged', () => {
    fc.assert(
      fc.property(benignText, (text) => {
        expect(redactSecrets(text)).toBe(text);
      }),
      { numRuns: 1000 },
    );
  });

  it('is left unchanged in a cause chain, where messages are also read joined', () => {
    // A message that ends mid-token is read as continuing into the next one (a key cut in two must be found), so
    // the outer message here ends a sentence, as error messages do.
    fc.assert(
      fc.property(benignText, fc.constantFrom('.', ')', ']', '?'), benignText, (words, end, inner) => {
        const outer = words + end;
        fc.pre(inner.length > 0 && !outer.includes(inner));
        const text = formatToolError(new Error(outer, { cause: new Error(inner) }), {
          guidance: 'none',
          maxErrorChars: 100_000,
        });
        expect(text).toBe(`Error: ${outer}\nCaused by: Error: ${inner}`);
      }),
      { numRuns: 500 },
    );
  });
});
