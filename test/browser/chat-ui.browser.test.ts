/**
 * examples/chat-ui in headless Chromium: a user types a question into the `useChat` page; the app server's
 * `/api/chat` runs the drop-in `streamText` against the loopback fault mock, whose stream is cut mid-answer.
 * What the page shows is checked after the answer and at every DOM change while it streamed.
 * Run with `npm run test:browser` (needs /usr/bin/chromium; not part of `npm test`).
 */
import { createOpenAI } from '@ai-sdk/openai';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ChatServer, startChatServer } from '../../examples/chat-ui/server.js';
import {
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

/** Waits until the chat is idle (`useChat`'s status ready or error) with `assistants` assistant messages. */
async function settled(page: Page, assistants: number): Promise<void> {
  await page.waitForFunction(
    (count) =>
      document.querySelectorAll('article[data-role="assistant"]').length === count &&
      ['ready', 'error'].includes(document.querySelector('main')?.dataset.status ?? ''),
    assistants,
  );
  const alert = await page.locator('[role="alert"]').allTextContents();
  expect(alert, 'the page reports an error').toEqual([]);
}

async function ask(page: Page, question: string): Promise<void> {
  const assistants = await page.locator('article[data-role="assistant"]').count();
  await page.getByPlaceholder('Ask something').fill(question);
  await page.getByPlaceholder('Ask something').press('Enter');
  await settled(page, assistants + 1);
}

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
  let browser: LaunchedChromium;
  const pageErrors: string[] = [];
  const durations: Record<string, number> = {};
  const since = (t0: number) => Math.round(performance.now() - t0);

  beforeAll(async () => {
    if (!plan.run) throw new Error(plan.message);
    let t0 = performance.now();
    mock = await startMockServer({ script: [] });
    const openai = createOpenAI({ apiKey: 'test', baseURL: mock.urls.openai });
    app = await startChatServer({ model: openai.chat('gpt-4o-mini') });
    durations['server start (esbuild bundle)'] = since(t0);
    t0 = performance.now();
    browser = await launchChromium();
    await browser.context.addInitScript(recordAssistantText);
    durations['chromium launch'] = since(t0);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await mock?.close();
    console.log(`test:browser durations (ms): ${JSON.stringify(durations)}`);
  });

  afterEach(() => {
    expect(pageErrors.splice(0), 'errors thrown in the page').toEqual([]);
  });

  /** A new chat: the page makes up a chat id and puts it in the address. */
  async function newChat(): Promise<Page> {
    const page = await browser.context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(app.url);
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

    await page.reload();
    await settled(page, 1);
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
});
