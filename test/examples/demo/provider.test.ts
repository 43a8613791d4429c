/** `npm run demo -- --provider <name>`: the whole demo in a child process, on each provider's package and wire. */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { answer as failoverAnswer } from '../../../examples/demo/failover.js';
import { providerFromArgs } from '../../../examples/demo/provider.js';
import { redisSource } from '../../../examples/demo/shared-breaker.js';
import { redisServerInstalled } from '../../../scripts/redis-server.js';
import { runChild } from '../../child.js';

const main = fileURLToPath(new URL('../../../examples/demo/main.ts', import.meta.url));
/**
 * A demo that prints nothing for this long is hung. It prints as it goes: its longest silence (starting up, or a
 * scale-out process started through tsx) measured about 4 s with the three demos at once, 12-15 s with the two cores
 * also running 4 or 8 busy loops: a dozen times less than this. A slow machine only lengthens the run, which has no
 * limit of its own.
 */
const silentMs = 180_000;
// Its stdout is a pipe, not a TTY: the transcript is plain text.
const demo = (args: string[], signal?: AbortSignal) =>
  runChild(main, args, { killWhenSilentMs: silentMs, signal });

describe('the demo on each provider', () => {
  it.concurrent.for([
    ['openai', [], 'OpenAI (chat completions)', 'Incorrect API key provided'],
    ['anthropic', ['--provider', 'anthropic'], 'Anthropic (Messages)', 'invalid x-api-key'],
    ['google', ['--provider=google'], 'Google (Gemini)', 'Request had invalid authentication'],
  ] as const)(
    '%s: the stream scene recovers on its wire, every section runs',
    // Three whole demos at once, each waiting out its scripted 429s for real. No time limit of its own: a hang is
    // a demo gone silent (above); a run that keeps printing may take as long as the machine needs.
    { timeout: 0 },
    async ([, args, label, revoked], { signal }) => {
      const { code, killed, stdout, stderr } = await demo([...args], signal);
      expect(killed, `silent for ${silentMs} ms after:\n${stdout.slice(-600)}`).toBe(false);
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(stdout).toContain(`graceful-ai demo on ${label}, against the fault mock at http://127.0.0.1:`);
      const scene = stdout.slice(stdout.indexOf('━━ Streaming'), stdout.indexOf('━━ Failover'));
      // The plain SDK shows the first 36 characters twice; the drop-in shows every character once.
      expect(scene).toContain('the user read 36 characters twice');
      expect(scene).toContain('one seamless answer: each character exactly once.');
      expect(scene).toMatch(/attempt 1: stream failed \(transient, status:5\d\d\), 36 characters shown/);
      expect(scene).toContain('attempt 2: generate ok, 74 characters shown');
      expect(scene).toContain(`result.text rejects: StreamFailedError: The model stream failed: ${revoked}`);
      expect(stdout).not.toContain('section crashed');
      expectFailover(stdout.slice(stdout.indexOf('━━ Failover'), stdout.indexOf('━━ Your trace')));
      // The trace scene: graceful-ai's spans under the SDK's chat span (test/examples/demo/trace.test.ts in detail).
      expect(stdout.slice(stdout.indexOf('━━ Your trace'), stdout.indexOf('━━ gracefulTool'))).toMatch(
        /ℹ {7}graceful-ai\.recovery .* outcome=ok/,
      );
      // The MCP scene: the plain SDK hands the model the isError result; the drop-in retries the read-only tool.
      expect(stdout).toContain(
        'check_stock: {"content":[{"type":"text","text":"inventory database connection lost"}],"isError":true}',
      );
      expect(stdout).toContain('the read-only MCP tool was retried once; the model got the stock level.');
      // The session scene: the provider's 429 retried after 2 s, its overflow compacted.
      expect(stdout).toContain('Retrying (1/3) in 2s…');
      expect(stdout).toContain('retry 1 succeeded');
      expect(stdout).toContain('compacted to 2 messages (1 dropped); continuing');
      // The scale-out scene's two processes talk to the mock on this provider's wire too (skipped without Redis).
      if (!('skip' in redisSource(process.env, redisServerInstalled())))
        expect(stdout).toContain('process B failed fast: the breaker process A opened, read from Redis');
      // What goes wrong is the plain SDK's, as the demo means it to; nothing of graceful-ai's.
      expect(stdout.trimEnd().split('\n').at(-1)).toBe(
        '⚠ What went wrong: plain AI SDK: tool read_file failed (the model saw the error text); ' +
          'plain AI SDK: 429 retried silently; plain AI SDK: stream cut mid-answer (turn lost); ' +
          'streaming: plain SDK: duplicated text after a stream retry.',
      );
    },
  );

  it('an unknown provider is refused at once with the names it takes', { timeout: 0 }, async ({ signal }) => {
    const { code, stdout, stderr } = await demo(['--provider', 'azure'], signal);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim()).toBe(
      'Unknown provider "azure" for --provider: use openai, anthropic or google (default openai).',
    );
  });
});

/**
 * The failover scene (OpenAI and Anthropic on the mock, whatever the provider): the reader reads the whole answer
 * once across the two models, and no call sends OpenAI a request while its breaker is open.
 */
function expectFailover(scene: string) {
  const lines = scene.split('\n');
  const read = lines.filter((l) => / assistant /.test(l)).map((l) => l.replace(/^.*? assistant /, ''));
  expect(read).toEqual([failoverAnswer]);
  expect(scene).toContain('stream_failover: openai.chat:gpt-4o → anthropic.messages:claude-sonnet-4-5');
  expect(scene).toContain(`Anthropic was sent the shown text as a prefill: "${failoverAnswer.slice(0, 42)}"`);
  expect(scene).toMatch(
    /attempt 1: openai\.chat:gpt-4o stream failed \(transient, [^)]+\), 42 characters shown/,
  );
  expect(scene).toContain(
    'attempt 2: openai.chat:gpt-4o generate (recovery: regenerate) failed (transient, status:503), 0 characters shown',
  );
  expect(scene).toContain(
    `attempt 3: anthropic.messages:claude-sonnet-4-5 generate (recovery: continue) ok, ${failoverAnswer.length - 42} characters shown`,
  );
  expect(scene).toContain('requests: chat stream 1, chat 1, messages 1');
  expect(scene).toContain('one answer across two providers: each character exactly once.');
  // Call 1 spends OpenAI's retries (3 requests) and opens its breaker; every later call sends it nothing.
  const opened = lines.findIndex((l) => l.includes('model_breaker: openai.chat:gpt-4o closed → open'));
  const calls = (from: number, to?: number) => lines.slice(from, to).filter((l) => /\] call \d+:/.test(l));
  expect(calls(0, opened)).toEqual([expect.stringContaining('call 1: 3 requests to OpenAI, 1 to Anthropic')]);
  const afterOpen = calls(opened);
  expect(afterOpen).toHaveLength(3);
  for (const line of afterOpen) expect(line).toContain(': 0 requests to OpenAI, 1 to Anthropic');
}

describe('providerFromArgs', () => {
  it('reads --provider NAME and --provider=NAME; openai by default; the last one given wins', () => {
    expect(providerFromArgs([])).toBe('openai');
    expect(providerFromArgs(['--live'])).toBe('openai');
    expect(providerFromArgs(['--provider', 'anthropic'])).toBe('anthropic');
    expect(providerFromArgs(['--provider=google', '--live'])).toBe('google');
    expect(providerFromArgs(['--provider', 'google', '--provider', 'openai'])).toBe('openai');
  });

  it.each([
    [['--provider'], '--provider needs a name: openai, anthropic or google.'],
    [['--provider', '--live'], '--provider needs a name: openai, anthropic or google.'],
    [['--provider='], '--provider needs a name: openai, anthropic or google.'],
    [['--provider', 'Anthropic'], 'Unknown provider "Anthropic" for --provider'],
    [['--provider', 'toString'], 'Unknown provider "toString" for --provider'],
  ])('%j is refused: %s', (argv, message) => {
    expect(() => providerFromArgs(argv)).toThrow(TypeError);
    expect(() => providerFromArgs(argv)).toThrow(message);
  });
});
