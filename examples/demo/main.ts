/**
 * The graceful-ai demo: `npm run demo` (scripted faults on a loopback mock, no key, no network) or
 * `npm run demo -- --live` with OPENAI_API_KEY (the real API; faults are then whatever happens).
 * Each section is one module; add yours to `sections`.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { startMockServer } from '../../mocks/index.js';
import type { DemoContext, DemoSection, DemoSummary } from './context.js';
import * as gracefulTool from './graceful-tool.js';
import * as plainSdk from './plain-sdk.js';
import * as resilience from './resilience.js';
import * as sessionDemo from './session.js';
import * as sharedBreaker from './shared-breaker.js';
import * as streaming from './streaming.js';
import { createTranscript } from './transcript.js';

const sections: DemoSection[] = [plainSdk, streaming, gracefulTool, resilience, sessionDemo, sharedBreaker];

async function main(): Promise<void> {
  const live = process.argv.includes('--live');
  if (live && !process.env.OPENAI_API_KEY) {
    console.error('--live needs OPENAI_API_KEY in the environment.');
    process.exitCode = 1;
    return;
  }
  const print = createTranscript();
  const mock = live ? undefined : await startMockServer({ script: [] });
  const openai = createOpenAI(mock ? { apiKey: 'sk-demo', baseURL: mock.urls.openai } : {});
  const ctx: DemoContext = {
    print,
    live,
    mock,
    model: (id = 'gpt-4o-mini') => openai.chat(id),
    script: (script) => mock?.setScript(script),
  };
  print.info(
    live
      ? 'graceful-ai demo against the real OpenAI API'
      : `graceful-ai demo against the fault mock at ${mock!.urls.openai}`,
  );
  const summaries: DemoSummary[] = [];
  try {
    for (const section of sections) {
      try {
        summaries.push(await section.run(ctx));
      } catch (error) {
        print.error('section crashed', error);
        summaries.push({ section: 'a section', problems: ['crashed'] });
      }
    }
  } finally {
    await mock?.close();
  }
  const problems = summaries.flatMap((s) => s.problems.map((p) => `${s.section}: ${p}`));
  print.summary(
    problems.length === 0 ? 'Nothing went wrong.' : `What went wrong: ${problems.join('; ')}.`,
    problems.length === 0,
  );
}

await main();
