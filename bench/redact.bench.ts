import fc from 'fast-check';
import { MAX_REDACTED_CHARS, redactSecrets } from '../src/redact/redact.js';
import { ENCODINGS, secretKinds } from '../test/src/redact/secret-samples.js';
import { type Bench, median, round } from './harness.js';

/** `unit` repeated to `length` characters. */
const fill = (unit: string, length = MAX_REDACTED_CHARS): string =>
  unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

/** Error text as tools and providers write it: messages, JSON bodies, URLs, paths, ids. */
const benignUnit = [
  'Error: connect ECONNREFUSED 127.0.0.1:5432 while loading /data/q3.csv',
  '{"error":{"message":"Rate limit reached for gpt-4o in organization org-abc on tokens per min (TPM): Limit 30000, Used 29817, Requested 1204. Please try again in 2.042s.","type":"tokens","param":null,"code":"rate_limit_exceeded"}}',
  'GET https://api.example.com/v1/items?page=2&sort=desc&q=caf%C3%A9 returned 503 Service Unavailable',
  'Caused by: TypeError: Cannot read properties of undefined (reading "id") at task-management-service',
  'request req_0123456789abcdef0123456789abcdef failed after 3 retries; password: Required; max_tokens=4096',
].join('\n');

/** Every covered format, 20 samples each, drawn with a fixed seed. */
const samples = secretKinds.flatMap((kind) =>
  fc.sample(kind.sample, { seed: 42, numRuns: 20 }).map((s) => s.text),
);
const denseUnit = samples.map((text, i) => `key ${i}: ${text};`).join('\n');
const encodings = Object.values(ENCODINGS);
const denseEncodedUnit = samples.map((text, i) => encodings[i % encodings.length]!(text)).join(' ');

/** Units aimed at the rules' look-aheads: runs a rule could start at everywhere, escapes in a row, separators. */
const adversarial: Record<string, string> = {
  'one letter': 'a',
  'repeated "sk-"': 'sk-',
  'kebab words after "sk-"': 'sk-a-b-c-',
  'repeated "AKIA"': 'AKIA',
  'repeated "eyJ"': 'eyJ',
  'eyJ runs with dots': `eyJ${'a'.repeat(20)}.`,
  '40-character runs': `${'Ab1'.repeat(13)}A `,
  'repeated "Bearer "': 'Bearer ',
  'repeated "password="': 'password=',
  'repeated "token=x"': 'token=x',
  'repeated "api_key: "': 'api_key: ',
  'unclosed quoted values': '"password":"x',
  'repeated "://x:"': '://x:',
  'repeated "a="': 'a=',
  'percent-escape run': '%41',
  'percent-encoded zero-width run': '%E2%80%8B',
  'unicode-escape run': '\\u0073',
  'nested escape run': '%5Cu0073',
  'unterminated ANSI run': '\x1b[',
  'PEM headers without footer': '-----BEGIN PRIVATE KEY-----',
  dashes: '-',
};

/**
 * Microseconds of CPU this process spent per call of `fn`, over `calls` calls. Redaction is synchronous and
 * CPU-bound: on a shared machine the wall clock also counts the time other processes held the CPU.
 */
function cpuUs(fn: () => unknown, calls: number): number {
  const start = process.cpuUsage();
  for (let k = 0; k < calls; k++) fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / calls;
}

/** Median CPU time of redacting `text`, over 15 samples after a warm-up. */
function measure(text: string): number {
  const calls = text.length > MAX_REDACTED_CHARS * 2 ? 5 : 20;
  cpuUs(() => redactSecrets(text), calls);
  return median(Array.from({ length: 15 }, () => cpuUs(() => redactSecrets(text), calls)));
}

/** The floor of any scan written in JavaScript on this machine: one `charCodeAt` pass over the capped text. */
function baseline(text: string): number {
  let sum = 0;
  const pass = (): void => {
    for (let i = 0; i < text.length; i++) sum += text.charCodeAt(i);
  };
  const us = median(Array.from({ length: 15 }, () => cpuUs(pass, 200)));
  return sum < 0 ? Number.NaN : us;
}

const name = `redact: ${MAX_REDACTED_CHARS / 1024} KiB inputs (the cap)`;

export const benches: Bench[] = [
  {
    name,
    async run() {
      const metrics: Record<string, number> = {};
      let worst = 0;
      let worstUnit = benignUnit;
      const shapes: Record<string, string> = {
        benign: benignUnit,
        'secret-dense': denseUnit,
        'secret-dense, encoded': denseEncodedUnit,
        ...adversarial,
      };
      for (const [shape, unit] of Object.entries(shapes)) {
        const us = measure(fill(unit));
        metrics[`${shape} µs`] = round(us, 0);
        if (us > worst) [worst, worstUnit] = [us, unit];
      }
      metrics['worst µs'] = round(worst, 0);
      // Past the cap nothing is read: 1 MB of the worst shape costs what its first 8 KiB cost.
      const pathological = measure(fill(worstUnit, 1024 * 1024));
      metrics['worst shape at 1 MB µs'] = round(pathological, 0);
      metrics['benign at 1 MB µs'] = round(measure(fill(benignUnit, 1024 * 1024)), 0);
      const floor = baseline(fill(benignUnit));
      metrics['charCodeAt loop over the cap µs'] = round(floor, 1);
      metrics['worst / loop'] = round(worst / floor, 0);
      return {
        name,
        metrics,
        target:
          '1 MB of the worst shape < 2 × its cost at the cap (the cap bounds the cost), and worst < 2000 µs',
        met: pathological < 2 * worst && worst < 2000,
        notes:
          'median CPU time per call, 15 samples of 20 calls (5 at 1 MB) per shape after a warm-up, all shapes in one process; "charCodeAt loop" is one bare JavaScript pass over the capped text on the same machine, for scale',
      };
    },
  },
];
