import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { redactSecrets } from '../src/errors/redact.js';
import { ENCODINGS, secretKinds } from '../test/src/errors/secret-samples.js';
import { type Bench, median, round } from './harness.js';

const megabyte = 1024 * 1024;
const fill = (unit: string): string => unit.repeat(Math.ceil(megabyte / unit.length)).slice(0, megabyte);

/** Error text as tools and providers write it: messages, JSON bodies, URLs, paths, ids. */
const benign = fill(
  [
    'Error: connect ECONNREFUSED 127.0.0.1:5432 while loading /data/q3.csv',
    '{"error":{"message":"Rate limit reached for gpt-4o in organization org-abc on tokens per min (TPM): Limit 30000, Used 29817, Requested 1204. Please try again in 2.042s.","type":"tokens","param":null,"code":"rate_limit_exceeded"}}',
    'GET https://api.example.com/v1/items?page=2&sort=desc&q=caf%C3%A9 returned 503 Service Unavailable',
    'Caused by: TypeError: Cannot read properties of undefined (reading "id") at task-management-service',
    'request req_0123456789abcdef0123456789abcdef failed after 3 retries; password: Required; max_tokens=4096',
  ].join('\n'),
);

/** Every covered format, 20 samples each, drawn with a fixed seed. */
const samples = secretKinds.flatMap((kind) => fc.sample(kind.sample, { seed: 42, numRuns: 20 }).map((s) => s.text));
const secretDense = fill(samples.map((text, i) => `key ${i}: ${text};`).join('\n'));
const encodings = Object.values(ENCODINGS);
const secretDenseEncoded = fill(samples.map((text, i) => encodings[i % encodings.length]!(text)).join(' '));

/** Shapes aimed at the scanner's look-aheads: runs it could start at everywhere, escapes in a row, separators. */
const adversarial: Record<string, string> = {
  'one letter': fill('a'),
  'repeated "sk-"': fill('sk-'),
  'kebab words after "sk-"': fill('sk-a-b-c-'),
  'repeated "AKIA"': fill('AKIA'),
  'repeated "eyJ"': fill('eyJ'),
  'eyJ runs with dots': fill(`eyJ${'a'.repeat(20)}.`),
  '40-character runs': fill(`${'Ab1'.repeat(13)}A `),
  'repeated "Bearer "': fill('Bearer '),
  'repeated "password="': fill('password='),
  'repeated "token=x"': fill('token=x'),
  'repeated "api_key: "': fill('api_key: '),
  'unclosed quoted values': fill('"password":"x'),
  'repeated "://x:"': fill('://x:'),
  'repeated "a="': fill('a='),
  'percent-escape run': fill('%41'),
  'percent-encoded zero-width run': fill('%E2%80%8B'),
  'unicode-escape run': fill('\\u0073'),
  'nested escape run': fill('%5Cu0073'),
  'unterminated ANSI run': fill('\x1b['),
  'PEM headers without footer': fill('-----BEGIN PRIVATE KEY-----'),
  'dashes': fill('-'),
};

/** Median and slowest of `runs` timings of redacting `text` (after one warm-up). */
function measure(text: string, runs = 9): { median: number; slowest: number } {
  redactSecrets(text);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    redactSecrets(text);
    times.push(performance.now() - start);
  }
  return { median: median(times), slowest: Math.max(...times) };
}

/** The floor of any scan written in JavaScript on this machine: one `charCodeAt` pass over 1 MB. */
function baseline(text: string): number {
  const times: number[] = [];
  for (let r = 0; r < 9; r++) {
    const start = performance.now();
    let sum = 0;
    for (let i = 0; i < text.length; i++) sum += text.charCodeAt(i);
    times.push(performance.now() - start + (sum < 0 ? 1 : 0));
  }
  return median(times);
}

export const benches: Bench[] = [
  {
    name: 'redact: 1 MB inputs',
    async run() {
      const metrics: Record<string, number> = {};
      let worst = 0;
      const shapes: Record<string, string> = {
        benign,
        'secret-dense': secretDense,
        'secret-dense, encoded': secretDenseEncoded,
        ...adversarial,
      };
      for (const [shape, text] of Object.entries(shapes)) {
        const { median: ms } = measure(text);
        metrics[`${shape} ms`] = round(ms, 2);
        worst = Math.max(worst, ms);
      }
      const floor = baseline(benign);
      metrics['worst ms'] = round(worst, 2);
      metrics['charCodeAt loop over 1 MB ms'] = round(floor, 2);
      metrics['worst / loop'] = round(worst / floor, 1);
      return {
        name: 'redact: 1 MB inputs',
        metrics,
        target: 'worst < 10 ms',
        met: worst < 10,
        notes:
          'median of 9 runs per shape (after a warm-up), wall time; "charCodeAt loop" is the cost of one bare JavaScript pass over 1 MB on the same machine, for scale',
      };
    },
  },
];
