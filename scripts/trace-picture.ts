/**
 * The docs' picture of a recovered stream in a trace (`npm run trace:picture`): graceful-ai's drop-in `streamText`
 * with the AI SDK's OpenTelemetry integration, inside an app span, against the loopback fault server. OpenAI
 * streams and is cut mid-answer, the recovery request to OpenAI answers 503, and Anthropic continues the shown text
 * (`fallbackModels`). The finished spans become docs/images/trace-recovered-stream.svg (scripts/trace-timeline.ts)
 * and a PNG of it, taken by Debian's Chromium. Real, short delays give the bars their widths; no network.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { trace } from '@opentelemetry/api';
import { streamText } from '../adapters/ai-sdk/drop-in/stream-text.js';
import { assistantPrefill, fault, reply, startMockServer, streamFault } from '../mocks/index.js';
import { installOtel } from '../test/adapters/ai-sdk/otel-harness.js';
import { chromiumPath, chromiumPlan, launchChromium } from '../test/browser/chromium.js';
import { root } from './run.js';
import { renderTimeline, type TimelineSpan } from './trace-timeline.js';

const answer =
  'Lisbon is the capital of Portugal. It spreads over seven hills above the Tagus, and its trams climb them all day.';
const shownBeforeCut = 42;
const expectedTree = [
  'POST /api/chat',
  '  invoke_agent gpt-4o',
  '    step 1',
  '      chat gpt-4o',
  '        graceful-ai.attempt',
  '        graceful-ai.recovery',
  '          graceful-ai.attempt',
  '          graceful-ai.attempt',
].join('\n');

/** Runs the scene; returns its finished spans. Throws when the reader would not get the one full answer. */
async function recoveredStream(): Promise<TimelineSpan[]> {
  const otel = installOtel();
  const mock = await startMockServer({
    script: (request, { index }) => {
      if (index === 0)
        return reply.text(answer, {
          delayMs: 120,
          chunkChars: 6,
          frameDelayMs: 30,
          fault: streamFault.cut({ afterChars: shownBeforeCut }),
        });
      if (request.api !== 'messages') return fault.serverError(503, { delayMs: 70 });
      return reply.text(answer.slice((assistantPrefill(request) ?? '').length), { delayMs: 180 });
    },
  });
  try {
    const openai = createOpenAI({ apiKey: 'sk-picture', baseURL: mock.urls.openai }).chat('gpt-4o');
    const anthropic = createAnthropic({ apiKey: 'sk-picture', baseURL: mock.urls.anthropic })(
      'claude-sonnet-4-5',
    );
    const text = await trace.getTracer('app').startActiveSpan('POST /api/chat', async (span) => {
      try {
        const result = streamText({
          model: openai,
          prompt: 'Tell me about Lisbon in two sentences.',
          streamGuard: { fallbackModels: [anthropic] },
        });
        let read = '';
        for await (const delta of result.textStream) read += delta;
        return read;
      } finally {
        span.end();
      }
    });
    if (text !== answer) throw new Error(`the reader read ${JSON.stringify(text)}, not the one full answer`);
    if (otel.tree() !== expectedTree)
      throw new Error(`unexpected trace:\n${otel.tree()}\nexpected:\n${expectedTree}`);
    return otel.spans();
  } finally {
    await mock.close();
    otel.uninstall();
  }
}

/** A PNG of the SVG file at 1.5× scale (sharp on high-density screens, under 150 KB), as Chromium draws it (an XML error in the SVG fails here). */
async function screenshot(svgPath: string, pngPath: string): Promise<void> {
  const plan = chromiumPlan();
  if (!plan.run) throw new Error(plan.message);
  const browser = await launchChromium({ deviceScaleFactor: 1.5, viewport: { width: 1600, height: 1000 } });
  try {
    const page = await browser.context.newPage();
    await page.goto(pathToFileURL(svgPath).href);
    if ((await page.locator('parsererror').count()) > 0)
      throw new Error(`${chromiumPath} could not parse ${svgPath}: ${await page.content()}`);
    await page.locator('svg').first().screenshot({ path: pngPath });
  } finally {
    await browser.close();
  }
}

const spans = await recoveredStream();
const svg = renderTimeline(spans, {
  title: 'A recovered stream in the trace: OpenAI is cut mid-answer, Anthropic continues it',
});
const images = join(root, 'docs', 'images');
const svgPath = join(images, 'trace-recovered-stream.svg');
const pngPath = join(images, 'trace-recovered-stream.png');
writeFileSync(svgPath, svg);
await screenshot(svgPath, pngPath);
console.log(`wrote ${svgPath}\nwrote ${pngPath}`);
