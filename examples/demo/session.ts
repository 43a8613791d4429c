/**
 * Section: an `AgentSession` meets a rate limit (retried with a live, cancellable line) and a context overflow
 * (compacted, then the turn continues).
 */
import { AgentSession } from '../../adapters/ai-sdk/session/agent-session.js';
import { fault, lastUserText, reply, type Step } from '../../mocks/index.js';
import type { SessionEventMap } from '../../src/session/events.js';
import { formatDuration } from '../../src/util/duration.js';
import type { DemoContext, DemoSummary } from './context.js';

const ESC = 0x1b;
const CTRL_C = 0x03;

/** `Retrying (1/3) in 2s… (esc to cancel)`; the Esc hint only where Esc works (a terminal). */
export function retryLine(
  event: Pick<SessionEventMap['auto_retry_start'], 'attempt' | 'maxRetries' | 'delayMs'>,
  cancellable: boolean,
): string {
  const base = `Retrying (${event.attempt}/${event.maxRetries}) in ${formatDuration(event.delayMs)}…`;
  return cancellable ? `${base} (esc to cancel)` : base;
}

/** On a terminal, rewrites the retry line every 200 ms as the delay counts down; returns the function that ends it. */
function liveCountdown(event: SessionEventMap['auto_retry_start']): () => void {
  const until = Date.now() + event.delayMs;
  const draw = () => {
    const left = Math.max(0, until - Date.now());
    if (left === 0) clearInterval(timer);
    process.stdout.write(
      `\r\u001b[2K  ${retryLine({ ...event, delayMs: Math.ceil(left / 100) * 100 }, true)}`,
    );
  };
  draw();
  const timer = setInterval(draw, 200);
  return () => {
    clearInterval(timer);
    process.stdout.write('\n');
  };
}

/** While a retry sleeps, Esc cancels it (raw-mode stdin, only on a TTY); returns the function that stops listening. */
function listenForEsc(session: AgentSession): () => void {
  const stdin = process.stdin;
  const onData = (data: Buffer) => {
    if (data.includes(ESC)) session.abortRetry();
    if (data.includes(CTRL_C)) session.abort();
  };
  stdin.setRawMode(true);
  stdin.on('data', onData);
  stdin.resume();
  return () => {
    stdin.off('data', onData);
    stdin.setRawMode(false);
    stdin.pause();
  };
}

export async function run(ctx: DemoContext): Promise<DemoSummary> {
  const { print } = ctx;
  print.section(
    'AgentSession',
    '(a rate-limited turn retried with a live line, then a context overflow compacted)',
  );
  // Keyed on the user's words, so a cancelled retry (Esc) does not shift the answers to the next turn.
  const seen = new Map<string, number>();
  const firstTimeThen = (key: string, first: Step, then: Step): Step => {
    const count = seen.get(key) ?? 0;
    seen.set(key, count + 1);
    return count === 0 ? first : then;
  };
  ctx.script((request) =>
    lastUserText(request)?.includes('lexer')
      ? // Turn 2: the context overflows once; after compaction the answer comes.
        firstTimeThen(
          'lexer',
          fault.contextLengthExceeded(),
          reply.text('The lexer now handles CRLF line endings.', { chunkChars: 8, frameDelayMs: 10 }),
        )
      : // Turn 1: a 429 in the provider's words, asking for 2 s (OpenAI in its message, Gemini in RetryInfo;
        // Anthropic's says nothing without its retry-after header, so the session's own first backoff, 2 s, applies).
        firstTimeThen(
          'commit',
          fault.rateLimit({
            budget: 'requests',
            retryAfterSeconds: 2,
            retryAfterHeader: false,
            rateLimitHeaders: false,
          }),
          reply.text('Three files changed: parser.ts, lexer.ts and their tests.', {
            chunkChars: 8,
            frameDelayMs: 10,
          }),
        ),
  );
  const cancellable = Boolean(process.stdin.isTTY);
  const session = new AgentSession({ model: ctx.model(), system: 'You are a terse coding agent.' });
  let stopEsc: (() => void) | undefined;
  let stopCountdown: (() => void) | undefined;
  const problems: string[] = [];
  session.subscribe((event) => {
    // Any later event (the retry's first text, its failure, the chain's end) ends the live line.
    if (event.type !== 'auto_retry_start') {
      stopCountdown?.();
      stopCountdown = undefined;
    }
    switch (event.type) {
      case 'text_delta':
        print.assistantDelta(event.delta);
        break;
      case 'attempt_error':
        print.error(`attempt failed (${event.kind}, ${event.reason})`, event.error);
        break;
      case 'auto_retry_start':
        if (cancellable) {
          stopCountdown = liveCountdown(event);
          stopEsc ??= listenForEsc(session);
        } else {
          print.note(retryLine(event, false));
        }
        break;
      case 'auto_retry_end':
        stopEsc?.();
        stopEsc = undefined;
        print.note(
          event.success
            ? `retry ${event.attempt} succeeded`
            : `retry chain ended after ${event.attempt}: ${event.finalError}`,
        );
        break;
      case 'compaction_start':
        print.note(`context overflow with ${event.messageCount} messages: compacting (never retried as is)`);
        break;
      case 'compaction_end':
        print.note(
          `compacted to ${event.messageCount} message${event.messageCount === 1 ? '' : 's'} (${event.removedCount} dropped); continuing`,
        );
        break;
    }
  });
  for (const text of ['Summarise the last commit.', 'And what did the lexer change do?']) {
    print.user(text);
    try {
      await session.prompt(text);
    } catch (error) {
      print.error('turn failed', error);
      problems.push(`turn "${text}" failed`);
    }
  }
  stopEsc?.();
  return { section: 'AgentSession', problems };
}
