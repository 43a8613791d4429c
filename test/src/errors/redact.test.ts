import { afterEach, describe, expect, it, vi } from 'vitest';
import { redactSecrets } from '../../../src/errors/redact.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

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

  it('redacts values of secret-looking environment variables, read at call time, skipping tiny ones', () => {
    vi.stubEnv('MY_SERVICE_TOKEN', 'tok-9f8e7d6c5b4a');
    vi.stubEnv('DB_PASSWORD', 'correct-horse');
    vi.stubEnv('STRIPE_SECRET', 'short');
    vi.stubEnv('PUBLIC_URL', 'https://example.com/path');
    expect(redactSecrets('sent tok-9f8e7d6c5b4a and correct-horse to https://example.com/path; short')).toBe(
      'sent [REDACTED] and [REDACTED] to https://example.com/path; short',
    );
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

  it('stays linear on adversarial 1 MB inputs', () => {
    // The quadratic shapes: long runs a pattern can start at everywhere, and many `://` without `@`.
    const inputs = [
      'a'.repeat(1_000_000),
      `://${'a:'.repeat(500_000)}`,
      '://x:'.repeat(200_000),
      'sk-'.repeat(300_000),
      `Bearer ${'x'.repeat(1_000_000)}`,
      'eyJ'.repeat(300_000),
      'password='.repeat(100_000),
    ];
    // A super-linear pattern takes minutes on these and trips the test timeout; linear ones take milliseconds.
    for (const input of inputs) expect(redactSecrets(input).length).toBeGreaterThan(0);
  });
});
