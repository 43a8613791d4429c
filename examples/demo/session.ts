/**
 * Section: an `AgentSession` meets a rate limit (retried with a live, cancellable line) and a context overflow
 * (compacted, then the turn continues).
 */
import { AgentSession } from '../../adapters/ai-sdk/agent-session.js';
import { fault, reply } from '../../mocks/index.js';
import type { SessionEventMap } from '../../src/session/events.js';
import { formatDuration } from '../../src/util/duration.js';
import type { DemoContext, DemoSummary } from './context.js';

const ESC = 0x1b;
const CTRL_C = 0x03;

/** `Retrying (1/3) in 2s… (esc to cancel)`; the Esc hint only where Esc works (a terminal). */
export function retryLine(event: SessionEventMap['auto_retry_start'], cancellable: boolean): string {
  const base = `Retrying (${event.attempt}/${event.maxAttempts}) in ${formatDuration(event.delayMs)}…`;
  return cancellable ? `${base} (esc to cancel)` : base;
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
  ctx.script([
    // Turn 1: a 429 asking for 1 s, then the answer.
    fault.rateLimit({ retryAfterSeconds: 1, retryAfterMs: 1000 }),
    reply.text('Three files changed: parser.ts, lexer.ts and their tests.', {
      chunkChars: 8,
      frameDelayMs: 10,
    }),
    // Turn 2: the context overflows once; after compaction the answer comes.
    fault.contextLengthExceeded(),
    reply.text('The lexer now handles CRLF line endings.', { chunkChars: 8, frameDelayMs: 10 }),
  ]);
  const cancellable = Boolean(process.stdin.isTTY);
  const session = new AgentSession({ model: ctx.model(), system: 'You are a terse coding agent.' });
  let stopEsc: (() => void) | undefined;
  const problems: string[] = [];
  session.subscribe((event) => {
    switch (event.type) {
      case 'text_delta':
        print.assistantDelta(event.delta);
        break;
      case 'attempt_error':
        print.error(`attempt failed (${event.kind}, ${event.reason})`, event.error);
        break;
      case 'auto_retry_start':
        print.note(retryLine(event, cancellable));
        if (cancellable) stopEsc ??= listenForEsc(session);
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
        print.note(`compacted to ${event.messageCount} messages (${event.removedCount} dropped); continuing`);
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
