/**
 * The graceful-ai demo: `npm run demo` (scripted faults on a loopback mock, no key, no network) or
 * `npm run demo -- --live` with the provider's key (the real API; faults are then whatever happens).
 * `--provider anthropic` or `--provider google` runs it on that provider's package and wire (default openai).
 * Each section is one module; add yours to `sections`.
 */
import { startMockServer } from '../../mocks/index.js';
import * as agentChat from './agent-chat.js';
import type { DemoContext, DemoSection, DemoSummary } from './context.js';
import * as failover from './failover.js';
import * as gracefulTool from './graceful-tool.js';
import * as mcpTools from './mcp.js';
import * as plainSdk from './plain-sdk.js';
import { type ProviderName, providerFromArgs, providers } from './provider.js';
import * as resilience from './resilience.js';
import * as sessionDemo from './session.js';
import * as sharedBreaker from './shared-breaker.js';
import * as streaming from './streaming.js';
import * as traceDemo from './trace.js';
import { createTranscript } from './transcript.js';

const sections: DemoSection[] = [
  plainSdk,
  streaming,
  failover,
  traceDemo,
  gracefulTool,
  mcpTools,
  agentChat,
  resilience,
  sessionDemo,
  sharedBreaker,
];

async function main(): Promise<void> {
  const live = process.argv.includes('--live');
  let name: ProviderName;
  try {
    name = providerFromArgs(process.argv.slice(2));
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 1;
    return;
  }
  const provider = providers[name];
  if (live && !process.env[provider.keyVariable]) {
    console.error(`--live needs ${provider.keyVariable} in the environment.`);
    process.exitCode = 1;
    return;
  }
  const print = createTranscript();
  const mock = live ? undefined : await startMockServer({ script: [] });
  const models = provider.models(mock && provider.mockURL(mock));
  const ctx: DemoContext = {
    print,
    live,
    provider: name,
    mock,
    model: (id = provider.defaultModel) => models(id),
    script: (script) => mock?.setScript(script),
  };
  print.info(
    live
      ? `graceful-ai demo against the real ${provider.label} API`
      : `graceful-ai demo on ${provider.label}, against the fault mock at ${provider.mockURL(mock!)}`,
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
