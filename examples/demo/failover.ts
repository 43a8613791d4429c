/**
 * Section: failover. OpenAI goes down mid-answer and Anthropic finishes it: the OpenAI stream is cut, the recovery
 * request to OpenAI answers 503, and the call moves to Anthropic (`fallbackModels`), which is sent the shown text as
 * an assistant prefill and continues it: the reader sees one answer, each character once. Then the model breaker:
 * OpenAI keeps answering 503; once its breaker opens, calls go straight to Anthropic without one request to OpenAI.
 * The scene needs two wires and a scripted outage: it runs on the fault mock whatever `--provider` says, and is
 * skipped with `--live`.
 */
import type { LanguageModel } from 'ai';
import { streamText } from '../../adapters/ai-sdk/drop-in/stream-text.js';
import type { StreamGuardEvent } from '../../adapters/ai-sdk/stream-guard/options.js';
import {
  type Api,
  assistantPrefill,
  fault,
  type MockServer,
  type RecordedRequest,
  reply,
  streamFault,
} from '../../mocks/index.js';
import type { ModelRef } from '../../src/errors/failover-error.js';
import type { AttemptRecord } from '../../src/stream/attempt-record.js';
import { isResetPart } from '../../src/stream/reset-part.js';
import type { DemoContext, DemoSummary } from './context.js';
import { providers } from './provider.js';

const section = 'failover';
/** The answer the reader must read across the failover, each character once. */
export const answer =
  'Lisbon is the capital of Portugal. It spreads over seven hills above the Tagus, and its trams climb them all day.';
/** Characters the reader sees before OpenAI's stream is cut. */
const shownBeforeCut = 42;
const shortAnswer = 'Porto is known for its port wine and the Dom Luís I bridge.';
/** Calls of the breaker part: the first opens OpenAI's breaker, the rest skip OpenAI. */
const breakerCalls = 4;

const named = (model: ModelRef) => `${model.provider}:${model.modelId}`;

/** Requests per wire, e.g. `chat stream 1, chat 1, messages 1` (`none` for no request). */
function requestCounts(requests: readonly RecordedRequest[]): string {
  const counts = new Map<string, number>();
  for (const r of requests) {
    const name = `${r.api}${r.stream ? ' stream' : ''}`;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].map(([name, n]) => `${name} ${n}`).join(', ') || 'none';
}

const countOf = (requests: readonly RecordedRequest[], api: Api) =>
  requests.filter((r) => r.api === api).length;

export async function run(ctx: DemoContext): Promise<DemoSummary> {
  ctx.print.section(
    'Failover: OpenAI down mid-answer',
    '(Anthropic continues the answer; then the model breaker)',
  );
  if (ctx.mock === undefined) {
    ctx.print.note('skipped with --live: an outage cannot be scripted on the real APIs');
    return { section, problems: [] };
  }
  const problems: string[] = [];
  // Both wires on the one mock; a model id no other scene uses, so its breaker starts closed.
  const openai = providers.openai.models(providers.openai.mockURL(ctx.mock))('gpt-4o');
  const anthropic = providers.anthropic.models(providers.anthropic.mockURL(ctx.mock))('claude-sonnet-4-5');
  const scene: Scene = { ctx, mock: ctx.mock, openai, anthropic, problems };
  await midAnswer(scene);
  await breaker(scene);
  return { section, problems };
}

/** What both parts play on: the demo's context, the mock, the two models, the section's problems. */
interface Scene {
  ctx: DemoContext;
  mock: MockServer;
  openai: LanguageModel;
  anthropic: LanguageModel;
  problems: string[];
}

/** Part 1: the cut, OpenAI's 503 on the recovery, Anthropic's continuation. */
async function midAnswer({ ctx, mock, openai, anthropic, problems }: Scene): Promise<void> {
  const { print } = ctx;
  const prompt = 'Tell me about Lisbon in two sentences.';
  ctx.script((request, { index }) => {
    if (index === 0) {
      return reply.text(answer, {
        chunkChars: 6,
        frameDelayMs: 10,
        fault: streamFault.cut({ afterChars: shownBeforeCut }),
      });
    }
    if (request.api !== 'messages') return fault.serverError(503);
    // Anthropic continues what it is sent as the start of its answer (a prefill without trailing spaces).
    const prefill = assistantPrefill(request) ?? '';
    return reply.text(answer.startsWith(prefill) ? answer.slice(prefill.length) : 'Lisbon? A lovely city.', {
      chunkChars: 6,
    });
  });
  print.info(
    `OpenAI streams, is cut after ${shownBeforeCut} characters, then answers 503; fallbackModels: [Anthropic]`,
  );
  print.user(prompt);
  const events: StreamGuardEvent[] = [];
  const result = streamText({
    model: openai,
    prompt,
    streamGuard: { fallbackModels: [anthropic], onEvent: (event) => events.push(event) },
    onError: () => {},
  });
  let seen = '';
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') {
      seen += part.text;
      print.assistantDelta(part.text);
    } else if (isResetPart(part)) {
      print.note('reset: the shown text was discarded');
      problems.push('the fallback answered anew instead of continuing');
      seen = '';
    }
  }
  for (const event of events) {
    if (event.type === 'stream_degraded') {
      const cut = event.charsEmitted;
      print.note(`stream_degraded: cut after ${cut} characters shown; one recovery request`);
      print.note(
        `the seam: "…${seen.slice(cut - 12, cut)}" (OpenAI) + "${seen.slice(cut, cut + 12)}…" (Anthropic)`,
      );
    } else if (event.type === 'stream_failover') {
      print.note(
        `stream_failover: ${named(event.from)} → ${named(event.to)} (attempt ${event.attempt.attempt})`,
      );
    }
  }
  const prefill = mock.requests.filter((r) => r.api === 'messages').map(assistantPrefill)[0];
  print.note(`Anthropic was sent the shown text as a prefill: "${prefill}"`);
  const attempts = ((await result.providerMetadata)?.['graceful-ai']?.attempts ??
    []) as unknown as AttemptRecord[];
  for (const a of attempts) {
    const why = a.classification ? ` (${a.classification.kind}, ${a.classification.reason})` : '';
    const how = a.recovery ? ` (recovery: ${a.recovery})` : '';
    print.note(
      `attempt ${a.attempt}: ${named(a.model)} ${a.mode}${how} ${a.outcome}${why}, ${a.charsEmitted} characters shown`,
    );
  }
  print.info(`requests: ${requestCounts(mock.requests)}`);
  if (seen === answer && (await result.text) === answer) {
    print.info('one answer across two providers: each character exactly once.');
  } else problems.push('the answer read across the failover differs from the full answer');
  if (prefill === undefined) problems.push('Anthropic was not sent the shown text');
}

/** Part 2: OpenAI stays down; its breaker opens and later calls send it nothing. */
async function breaker({ ctx, mock, openai, anthropic, problems }: Scene): Promise<void> {
  const { print } = ctx;
  ctx.script((request) => (request.api === 'chat' ? fault.serverError(503) : reply.text(shortAnswer)));
  print.info(
    'OpenAI keeps answering 503. Its model breaker (on with fallbackModels) opens after 5 failures in a row, for 30 s; the 2 above count',
  );
  let open = false;
  for (let call = 1; call <= breakerCalls; call++) {
    const before = mock.requests.length;
    const events: StreamGuardEvent[] = [];
    const result = streamText({
      model: openai,
      prompt: 'What is Porto known for?',
      // The backoff between OpenAI's retries (1 s, 2 s) is skipped, to keep the demo short.
      streamGuard: {
        fallbackModels: [anthropic],
        sleep: async () => {},
        onEvent: (event) => events.push(event),
      },
    });
    const text = await result.text;
    const sent = mock.requests.slice(before);
    const toOpenai = countOf(sent, 'chat');
    print.info(
      `call ${call}: ${toOpenai} requests to OpenAI, ${countOf(sent, 'messages')} to Anthropic — "${text}"`,
    );
    if (open && toOpenai > 0)
      problems.push(`call ${call} sent ${toOpenai} requests to OpenAI with its breaker open`);
    for (const event of events) {
      if (event.type !== 'model_breaker') continue;
      print.note(`model_breaker: ${named(event.model)} ${event.from} → ${event.to}`);
      open = event.to === 'open';
    }
  }
  if (open)
    print.info("while OpenAI's breaker is open, no request goes to it: the calls go straight to Anthropic.");
  else problems.push("OpenAI's breaker did not open");
}
