/**
 * examples/chat-ui in headless Chromium: a user types a question into the `useChat` page; the app server's
 * `/api/chat` runs graceful-ai's `ToolLoopAgent` through its `createAgentUIStreamResponse` against the loopback fault
 * mock. The page renders messages as `useChat` holds them, with no helper (no `withoutDiscarded`). What the page
 * shows is checked after the answer and at every DOM change while it streamed: a stream cut mid-answer (two app
 * servers share the mock: one on OpenAI chat completions, recovery by regeneration and a `reset-step`; one on
 * Anthropic Messages, recovery by continuation of the text shown), a tool budget running out, a revoked key.
 * Run with `npm run test:browser` (needs /usr/bin/chromium; not part of `npm test`).
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isResetPart } from '../../adapters/ui/index.js';
import { type ChatServer, startChatServer } from '../../examples/chat-ui/server.js';
import {
  assistantPrefill,
  fault,
  type MockServer,
  type RecordedRequest,
  reply,
  startMockServer,
  streamFault,
} from '../../mocks/index.js';
import { chromiumPlan, type LaunchedChromium, launchChromium } from './chromium.js';

const QUESTION = 'What is the capital of France?';

interface ShownMessage {
  role: string;
  /** The text paragraphs of the message, as the page shows them. */
  texts: string[];
}

/** In the page: every distinct state of the last assistant message's paragraphs, in `window.shown`. */
function recordAssistantText(): void {
  const record = window as unknown as { shown: string[][] };
  record.shown = [];
  new MutationObserver(() => {
    const last = [...document.querySelectorAll('article[data-role="assistant"]')].at(-1);
    if (!last) return;
    const texts = [...last.querySelectorAll('p')].map((p) => p.textContent ?? '');
    if (JSON.stringify(record.shown.at(-1)) !== JSON.stringify(texts)) record.shown.push(texts);
  }).observe(document, { childList: true, subtree: true, characterData: true });
}

const shownOverTime = (page: Page): Promise<string[][]> =>
  page.evaluate(() => (window as unknown as { shown: string[][] }).shown);

const shownMessages = (page: Page): Promise<ShownMessage[]> =>
  page.$$eval('article', (articles) =>
    articles.map((article) => ({
      role: article.getAttribute('data-role') ?? '',
      texts: [...article.querySelectorAll('p')].map((p) => p.textContent ?? ''),
    })),
  );

/** The states that are not empty or one paragraph holding the beginning of one of `answers`. */
const notABeginning = (shown: string[][], answers: string[]): string[][] =>
  shown.filter(
    (texts) => texts.length > 1 || (texts.length === 1 && !answers.some((a) => a.startsWith(texts[0]!))),
  );

/** The states that do not begin with the state before them: text that disappeared or changed. */
const notContinuing = (shown: string[][]): string[][] =>
  shown.filter((texts, i) => i > 0 && !texts.join('\n').startsWith(shown[i - 1]!.join('\n')));

/**
 * Waits until the chat is idle (`useChat`'s status ready or error) with `assistants` assistant messages, and returns
 * the error the page reports (`[]` when none).
 */
async function settled(page: Page, assistants: number): Promise<string[]> {
  await page.waitForFunction(
    (count) =>
      document.querySelectorAll('article[data-role="assistant"]').length === count &&
      ['ready', 'error'].includes(document.querySelector('main')?.dataset.status ?? ''),
    assistants,
  );
  return page.locator('[role="alert"]').allTextContents();
}

/** Asks `question`; the answer must come without an error unless `failing`. Returns the error the page shows. */
async function ask(page: Page, question: string, { failing = false } = {}): Promise<string[]> {
  const assistants = await page.locator('article[data-role="assistant"]').count();
  await page.getByPlaceholder('Ask something').fill(question);
  await page.getByPlaceholder('Ask something').press('Enter');
  if (!failing) {
    expect(await settled(page, assistants + 1), 'the page reports an error').toEqual([]);
    return [];
  }
  // A run that failed before any answer may leave no assistant message: wait for useChat's error status.
  await page.waitForFunction(() => document.querySelector('main')?.dataset.status === 'error');
  return page.locator('[role="alert"]').allTextContents();
}

/** The tool calls of the last assistant message as the page shows them: `[tool, state]`. */
const shownToolCalls = (page: Page): Promise<string[][]> =>
  page.$$eval('article[data-role="assistant"]:last-of-type [data-tool]', (calls) =>
    calls.map((call) => [call.getAttribute('data-tool') ?? '', call.getAttribute('data-state') ?? '']),
  );

/** The assistant texts a request sent to the model (the chat wire: one string, or text parts). */
function assistantTextsSent(request: RecordedRequest): string[] {
  const { messages } = request.body as { messages: Array<{ role: string; content: unknown }> };
  return messages
    .filter((m) => m.role === 'assistant')
    .map((m) =>
      typeof m.content === 'string'
        ? m.content
        : (m.content as Array<{ text?: string }>).map((part) => part.text ?? '').join(''),
    );
}

const plan = chromiumPlan();
if (!plan.run && !plan.fail) console.warn(`test:browser skipped: ${plan.message}`);

describe.skipIf(!plan.run && !plan.fail)('examples/chat-ui in Chromium', () => {
  let mock: MockServer;
  let app: ChatServer;
  let anthropicApp: ChatServer;
  let browser: LaunchedChromium;
  const pageErrors: string[] = [];
  const durations: Record<string, number> = {};
  const since = (t0: number) => Math.round(performance.now() - t0);

  beforeAll(async () => {
    if (!plan.run) throw new Error(plan.message);
    let t0 = performance.now();
    mock = await startMockServer({ script: [] });
    const openai = createOpenAI({ apiKey: 'test', baseURL: mock.urls.openai });
    const anthropic = createAnthropic({ apiKey: 'test', baseURL: mock.urls.anthropic });
    [app, anthropicApp] = await Promise.all([
      startChatServer({ model: openai.chat('gpt-4o-mini') }),
      startChatServer({ model: anthropic('claude-sonnet-4-5') }),
    ]);
    durations['two servers start (esbuild bundles)'] = since(t0);
    t0 = performance.now();
    browser = await launchChromium();
    await browser.context.addInitScript(recordAssistantText);
    durations['chromium launch'] = since(t0);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await anthropicApp?.close();
    await mock?.close();
    console.log(`test:browser durations (ms): ${JSON.stringify(durations)}`);
  });

  afterEach(() => {
    expect(pageErrors.splice(0), 'errors thrown in the page').toEqual([]);
  });

  /** A new chat: the page makes up a chat id and puts it in the address. */
  async function newChat(server = app): Promise<Page> {
    const page = await browser.context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(server.url);
    await page.waitForURL(/\?chat=/);
    return page;
  }

  it('a cut with a divergent recovery shows one coherent answer, also after a reload', async () => {
    const t0 = performance.now();
    const first = 'The capital of France is Paris, a city on the Seine.';
    const recovered = 'Paris is the capital of France.';
    // The streamed request is cut after 30 characters; the recovery request (not streamed) words it differently.
    mock.setScript((request) =>
      request.stream
        ? reply.text(first, { frameDelayMs: 25, fault: streamFault.cut({ afterChars: 30 }) })
        : reply.text(recovered),
    );
    const page = await newChat();
    await ask(page, QUESTION);

    expect(mock.requests.map((r) => r.stream)).toEqual([true, false]);
    expect(await shownMessages(page)).toEqual([
      { role: 'user', texts: [QUESTION] },
      { role: 'assistant', texts: [recovered] },
    ]);
    const shown = await shownOverTime(page);
    // The first wording was on screen before the cut, then replaced; never both at once.
    expect(shown.some(([text]) => text !== undefined && text.length > 0 && first.startsWith(text))).toBe(
      true,
    );
    expect(notABeginning(shown, [first, recovered])).toEqual([]);
    // The one moment text disappeared: the reset (the recovered answer, or first an empty message).
    expect(notContinuing(shown)).toHaveLength(1);

    await page.reload();
    expect(await settled(page, 1)).toEqual([]);
    expect(await shownMessages(page)).toEqual([
      { role: 'user', texts: [QUESTION] },
      { role: 'assistant', texts: [recovered] },
    ]);

    // The next turn's prompt holds the recovered answer only: the model never reads the discarded words.
    mock.setScript([reply.text('Berlin.')]);
    await ask(page, 'And of Germany?');
    expect(assistantTextsSent(mock.requests[0]!)).toEqual([recovered]);
    await page.close();
    durations['divergent recovery + reload + next turn'] = since(t0);
  });

  it('a cut with an identical recovery shows the full answer once', async () => {
    const t0 = performance.now();
    const answer = 'Paris is the capital of France. It sits on the Seine.';
    mock.setScript([
      reply.text(answer, { frameDelayMs: 25, fault: streamFault.cut({ afterChars: 20 }) }),
      reply.text(answer),
    ]);
    const page = await newChat();
    await ask(page, QUESTION);

    expect(mock.requests.map((r) => r.stream)).toEqual([true, false]);
    expect(await shownMessages(page)).toEqual([
      { role: 'user', texts: [QUESTION] },
      { role: 'assistant', texts: [answer] },
    ]);
    // Only the remainder followed the cut: at every moment the page showed a beginning of the answer.
    expect(notABeginning(await shownOverTime(page), [answer])).toEqual([]);
    await page.close();
    durations['identical recovery'] = since(t0);
  });

  it('on Anthropic, a cut recovered by continuation: the answer goes on where it was cut, never reset', async () => {
    const t0 = performance.now();
    const answer = 'Paris is the capital of France. It sits on the Seine.';
    const shownAtCut = 'Paris is the capital '; // ends with a space, which the prefill must not
    // The streamed request is cut; a recovery request that ends with a prefill gets the rest of the answer.
    mock.setScript((request) => {
      if (request.stream)
        return reply.text(answer, {
          frameDelayMs: 25,
          fault: streamFault.cut({ afterChars: shownAtCut.length }),
        });
      const prefill = assistantPrefill(request);
      return reply.text(
        prefill === undefined ? 'A regeneration: no prefill was sent.' : answer.slice(prefill.length),
      );
    });
    const page = await newChat(anthropicApp);
    await ask(page, QUESTION);

    expect(mock.requests.map((r) => [r.api, r.stream])).toEqual([
      ['messages', true],
      ['messages', false],
    ]);
    const recovery = (mock.requests[1]!.body as { messages: Array<{ role: string }> }).messages;
    expect(recovery.at(-1)?.role).toBe('assistant');
    expect(assistantPrefill(mock.requests[1]!)).toBe(shownAtCut.trimEnd());
    const expected = [
      { role: 'user', texts: [QUESTION] },
      { role: 'assistant', texts: [answer] },
    ];
    expect(await shownMessages(page)).toEqual(expected);
    const shown = await shownOverTime(page);
    // Text was on screen before the cut; from then on the page only ever added to it.
    expect(
      shown.some(([text]) => text !== undefined && text.length > 0 && text.length <= shownAtCut.length),
    ).toBe(true);
    expect(notABeginning(shown, [answer])).toEqual([]);
    expect(notContinuing(shown)).toEqual([]);

    // Persisted as one answer, with no reset to hide anything: a reload shows the same.
    const chatId = new URL(page.url()).searchParams.get('chat')!;
    const [, persisted] = anthropicApp.chats.get(chatId)!;
    expect(persisted!.parts.some(isResetPart)).toBe(false);
    expect(persisted!.parts.flatMap((p) => (p.type === 'text' ? [p.text] : []))).toEqual([answer]);
    await page.reload();
    expect(await settled(page, 1)).toEqual([]);
    expect(await shownMessages(page)).toEqual(expected);
    await page.close();
    durations['continued recovery (Anthropic) + reload'] = since(t0);
  });

  it('a tool budget running out: the failed calls and the error are shown, also after a reload; the chat goes on', async () => {
    const t0 = performance.now();
    // A model that insists on a city the tool does not know: the tool's budget (retries: 1) runs out in two calls.
    mock.setScript(() => reply.toolCall('weather', { city: 'Atlantis' }));
    const page = await newChat();
    expect(await ask(page, 'What is the weather in Atlantis?', { failing: true })).toEqual([
      'Something went wrong: An error occurred.',
    ]);
    expect(mock.requests).toHaveLength(2);
    const failedCalls = [
      ['weather', 'output-error'],
      ['weather', 'output-error'],
    ];
    expect(await shownToolCalls(page)).toEqual(failedCalls);
    const shownText = await page.locator('article[data-role="assistant"]').innerText();
    expect(shownText).toContain('tool failed: The tool call failed and the run stopped.');
    expect(shownText).not.toContain('gracefulAi');

    // Persisted as shown: every call closed; a reload shows the same calls.
    await page.reload();
    expect(await settled(page, 1)).toEqual([]);
    expect(await shownToolCalls(page)).toEqual(failedCalls);

    // The chat goes on: the next turn is answered, from a history the model can read.
    mock.setScript([reply.text('Sorry, I have no weather for Atlantis.')]);
    await ask(page, 'Never mind. Thanks!');
    expect((await shownMessages(page)).at(-1)).toEqual({
      role: 'assistant',
      texts: ['Sorry, I have no weather for Atlantis.'],
    });
    await page.close();
    durations['tool budget running out + reload + next turn'] = since(t0);
  });

  it('a revoked key: the page shows the error; once the key works again, the chat goes on', async () => {
    const t0 = performance.now();
    mock.setScript(() => fault.unauthorized());
    const page = await newChat();
    expect(await ask(page, QUESTION, { failing: true })).toEqual([
      'Something went wrong: An error occurred.',
    ]);
    // The guard did not retry a key the provider refused.
    expect(mock.requests).toHaveLength(1);
    expect((await shownMessages(page)).flatMap((m) => m.texts)).toEqual([QUESTION]);

    mock.setScript([reply.text('Paris.')]);
    await ask(page, QUESTION);
    expect((await shownMessages(page)).at(-1)).toEqual({ role: 'assistant', texts: ['Paris.'] });
    await page.close();
    durations['revoked key, then the key works'] = since(t0);
  });
});
