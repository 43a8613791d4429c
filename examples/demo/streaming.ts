/**
 * Section: a stream cut mid-answer, side by side. The plain AI SDK with `streamRetries: 2` re-streams and the
 * user reads the first words twice; graceful-ai's drop-in `streamText` degrades to one non-streaming request and
 * sends only the missing remainder, so the user reads one seamless answer. Then a revoked key mid-answer, which
 * nothing can recover: reported exactly as the AI SDK reports it (onError, the chat UI's error chunk), and
 * `result.text` rejects instead of passing the partial answer off as complete.
 */
import { streamText as sdkStreamText } from 'ai';
import { streamText } from '../../adapters/ai-sdk/drop-in/stream-text.js';
import { reply, streamFault } from '../../mocks/index.js';
import type { AttemptRecord } from '../../src/stream/attempt-record.js';
import { isResetPart } from '../../src/stream/reset-part.js';
import type { DemoContext, DemoSummary } from './context.js';
import type { ProviderName } from './provider.js';

/** A revoked key as each provider words it, sent in-band by the provider's own error frame. */
const revokedKey: Record<ProviderName, { code: string; message: string }> = {
  openai: { code: 'invalid_api_key', message: 'Incorrect API key provided' },
  anthropic: { code: 'authentication_error', message: 'invalid x-api-key' },
  google: { code: 'UNAUTHENTICATED', message: 'Request had invalid authentication credentials.' },
};

const answer =
  'Paris is the capital of France. It sits on the Seine and has about two million inhabitants in the city proper.';

export async function run(ctx: DemoContext): Promise<DemoSummary> {
  const { print } = ctx;
  const problems: string[] = [];
  const prompt = 'Tell me about Paris in two sentences.';
  const cutAnswer = () =>
    reply.text(answer, { chunkChars: 6, frameDelayMs: 10, fault: streamFault.error({ afterChars: 36 }) });

  print.section(
    'Streaming: a cut mid-answer',
    '(an in-band provider error after 36 characters, then a retry)',
  );
  print.info('plain AI SDK, streamRetries: 2 — what the user reads:');
  ctx.script([cutAnswer(), reply.text(answer, { chunkChars: 6, frameDelayMs: 10 })]);
  print.user(prompt);
  let plain = '';
  const plainResult = sdkStreamText({
    model: ctx.model(),
    prompt,
    maxRetries: 0,
    streamRetries: 2,
    onError: () => {},
  });
  for await (const delta of plainResult.textStream) {
    plain += delta;
    print.assistantDelta(delta);
  }
  if (plain !== answer) {
    print.note(
      `the user read ${plain.length - answer.length} characters twice ("${plain.slice(0, 36)}" again).`,
    );
    problems.push('plain SDK: duplicated text after a stream retry');
  }

  print.info('graceful-ai streamText (same script) — what the user reads:');
  ctx.script([cutAnswer(), reply.text(answer)]);
  print.user(prompt);
  let seen = '';
  const result = streamText({ model: ctx.model(), prompt });
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') {
      seen += part.text;
      print.assistantDelta(part.text);
    } else if (isResetPart(part)) {
      print.note('reset: the recovered answer differs; discard what was shown.');
      seen = '';
    }
  }
  const attempts = ((await result.providerMetadata)?.['graceful-ai']?.attempts ??
    []) as unknown as AttemptRecord[];
  for (const a of attempts) {
    const why = a.classification ? ` (${a.classification.kind}, ${a.classification.reason})` : '';
    print.note(`attempt ${a.attempt}: ${a.mode} ${a.outcome}${why}, ${a.charsEmitted} characters shown`);
  }
  if (seen === answer) print.info('one seamless answer: each character exactly once.');
  else problems.push('graceful-ai: the answer differs from the full answer');

  print.info('graceful-ai streamText, the key revoked mid-answer — what the app and a useChat UI get:');
  ctx.script([
    reply.text(answer, {
      chunkChars: 6,
      fault: streamFault.error({ afterChars: 12, ...revokedKey[ctx.provider] }),
    }),
  ]);
  print.user(prompt);
  let reported = 0;
  const revoked = streamText({ model: ctx.model(), prompt, onError: () => void reported++ });
  const chunks: string[] = [];
  for await (const chunk of revoked.toUIMessageStream()) chunks.push(chunk.type);
  print.note(`onError called ${reported} time(s); UI chunks: ${chunks.join(', ')}`);
  const text = await revoked.text.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (reported === 1 && chunks.includes('error') && text !== undefined) {
    print.info(`result.text rejects: ${String(text).slice(0, 80)}…`);
  } else problems.push('graceful-ai: a revoked key mid-answer was not reported as the SDK reports it');
  return { section: 'streaming', problems };
}
