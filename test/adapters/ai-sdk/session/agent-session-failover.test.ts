/**
 * `AgentSession` with `callOptions.streamGuard.fallbackModels`: the guard fails over inside one attempt (the session
 * asks for one request per attempt, and switching models is not a retry), and a turn whose every model failed is
 * retried by the session, its primary skipped while its breaker is open.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import type { ModelMessage } from 'ai';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { AgentSession } from '../../../../adapters/ai-sdk/session/agent-session.js';
import { fault, type RecordedRequest, reply, type ScriptFunction } from '../../../../mocks/index.js';
import { mockHandlers } from '../../../../mocks/msw.js';
import type { SessionEvent } from '../../../../src/session/events.js';

const msw = setupServer();
beforeAll(() => msw.listen({ onUnhandledFrame: 'error' }));
afterEach(() => msw.resetHandlers());
afterAll(() => msw.close());

const openai = createOpenAI({ apiKey: 'sk-test' });
const anthropic = createAnthropic({ apiKey: 'sk-ant-test' });
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
let unique = 0;

function start(
  script: ScriptFunction,
  modelBreaker: { failureThreshold: number } | false = { failureThreshold: 1 },
) {
  const handlers = mockHandlers(script);
  msw.use(...handlers);
  const session = new AgentSession({
    // A model id of its own: model breakers are per model, process-wide.
    model: openai.chat(`gpt-4o-${++unique}`),
    logger: quiet,
    sleep: async () => {},
    callOptions: {
      streamGuard: {
        fallbackModels: [anthropic('claude-sonnet-4-5')],
        modelBreaker: modelBreaker && { ...modelBreaker, openMs: 60_000 },
      },
    },
  });
  const events: SessionEvent<ModelMessage>[] = [];
  session.subscribe((event) => events.push(event));
  const sent = () => (handlers.requests as RecordedRequest[]).map((r) => r.api);
  return { session, events, sent };
}

it('OpenAI down: the turn is answered by the fallback within its first attempt, no session retry', async () => {
  const s = start((request) =>
    request.api === 'chat' ? fault.serverError(503) : reply.text('From Claude.'),
  );
  await expect(s.session.prompt('hi')).resolves.toMatchObject({ text: 'From Claude.' });
  expect(s.sent()).toEqual(['chat', 'messages']);
  expect(s.events.some((e) => e.type === 'auto_retry_start')).toBe(false);
  expect(s.session.messages.at(-1)).toMatchObject({ role: 'assistant' });
});

it('the next turn skips the primary while its breaker is open: no request to it', async () => {
  const s = start((request) =>
    request.api === 'chat' ? fault.serverError(503) : reply.text('From Claude.'),
  );
  await s.session.prompt('hi');
  await expect(s.session.prompt('and again')).resolves.toMatchObject({ text: 'From Claude.' });
  expect(s.sent()).toEqual(['chat', 'messages', 'messages']);
});

it('every model down once: the session retries the turn (the last failure is transient), each model again', async () => {
  const s = start((request, { index }) => {
    if (request.api === 'chat') return fault.serverError(503);
    return index === 1 ? fault.overloaded() : reply.text('From Claude.');
  }, false);
  await expect(s.session.prompt('hi')).resolves.toMatchObject({ text: 'From Claude.' });
  expect(s.sent()).toEqual(['chat', 'messages', 'chat', 'messages']);
  expect(s.events.filter((e) => e.type === 'auto_retry_start')).toMatchObject([
    { errorMessage: expect.stringMatching(/^Every model failed: openai\.chat:gpt-4o-\d+ \(status:503/) },
  ]);
});

it('every model behind an open breaker: the turn fails at once with a FailoverError naming each', async () => {
  const s = start((request) => (request.api === 'chat' ? fault.serverError(503) : fault.overloaded()));
  const error = await s.session.prompt('hi').catch((e: unknown) => e);
  expect(String(error)).toMatch(/Every model failed/);
  const again = await s.session.prompt('hi').catch((e: unknown) => e as Error);
  expect(s.sent()).toEqual(['chat', 'messages']);
  expect(String(again)).toMatch(
    /Model 'openai\.chat:gpt-4o-\d+' is temporarily unavailable .*Model 'anthropic\.messages:claude-sonnet-4-5' is temporarily unavailable/,
  );
});

it('bad failover options fail when the session is built, named as given', () => {
  const build = (streamGuard: object) => () =>
    new AgentSession({ model: openai.chat('gpt-4o'), callOptions: { streamGuard } as never });
  expect(build({ fallbackModels: [{}] })).toThrow(
    new TypeError(
      "graceful-ai: option 'callOptions.streamGuard.fallbackModels[0]' must be a language model (e.g. anthropic('claude-sonnet-4-5')) or a model id string; got object.",
    ),
  );
  expect(build({ modelBreaker: { failureThreshold: 0 } })).toThrow(RangeError);
});
