/**
 * Recovery after content, measured through the real providers and the fault kit's loopback server:
 * (a) the time from a cut to the next visible character, `recovery: 'generate'` vs `'stream'`, on a long answer
 *     that takes real time to generate (OpenAI chat answering anew; Anthropic continuing the shown text);
 * (b) "sampled chaos": 200 answers through the drop-in `streamText(...).toUIMessageStream()` read with
 *     `readUIMessageStream`, 30% cut mid-answer, every recovery worded differently (as a sampling model answers):
 *     OpenAI recovers with a reset (the UI hides the discarded text with `withoutDiscarded`), Anthropic continues.
 */
import { performance } from 'node:perf_hooks';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { convertToModelMessages, type LanguageModel, readUIMessageStream, type UIMessage } from 'ai';
import { streamText } from '../adapters/ai-sdk/drop-in/stream-text.js';
import type { RecoveryMode } from '../adapters/ai-sdk/stream-guard/recovery/recovery.js';
import { withoutDiscarded } from '../adapters/ui/index.js';
import {
  lastUserText,
  type MockServer,
  type RecordedRequest,
  reply,
  type ScriptFunction,
  startMockServer,
  streamFault,
} from '../mocks/index.js';
import { isResetPart } from '../src/stream/reset-part.js';
import { type Bench, type BenchResult, median, round } from './harness.js';

type Provider = 'openai' | 'anthropic';

/** The model on `provider`, pointed at the mock. */
function modelOf(mock: MockServer, provider: Provider): LanguageModel {
  return provider === 'openai'
    ? createOpenAI({ apiKey: 'sk-bench', baseURL: mock.urls.openai }).chat('gpt-mock')
    : createAnthropic({ apiKey: 'sk-bench', baseURL: mock.urls.anthropic })('claude-sonnet-4-5');
}

type Message = { role?: string; content?: unknown };
/** The prefill a request ends with (Anthropic: a trailing assistant message), if any. */
function prefillOf(request: RecordedRequest): string | undefined {
  const messages = ((request.body as { messages?: Message[] } | undefined)?.messages ?? []) as Message[];
  const last = messages.at(-1);
  if (last?.role !== 'assistant') return undefined;
  if (typeof last.content === 'string') return last.content;
  return (last.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('');
}

// ---- (a) time from the cut to the next visible character ----

const SENTENCE = 'The quick brown fox jumps over the lazy dog while the cat watches. ';
const LONG = SENTENCE.repeat(18).trimEnd(); // ~1,200 characters
const CHUNK = 4;
const FRAME_MS = 2;
const CUT_AT = 400; // on a frame boundary: 100 frames, about 200 ms into the answer
/** What streaming `text` takes: a non-streamed answer is generated in full before it is sent. */
const generationMs = (text: string) => Math.ceil(text.length / CHUNK) * FRAME_MS;

/** The first request is cut at `CUT_AT`; a recovery continues (a prefill) or answers the same text anew. */
const cutThenRecover: ScriptFunction = (request, { index }) => {
  const timing = { chunkChars: CHUNK, frameDelayMs: FRAME_MS };
  if (index % 2 === 0) return reply.text(LONG, { ...timing, fault: streamFault.cut({ afterChars: CUT_AT }) });
  const prefill = prefillOf(request);
  const text = prefill === undefined ? LONG : LONG.slice(prefill.length);
  // A non-streamed answer arrives once the model generated it all; a streamed one frame by frame.
  return request.stream ? reply.text(text, timing) : reply.text(text, { delayMs: generationMs(text) });
};

/** Ms from the consumer's last character before the cut to its next one. */
async function cutToNextChar(model: LanguageModel, recovery: RecoveryMode): Promise<number> {
  const result = streamText({
    model,
    prompt: 'Tell the fox story.',
    streamGuard: { recovery, sleep: async () => {} },
    onError: () => {},
  });
  let chars = 0;
  let cutAt: number | undefined;
  for await (const delta of result.textStream) {
    const now = performance.now();
    if (cutAt !== undefined) return now - cutAt;
    chars += delta.length;
    if (chars >= CUT_AT) cutAt = now;
  }
  throw new Error('bench: no character after the cut');
}

async function timeToNextChar(provider: Provider, rounds = 15): Promise<Record<string, number>> {
  const mock = await startMockServer({ script: cutThenRecover });
  const model = modelOf(mock, provider);
  const times: Record<RecoveryMode, number[]> = { generate: [], stream: [] };
  try {
    await cutToNextChar(model, 'generate'); // warm-up
    await cutToNextChar(model, 'stream');
    mock.setScript(cutThenRecover);
    for (let i = 0; i < rounds; i++) {
      const order: RecoveryMode[] = i % 2 === 0 ? ['generate', 'stream'] : ['stream', 'generate'];
      for (const mode of order) times[mode].push(await cutToNextChar(model, mode));
    }
  } finally {
    await mock.close();
  }
  return {
    [`${provider}GenerateMs`]: round(median(times.generate), 1),
    [`${provider}StreamMs`]: round(median(times.stream), 1),
  };
}

// ---- (b) sampled chaos ----

const ANSWERS = 200;
const OPENERS = ['Sure.', 'Here it is.', 'Of course.', 'Gladly.', 'Right away.', 'Happy to help.'];
const ENDINGS = ['That is all.', 'Hope this helps.', 'Done.', 'Ask me more.', 'Enjoy.', 'Cheers.'];
/** A sampled wording of answer `i`: the request number picks the opener and the ending. */
const wording = (i: number, request: number) =>
  `${OPENERS[request % OPENERS.length]} Answer ${i}: ${'the quick brown fox jumps over the lazy dog, '.repeat(
    3 + (i % 4),
  )}${ENDINGS[request % ENDINGS.length]}`;
/** A sampled continuation of whatever was shown. */
const continuation = (request: number) =>
  ` and so the story goes on, ${ENDINGS[request % ENDINGS.length]!.toLowerCase()}`;

/** mulberry32: the same faults on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface ChaosStats {
  complete: number;
  cut: number;
  persistedDiscardedChars: number;
  nextRequestDiscardedChars: number;
  resets: number;
  requests: number;
}

/** The text of an assistant UI message, as a reader sees it. */
const textOf = (message: UIMessage | undefined) =>
  (message?.parts ?? []).map((p) => (p.type === 'text' ? p.text : '')).join('');

async function sampledChaos(provider: Provider): Promise<ChaosStats> {
  const random = seeded(7);
  const cutAt = new Map<number, number>();
  for (let i = 0; i < ANSWERS; i++) {
    const roll = random();
    const position = 5 + Math.floor(random() * (wording(i, 0).length - 10));
    if (roll < 0.3) cutAt.set(i, position);
  }
  /** What the last request for answer i was answered with (the answer the user must end up reading). */
  const expected = new Map<number, string>();
  const seen = new Set<number>();
  const script: ScriptFunction = (request, { index }) => {
    const text = lastUserText(request) ?? '';
    if (text === 'Thanks') return reply.text('You are welcome.');
    const i = Number(/#(\d+)/.exec(text)?.[1]);
    const prefill = prefillOf(request);
    if (prefill !== undefined) {
      const rest = continuation(index);
      expected.set(i, prefill + rest);
      return reply.text(rest);
    }
    const answer = wording(i, index);
    expected.set(i, answer);
    const first = !seen.has(i);
    seen.add(i);
    const at = cutAt.get(i);
    return first && at !== undefined
      ? reply.text(answer, { fault: streamFault.cut({ afterChars: at }) })
      : reply.text(answer);
  };
  const mock = await startMockServer({ script });
  const model = modelOf(mock, provider);
  const stats: ChaosStats = {
    complete: 0,
    cut: cutAt.size,
    persistedDiscardedChars: 0,
    nextRequestDiscardedChars: 0,
    resets: 0,
    requests: 0,
  };
  try {
    for (let i = 0; i < ANSWERS; i++) {
      const user: UIMessage = { id: `u${i}`, role: 'user', parts: [{ type: 'text', text: `answer #${i}` }] };
      let persisted: UIMessage[] = [];
      const result = streamText({
        model,
        messages: await convertToModelMessages([user]),
        streamGuard: { sleep: async () => {} },
        onError: () => {},
      });
      let last: UIMessage | undefined;
      const stream = result.toUIMessageStream({
        originalMessages: [user],
        onFinish: ({ messages }) => {
          persisted = messages;
        },
      });
      for await (const message of readUIMessageStream({ stream })) last = message;
      const want = expected.get(i) ?? '';
      stats.resets += (last?.parts ?? []).filter(isResetPart).length;
      if (last && textOf(withoutDiscarded(last)) === want) stats.complete++;
      stats.persistedDiscardedChars += discardedChars(textOf(persisted.at(-1)), want);
      // The next turn, built from what the app stored: the request must hold the answer, nothing discarded.
      const before = mock.requests.length;
      const next = streamText({
        model,
        messages: await convertToModelMessages([
          ...persisted,
          { id: `t${i}`, role: 'user', parts: [{ type: 'text', text: 'Thanks' }] },
        ]),
        onError: () => {},
      });
      await next.text;
      stats.nextRequestDiscardedChars += discardedChars(assistantTextIn(mock.requests[before]), want);
    }
    stats.requests = mock.requests.length;
  } finally {
    await mock.close();
  }
  return stats;
}

/**
 * Characters of `text` that are not the answer: what precedes the answer (a discarded partial), or all of it when
 * it does not end with the answer.
 */
function discardedChars(text: string, answer: string): number {
  if (text === answer) return 0;
  return text.endsWith(answer) ? text.length - answer.length : text.length;
}

/** The assistant text a request sends back (chat `messages[].content`, Anthropic text blocks). */
function assistantTextIn(request: RecordedRequest | undefined): string {
  const messages = ((request?.body as { messages?: Message[] } | undefined)?.messages ?? []) as Message[];
  return messages
    .filter((m) => m.role === 'assistant')
    .map((m) =>
      typeof m.content === 'string'
        ? m.content
        : ((m.content ?? []) as Array<{ type?: string; text?: string }>)
            .map((c) => (c.type === 'text' ? (c.text ?? '') : ''))
            .join(''),
    )
    .join('');
}

export const benches: Bench[] = [
  {
    name: 'recovery: time from the cut to the next visible character (generate vs stream)',
    async run(): Promise<BenchResult> {
      const openai = await timeToNextChar('openai');
      const anthropic = await timeToNextChar('anthropic');
      return {
        name: 'recovery: time from the cut to the next visible character (generate vs stream)',
        metrics: {
          ...openai,
          ...anthropic,
          answerChars: LONG.length,
          cutAtChars: CUT_AT,
          generationMs: generationMs(LONG),
        },
        target: "recovery: 'stream' shows the next character sooner than 'generate'",
        met:
          openai.openaiStreamMs! < openai.openaiGenerateMs! &&
          anthropic.anthropicStreamMs! < anthropic.anthropicGenerateMs!,
        notes: `loopback fault kit; ${CHUNK} chars per frame, ${FRAME_MS} ms between frames; a non-streamed answer is sent once generating it all would have taken (${generationMs(LONG)} ms for the whole answer); OpenAI chat answers the same text anew (the stream recovery swallows the ${CUT_AT} characters shown), Anthropic continues the prefill; medians of 15 alternating rounds`,
      };
    },
  },
  {
    name: 'sampled chaos (200 answers, 30% cut, every recovery worded differently)',
    async run(): Promise<BenchResult> {
      const openai = await sampledChaos('openai');
      const anthropic = await sampledChaos('anthropic');
      return {
        name: 'sampled chaos (200 answers, 30% cut, every recovery worded differently)',
        metrics: {
          cutAnswers: openai.cut,
          openaiComplete: openai.complete,
          openaiResets: openai.resets,
          openaiPersistedDiscardedChars: openai.persistedDiscardedChars,
          openaiNextRequestDiscardedChars: openai.nextRequestDiscardedChars,
          anthropicComplete: anthropic.complete,
          anthropicResets: anthropic.resets,
          anthropicPersistedDiscardedChars: anthropic.persistedDiscardedChars,
          anthropicNextRequestDiscardedChars: anthropic.nextRequestDiscardedChars,
          openaiRequests: openai.requests,
          anthropicRequests: anthropic.requests,
        },
        target: `${ANSWERS}/${ANSWERS} complete on both, 0 discarded characters persisted or sent, 0 resets on Anthropic`,
        met:
          openai.complete === ANSWERS &&
          anthropic.complete === ANSWERS &&
          openai.persistedDiscardedChars + openai.nextRequestDiscardedChars === 0 &&
          anthropic.persistedDiscardedChars + anthropic.nextRequestDiscardedChars === 0 &&
          anthropic.resets === 0,
        notes:
          'drop-in streamText → toUIMessageStream (onFinish messages persisted) → readUIMessageStream; OpenAI: the UI message read through withoutDiscarded (graceful-ai/ui); the next turn is built with convertToModelMessages from the persisted messages; complete = the UI message reads exactly the last wording the mock sent (Anthropic: the shown text plus its continuation)',
      };
    },
  },
];
