/**
 * Failover (`fallbackModels`, `modelBreaker`), measured through the real providers and the fault kit's loopback
 * server with the drop-in `streamText`:
 * (a) the time from a cut to the next visible character when the primary (OpenAI chat) is down and Anthropic
 *     continues the answer, against the same cut recovered by the primary itself: what failing over costs, for
 *     `recovery: 'generate'` (the default) and `'stream'`, and what the default backoff would add;
 * (b) requests a dead primary receives over 100 sequential calls, with the default model breaker and without one.
 */
import { performance } from 'node:perf_hooks';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModel } from 'ai';
import { streamText } from '../adapters/ai-sdk/drop-in/stream-text.js';
import type { StreamGuardOptions } from '../adapters/ai-sdk/stream-guard/options.js';
import type { RecoveryMode } from '../adapters/ai-sdk/stream-guard/recovery/recovery.js';
import {
  assistantPrefill,
  fault,
  type MockServer,
  type RecordedRequest,
  reply,
  type ScriptFunction,
  startMockServer,
  streamFault,
} from '../mocks/index.js';
import { type Bench, type BenchResult, median, quantile, round } from './harness.js';

let unique = 0;
/** OpenAI chat on the mock under a model id no other call used: model breakers are process-wide per model. */
const freshPrimary = (mock: MockServer): LanguageModel =>
  createOpenAI({ apiKey: 'sk-bench', baseURL: mock.urls.openai }).chat(`gpt-4o-bench-${++unique}`);
const fallbackOf = (mock: MockServer): LanguageModel =>
  createAnthropic({ apiKey: 'sk-bench', baseURL: mock.urls.anthropic })('claude-sonnet-4-5');
const noSleep = async () => {};

// ---- (a) time from the cut to the next visible character, primary down ----

const SENTENCE = 'The quick brown fox jumps over the lazy dog while the cat watches. ';
const LONG = SENTENCE.repeat(18).trimEnd(); // ~1,200 characters, as in recovery.bench.ts
const CHUNK = 4;
const FRAME_MS = 2;
const CUT_AT = 400; // on a frame boundary: 100 frames, about 200 ms into the answer
/**
 * Time to first byte of every recovery answer, whoever gives it and however much it sends: the work of the model
 * that answers is held equal, so the difference between the variants is the failover's own.
 */
const ANSWER_MS = 100;
const ROUNDS = 15;

type Case = 'recovers' | 'down';

/**
 * The first request of a call streams `LONG` and is cut at `CUT_AT`. Then OpenAI recovers (answers the same text anew)
 * or is down (503 to every request); Anthropic continues its prefill. `next(which)` marks a call's start.
 */
function cutScript(): { script: ScriptFunction; next(which: Case): void } {
  let which: Case = 'recovers';
  let first = true;
  const script: ScriptFunction = (request) => {
    if (first) {
      first = false;
      return reply.text(LONG, {
        chunkChars: CHUNK,
        frameDelayMs: FRAME_MS,
        fault: streamFault.cut({ afterChars: CUT_AT }),
      });
    }
    if (request.api === 'messages') {
      return reply.text(LONG.slice(assistantPrefill(request)?.length ?? 0), { delayMs: ANSWER_MS });
    }
    return which === 'down' ? fault.serverError(503) : reply.text(LONG, { delayMs: ANSWER_MS });
  };
  return {
    script,
    next(c) {
      which = c;
      first = true;
    },
  };
}

interface CutRun {
  /** Ms from the consumer's last character before the cut to its next one. */
  ms: number;
  /** The backoff the guard asked for (its `stream_retry` delays), skipped here by a no-op `sleep`. */
  backoffMs: number;
  /** Requests to the primary after the cut. */
  primaryAfterCut: number;
}

async function cutToNextChar(mock: MockServer, recovery: RecoveryMode): Promise<CutRun> {
  const before = mock.requests.length;
  let backoffMs = 0;
  const result = streamText({
    model: freshPrimary(mock),
    prompt: 'Tell the fox story.',
    // The guard's default retry policy (maxRetries 2, 1 s × 2, ±10 %); its waits are recorded, not slept.
    streamGuard: {
      recovery,
      fallbackModels: [fallbackOf(mock)],
      sleep: noSleep,
      onEvent: (event) => {
        if (event.type === 'stream_retry') backoffMs += event.delayMs;
      },
    },
    onError: () => {},
  });
  let chars = 0;
  let cutAt: number | undefined;
  let ms: number | undefined;
  for await (const delta of result.textStream) {
    const now = performance.now();
    if (cutAt !== undefined) {
      ms ??= now - cutAt;
      continue; // read to the end: the call's requests are all made
    }
    chars += delta.length;
    if (chars >= CUT_AT) cutAt = now;
  }
  if (ms === undefined || (await result.text) !== LONG) throw new Error('bench: the answer did not complete');
  const primaryAfterCut = mock.requests.slice(before + 1).filter((r) => r.api === 'chat').length;
  return { ms, backoffMs, primaryAfterCut };
}

async function failoverCost(recovery: RecoveryMode) {
  const cut = cutScript();
  const mock = await startMockServer({ script: cut.script });
  const runs: Record<Case, CutRun[]> = { recovers: [], down: [] };
  try {
    for (const which of ['recovers', 'down'] as const) {
      cut.next(which);
      await cutToNextChar(mock, recovery); // warm-up
    }
    for (let i = 0; i < ROUNDS; i++) {
      const order: Case[] = i % 2 === 0 ? ['recovers', 'down'] : ['down', 'recovers'];
      for (const which of order) {
        cut.next(which);
        runs[which].push(await cutToNextChar(mock, recovery));
      }
    }
  } finally {
    await mock.close();
  }
  const same = median(runs.recovers.map((r) => r.ms));
  const down = median(runs.down.map((r) => r.ms));
  const ratios = runs.down.map((r, i) => r.ms / runs.recovers[i]!.ms);
  return {
    sameModelMs: round(same, 1),
    failoverMs: round(down, 1),
    ratio: round(down / same, 2),
    roundRatioP10: round(quantile(ratios, 0.1), 2),
    roundRatioP90: round(quantile(ratios, 0.9), 2),
    extraMs: round(down - same, 1),
    primaryRequestsAfterCut: median(runs.down.map((r) => r.primaryAfterCut)),
    defaultBackoffAddsMs: round(median(runs.down.map((r) => r.backoffMs)), 0),
  };
}

// ---- (b) requests to a dead primary over 100 calls ----

const CALLS = 100;
const BREAKER_ROUNDS = 5;

interface DeadPrimaryRun {
  primaryRequests: number;
  /** Requests that reached the primary while its breaker was open (by the guard's `model_breaker` events). */
  whileOpen: number;
  fallbackRequests: number;
  wallMs: number;
}

async function callsOnDeadPrimary(mock: MockServer, modelBreaker: StreamGuardOptions['modelBreaker']) {
  let state = 'closed';
  let whileOpen = 0;
  mock.setScript((request) => {
    if (request.api !== 'chat') return reply.text('The fallback answers.');
    if (state === 'open') whileOpen++;
    return fault.serverError(503);
  });
  const primary = freshPrimary(mock);
  const fallback = fallbackOf(mock);
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) {
    const result = streamText({
      model: primary,
      prompt: `Question ${i}`,
      streamGuard: {
        fallbackModels: [fallback],
        ...(modelBreaker === undefined ? {} : { modelBreaker }),
        sleep: noSleep,
        onEvent: (event) => {
          if (event.type === 'model_breaker') state = event.to;
        },
      },
    });
    if ((await result.text) !== 'The fallback answers.')
      throw new Error('bench: the fallback did not answer');
  }
  const wallMs = performance.now() - start;
  const count = (api: RecordedRequest['api']) => mock.requests.filter((r) => r.api === api).length;
  return { primaryRequests: count('chat'), whileOpen, fallbackRequests: count('messages'), wallMs };
}

async function deadPrimary() {
  const mock = await startMockServer({ script: [] });
  const runs: Record<'breaker' | 'none', DeadPrimaryRun[]> = { breaker: [], none: [] };
  try {
    await callsOnDeadPrimary(mock, undefined); // warm-up
    await callsOnDeadPrimary(mock, false);
    for (let i = 0; i < BREAKER_ROUNDS; i++) {
      const order = i % 2 === 0 ? (['breaker', 'none'] as const) : (['none', 'breaker'] as const);
      for (const which of order) {
        runs[which].push(await callsOnDeadPrimary(mock, which === 'breaker' ? undefined : false));
      }
    }
  } finally {
    await mock.close();
  }
  const med = (which: 'breaker' | 'none', key: keyof DeadPrimaryRun) =>
    median(runs[which].map((r) => r[key]));
  return {
    primaryRequestsWithBreaker: med('breaker', 'primaryRequests'),
    primaryRequestsWithoutBreaker: med('none', 'primaryRequests'),
    requestsWhileOpen: Math.max(...runs.breaker.map((r) => r.whileOpen)),
    fallbackRequestsWithBreaker: med('breaker', 'fallbackRequests'),
    fallbackRequestsWithoutBreaker: med('none', 'fallbackRequests'),
    wallMsWithBreaker: round(med('breaker', 'wallMs'), 0),
    wallMsWithoutBreaker: round(med('none', 'wallMs'), 0),
    wallRatio: round(med('none', 'wallMs') / med('breaker', 'wallMs'), 2),
  };
}

export const benches: Bench[] = [
  {
    name: 'failover: time from the cut to the next visible character, primary down',
    async run(): Promise<BenchResult> {
      const generate = await failoverCost('generate');
      const stream = await failoverCost('stream');
      const prefixed = (prefix: string, metrics: Record<string, number>) =>
        Object.fromEntries(
          Object.entries(metrics).map(([k, v]) => [`${prefix}${k[0]!.toUpperCase()}${k.slice(1)}`, v]),
        );
      return {
        name: 'failover: time from the cut to the next visible character, primary down',
        metrics: {
          ...prefixed('generate', generate),
          ...prefixed('stream', stream),
          answerChars: LONG.length,
          cutAtChars: CUT_AT,
          recoveryAnswerMs: ANSWER_MS,
        },
        notes:
          `loopback fault kit, drop-in streamText on OpenAI chat with fallbackModels: [Anthropic] in both variants, a fresh model id per call (default model breaker, never open here); the stream is cut after ${CUT_AT} characters (${CHUNK} per frame, ${FRAME_MS} ms apart). sameModel: OpenAI answers the recovery (the same text anew); failover: OpenAI answers every later request 503 at once (loopback: no network round trip) and Anthropic continues the prefill. Every recovery answer arrives ${ANSWER_MS} ms after its request whoever sends it, so extraMs is what failing over adds. ` +
          "The guard's default retry policy (maxRetries 2, 1 s × 2, ±10 %) with a no-op sleep: defaultBackoffAddsMs is the sum of its stream_retry delays, the wait the default sleep would add on top of failoverMs. " +
          "recovery 'generate' (the default): one recovery request on the primary, then Anthropic at once: no retries, no backoff after content. recovery 'stream': the streamed recovery gets maxRetries new streams on the primary (1 + 2 requests 503), then Anthropic. " +
          `medians of ${ROUNDS} alternating rounds; roundRatioP10/P90: the spread of failover / sameModel per round`,
      };
    },
  },
  {
    name: 'model breaker: requests sent to a dead primary over 100 calls, with and without the breaker',
    async run(): Promise<BenchResult> {
      const m = await deadPrimary();
      return {
        name: 'model breaker: requests sent to a dead primary over 100 calls, with and without the breaker',
        metrics: m,
        target: 'no request reaches the primary while its breaker is open',
        met: m.requestsWhileOpen === 0,
        notes: `${CALLS} sequential drop-in streamText calls, OpenAI chat answering every request 503, Anthropic answering; default maxRetries (2: 3 requests per call on a closed breaker) with a no-op sleep (the default backoff would add about 3 s per call that reaches the primary); a fresh model id per run; with the default modelBreaker (open after 5 failures in a row, for 30 s) vs modelBreaker: false; medians of ${BREAKER_ROUNDS} alternating runs; requestsWhileOpen is the most of any run`,
      };
    },
  },
];
