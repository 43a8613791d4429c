import { performance } from 'node:perf_hooks';
import { APICallError } from '@ai-sdk/provider';
import { classifyError } from '../src/classify/classify.js';
import { providerErrorCorpus } from '../test/fixtures/provider-errors/index.js';
import { asShape, shapes } from '../test/fixtures/provider-errors/shapes.js';
import { type Bench, median, round } from './harness.js';

const megabyte = 1024 * 1024;
const fill = (unit: string): string => unit.repeat(Math.ceil(megabyte / unit.length)).slice(0, megabyte);

/** Adversarial shapes aimed at the patterns' lead-ins: each is a 1 MB message AND a 1 MB response body. */
const adversarial: Record<string, string> = {
  'repeated digits': fill('5'),
  'repeated "retry in "': fill('retry in '),
  'repeated "try again in 9m"': fill('try again in 9m'),
  'whitespace run': `x${fill(' ')}y`,
  'nested JSON': `${'{"error":'.repeat(megabyte / 20)}"x"${'}'.repeat(megabyte / 20)}`,
  'repeated "input token count "': fill('input token count '),
  'repeated "maximum context length is 1"': fill('maximum context length is 1'),
  'repeated "connection "': fill('connection '),
  'repeated "exceeds the "': fill('exceeds the '),
  'repeated "reached your "': fill('reached your '),
  'repeated "input length 1 "': fill('input length 1 '),
};

const asApiError = (text: string) =>
  new APICallError({
    message: text,
    url: 'https://api.example.com/v1/chat/completions',
    requestBodyValues: {},
    statusCode: undefined,
    responseBody: text,
  });

export const benches: Bench[] = [
  {
    name: 'classify: real-world throughput',
    async run() {
      const errors = providerErrorCorpus.flatMap((c) => shapes.map((shape) => asShape(c, shape)));
      for (let i = 0; i < 2_000; i++) classifyError(errors[i % errors.length]);
      const rounds: number[] = [];
      const perRound = 20_000;
      for (let r = 0; r < 7; r++) {
        const start = performance.now();
        for (let i = 0; i < perRound; i++) classifyError(errors[i % errors.length], { unknown: 'permanent' });
        rounds.push((perRound / (performance.now() - start)) * 1000);
      }
      const perSecond = median(rounds);
      return {
        name: 'classify: real-world throughput',
        metrics: { messagesPerSecond: Math.round(perSecond), distinctMessages: errors.length },
        target: 'messagesPerSecond >= 50000',
        met: perSecond >= 50_000,
        notes: 'the whole provider-error corpus in its five shapes, median of 7 rounds of 20,000',
      };
    },
  },
  {
    name: 'classify: adversarial 1 MB inputs',
    async run() {
      const metrics: Record<string, number> = {};
      let worst = 0;
      for (const [shape, text] of Object.entries(adversarial)) {
        const error = asApiError(text);
        const times: number[] = [];
        for (let i = 0; i < 5; i++) {
          const start = performance.now();
          classifyError(error);
          times.push(performance.now() - start);
        }
        const slowest = Math.max(...times);
        metrics[`${shape} ms`] = round(slowest, 2);
        worst = Math.max(worst, slowest);
      }
      metrics['worst ms'] = round(worst, 2);
      return {
        name: 'classify: adversarial 1 MB inputs',
        metrics,
        target: 'worst < 10 ms',
        met: worst < 10,
        notes: 'slowest of 5 runs per shape; message and response body are both 1 MB',
      };
    },
  },
];
