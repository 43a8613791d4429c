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
const samples = secretKinds.flatMap((kind) =>
  fc.sample(kind.sample, { seed: 42, numRuns: 20 }).map((s) => s.text),
);
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
  dashes: fill('-'),
};

/**
 * Milliseconds of CPU this process spent in `fn`. Redaction is synchronous and CPU-bound: on a shared machine the
 * wall clock also counts the time other processes held the CPU.
 */
function cpuMs(fn: () => unknown): number {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** Median CPU time of redacting `text`, over `runs` runs after one warm-up. */
function measure(text: string, runs = 9): number {
  redactSecrets(text);
  return median(Array.from({ length: runs }, () => cpuMs(() => redactSecrets(text))));
}

/** The floor of any scan written in JavaScript on this machine: one `charCodeAt` pass over 1 MB. */
function baseline(text: string): number {
  let sum = 0;
  const pass = (): void => {
    for (let i = 0; i < text.length; i++) sum += text.charCodeAt(i);
  };
  pass();
  const ms = median(Array.from({ length: 9 }, () => cpuMs(pass)));
  return sum < 0 ? Number.NaN : ms;
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
        const ms = measure(text);
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
          'median CPU time of 9 runs per shape (after a warm-up), all shapes in one process; "charCodeAt loop" is one bare JavaScript pass over 1 MB on the same machine, for scale',
      };
    },
  },
];
