import { afterEach, describe, expect, it, vi } from 'vitest';
import { redactSecrets } from '../../../src/redact/redact.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

const PROJECT_KEY = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWx1234';
const GITHUB_TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

describe('redactSecrets', () => {
  it.each([
    ['OpenAI key', 'key sk-proj-AbCdEfGhIjKlMnOpQrStUvWx1234 rejected', 'key [REDACTED] rejected'],
    ['Anthropic key', 'x-api-key: sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv_-12', 'x-api-key: [REDACTED]'],
    ['Google key', 'AIzaSyA1234567890abcdefghijklmnopqrstu failed', '[REDACTED] failed'],
    ['GitHub classic token', 'token ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'token [REDACTED]'],
    ['GitHub OAuth token', 'gho_abcdefghijklmnopqrstuvwxyz0123456789', '[REDACTED]'],
    [
      'GitHub app token',
      'ghs_abcdefghijklmnopqrstuvwxyz0123456789 ghu_abcdefghijklmnopqrstuvwxyz012',
      '[REDACTED] [REDACTED]',
    ],
    ['GitHub fine-grained token', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnop', '[REDACTED]'],
    ['Bearer token', 'Authorization: Bearer abc.def-123_XYZ', 'Authorization: Bearer [REDACTED]'],
    ['AWS access key id', 'AccessKeyId AKIAIOSFODNN7EXAMPLE denied', 'AccessKeyId [REDACTED] denied'],
    [
      'JWT',
      'jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U expired',
      'jwt [REDACTED] expired',
    ],
    [
      'password in a URL',
      'connect postgres://admin:hunter2secret@db.internal:5432/app',
      'connect postgres://admin:[REDACTED]@db.internal:5432/app',
    ],
    [
      'connection string password',
      'Server=db;User Id=sa;Password=S3cr3t!x;Database=app',
      'Server=db;User Id=sa;Password=[REDACTED];Database=app',
    ],
    ['pwd key', 'dsn pwd="p4ss w0rd"', 'dsn pwd=[REDACTED]'],
  ])('redacts a %s', (_kind, text, expected) => {
    expect(redactSecrets(text)).toBe(expected);
  });

  it.each([
    ['after a percent-encoded `=`', `invalid%3D${PROJECT_KEY}`, 'invalid%3D[REDACTED]'],
    ['in percent-encoded JSON', `%22key%22%3A%22${PROJECT_KEY}%22`, '%22key%22%3A[REDACTED]'],
    [
      'in a percent-encoded header',
      'Authorization%3A%20Bearer%20abcDEF123ghiJKL456',
      'Authorization%3A%20Bearer%20[REDACTED]',
    ],
    ['after a letter and `_`', `OPENAI_KEY_${PROJECT_KEY}`, 'OPENAI_KEY_[REDACTED]'],
    ['after a digit', `v2${GITHUB_TOKEN}`, 'v2[REDACTED]'],
    ['in a percent-encoded query', `token%3D${GITHUB_TOKEN}`, 'token%3D[REDACTED]'],
    [
      'as JSON unicode escapes',
      '{"k":"\\u0073\\u006b-proj-AbCdEfGhIjKlMnOpQrStUvWx1234"}',
      '{"k":"[REDACTED]"}',
    ],
    [
      'in JSON inside JSON',
      '{"body":"{\\"api_key\\":\\"abcdEFGH12345678ijkl\\"}"}',
      '{"body":"{\\"api_key\\":[REDACTED]}"}',
    ],
    [
      'with zero-width characters inside',
      'sk-pr\u200boj-AbCdEfGh\u200dIjKlMnOpQrStUvWx1234 x',
      '[REDACTED] x',
    ],
    [
      'with a percent-encoded zero-width space inside',
      'sk-proj-AbCd%E2%80%8BEfGhIjKlMnOpQrStUvWx1234',
      '[REDACTED]',
    ],
    [
      'with ANSI colours inside',
      `\x1b[31mghp_abcdefghij\x1b[1;32mklmnopqrstuvwxyz0123456789\x1b[0m!`,
      '\x1b[31m[REDACTED]!',
    ],
    ['as JavaScript hex escapes', 'ghp_abc\\x64efghijklmnopqrstuvwxyz0123456789', '[REDACTED]'],
  ])('finds a key %s and replaces it in its original form', (_where, text, expected) => {
    expect(redactSecrets(text)).toBe(expected);
  });

  it.each([
    ['Anthropic admin key', 'sk-ant-admin01-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AA'],
    ['OpenAI service account key', 'sk-svcacct-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789'],
    ['OpenAI legacy key', 'sk-AbCdEfGhIjKlMnOpQrStT3BlbkFJAbCdEfGhIjKlMnOpQrSt'],
    ['DeepSeek key', 'sk-0123456789abcdef0123456789abcdef'],
    ['OpenRouter key', 'sk-or-v1-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef'],
    ['Stripe live key', 'sk_live_51H8AbCdEfGhIjKlMnOpQrStUv'],
    ['Stripe restricted key', 'rk_live_51H8AbCdEfGhIjKlMnOpQrStUv'],
    ['Stripe webhook secret', 'whsec_AbCdEfGhIjKlMnOpQrStUvWxYz012345'],
    ['ElevenLabs key', 'sk_0123456789abcdef0123456789abcdef0123456789abcdef'],
    ['Slack bot token', 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx'],
    ['Slack user token', 'xoxp-123456789012-123456789012-1234567890123-0123456789abcdef0123456789abcdef'],
    ['Slack app token', 'xapp-1-A0123456789-1234567890123-0123456789abcdef'],
    ['GitLab token', 'glpat-AbCdEfGhIjKlMnOpQrSt'],
    ['Google OAuth token', 'ya29.a0AfH6SMBAbCdEfGhIjKlMnOpQrStUvWxYz0123456789'],
    ['Hugging Face token', 'hf_AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh'],
    ['Groq key', 'gsk_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMnOp'],
    ['xAI key', 'xai-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCd'],
    ['Perplexity key', 'pplx-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKl'],
    ['Fireworks key', 'fw_AbCdEfGhIjKlMnOpQrStUvWx'],
    ['Together key', 'tgp_v1_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcd'],
    ['Cerebras key', 'csk-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKl'],
    ['Replicate token', 'r8_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789a'],
    ['Vercel AI Gateway key', 'vck_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789'],
    ['npm token', 'npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789'],
    ['AWS session key id', 'ASIAIOSFODNN7EXAMPLE'],
    ['Twilio API key SID', 'SK0123456789abcdef0123456789abcdef'],
    ['Twilio account SID', 'AC0123456789abcdef0123456789abcdef'],
    ['AWS secret access key standing alone', AWS_SECRET],
    ['Cohere key standing alone', 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCd'],
  ])('redacts a %s', (_kind, key) => {
    expect(redactSecrets(`failed (${key}) twice`)).toBe('failed ([REDACTED]) twice');
  });

  it.each([
    ['Basic credentials', 'Authorization: Basic dXNlcjpwYXNzd29yZA==', 'Authorization: Basic [REDACTED]'],
    [
      'a credential after another scheme',
      '"authorization":"Token abcdef123456"',
      '"authorization":"Token [REDACTED]"',
    ],
    ['a credential without a scheme', 'Authorization: 0123456789abcdef', 'Authorization: [REDACTED]'],
    ['an Azure api-key header', 'api-key: 0123456789abcdef0123456789abcdef', 'api-key: [REDACTED]'],
    [
      'an access_token parameter',
      'GET /v1/x?access_token=abc123&page=2',
      'GET /v1/x?access_token=[REDACTED]&page=2',
    ],
    [
      'an api_key parameter',
      '/search?q=x&api_key=AbCdEfGh12345678&page=2',
      '/search?q=x&api_key=[REDACTED]&page=2',
    ],
    [
      'a Twilio auth token',
      'TWILIO_AUTH_TOKEN=0123456789abcdef0123456789abcdef',
      'TWILIO_AUTH_TOKEN=[REDACTED]',
    ],
    [
      'an AWS secret in a config',
      `aws_secret_access_key = ${AWS_SECRET}`,
      'aws_secret_access_key = [REDACTED]',
    ],
    ['a client secret in camelCase JSON', '{"clientSecret": "s3cr3t-value"}', '{"clientSecret": [REDACTED]}'],
    ['a token field whose value looks random', 'token=AbCdEfGh12345678', 'token=[REDACTED]'],
    [
      'a URL password holding `@`',
      'redis://default:p@ss%23w0rd@cache:6379/0',
      'redis://default:[REDACTED]@cache:6379/0',
    ],
    [
      'a PEM private key',
      'key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB\naFDrBz9vFqU4yMW3ZTuhUMMGMmfnSfnNpkpYaFz0=\n-----END RSA PRIVATE KEY-----\ndone',
      'key:\n[REDACTED]\ndone',
    ],
    [
      'a PEM private key cut before its footer',
      'key -----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC',
      'key [REDACTED]',
    ],
    [
      'a PEM private key whose header was cut off',
      'kiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC\naFDrBz9vFqU4yMW3ZTuhUMMGMmfnSfnNpkpYaFz0=\n-----END PRIVATE KEY----- done',
      '[REDACTED] done',
    ],
  ])('redacts %s', (_kind, text, expected) => {
    expect(redactSecrets(text)).toBe(expected);
  });

  it('redacts values of secret-looking environment variables, read at call time, skipping tiny ones', () => {
    vi.stubEnv('MY_SERVICE_TOKEN', 'tok-9f8e7d6c5b4a');
    vi.stubEnv('DB_PASSWORD', 'correct-horse');
    vi.stubEnv('STRIPE_SECRET', 'short');
    vi.stubEnv('PUBLIC_URL', 'https://example.com/path');
    expect(redactSecrets('sent tok-9f8e7d6c5b4a and correct-horse to https://example.com/path; short')).toBe(
      'sent [REDACTED] and [REDACTED] to https://example.com/path; short',
    );
  });

  it('finds an environment variable value percent-encoded in the text', () => {
    vi.stubEnv('DB_PASSWORD', 'p@ss/w0rd!');
    expect(redactSecrets('connect with p%40ss%2Fw0rd! failed')).toBe('connect with [REDACTED] failed');
  });

  it('applies user patterns and functions, and fails closed when a function throws', () => {
    expect(redactSecrets('card 4111-1111 ok', [/\d{4}-\d{4}/])).toBe('card [REDACTED] ok');
    expect(redactSecrets('a1 b2', /\d/)).toBe('a[REDACTED] b[REDACTED]');
    expect(redactSecrets('hello alice', (t) => t.replace('alice', '<user>'))).toBe('hello <user>');
    expect(
      redactSecrets('sk-proj-AbCdEfGhIjKlMnOpQrStUvWx1234', () => {
        throw new Error('bug');
      }),
    ).toBe('[REDACTED] (redaction failed, so the text was withheld)');
  });

  it('leaves ordinary text alone', () => {
    const text =
      'File /data/q3.csv not found; valid regions: eu-west-1, us-east-1. See https://docs.example.com/a:b';
    expect(redactSecrets(text)).toBe(text);
  });

  it.each([
    ['kebab-case words after `sk-`', 'task-management-service and disk-usage-monitor-v2'],
    ['model and package names with key prefixes', 'pplx-embed-v1-4b, @xai-official/grok, hf_hub_download'],
    ['an environment variable name', 'npm_config_cache is unset'],
    ['a secret name inside a word', 'monkey=42 turkey: 1234567890abcdefXYZ keyboard=US'],
    ['token counts', 'max_tokens=4096, input_tokens: 123'],
    ['prose after a secret name', 'password: Required. token: expired, secret: Missing'],
    ['Bearer and Basic as words', 'requires Bearer authentication; Basic Authentication is off; Basic plan'],
    ['an Authorization sentence', 'Authorization: required for this endpoint'],
    ['the key OpenAI masks in its message', 'Incorrect API key provided: sk-proj-********************abcd.'],
    ['a port before a query with `@`', 'http://localhost:3000?redirect=user@example.com'],
    ['a certificate', '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----'],
    ['hashes and ids', 'sha da39a3ee5e6b4b0d3255bfef95601890afd80709 req_0123456789abcdef0123456789abcdef'],
    ['escapes that decode to nothing secret', 'caf%C3%A9 costs 100% \\u00e9 \x1b[31mred\x1b[0m'],
  ])('leaves %s alone', (_kind, text) => {
    expect(redactSecrets(text)).toBe(text);
  });

  it('is idempotent on text it already redacted', () => {
    const once = redactSecrets(
      `Authorization: Bearer ${GITHUB_TOKEN} api_key=${PROJECT_KEY} postgres://a:b3cr3t@h/db "password":"x"`,
    );
    expect(once).toBe(
      'Authorization: Bearer [REDACTED] api_key=[REDACTED] postgres://a:[REDACTED]@h/db "password":[REDACTED]',
    );
    expect(redactSecrets(once)).toBe(once);
  });

  it('finds a key right after a candidate the same run rejected', () => {
    // `sk-` in `risk-` starts a body that looks like words; the legacy key four characters on is still a key.
    expect(redactSecrets('risk-a-b-sk-AbCdEfGhIjKlMnOpQrStT3BlbkFJAbCdEfGhIjKlMnOpQrSt')).toBe(
      'risk-a-b-[REDACTED]',
    );
  });

  it('reads a field whose name stands inside the value before it', () => {
    expect(redactSecrets('Authorization=#-password"="hunter2"')).toBe('Authorization=[REDACTED]"=[REDACTED]');
  });
});
