/** Plays demo sections in tests: their transcript captured without colour, on the fault mock. */
import { Writable } from 'node:stream';
import type { DemoSection, DemoSummary } from '../../../examples/demo/context.js';
import { type ProviderName, providers } from '../../../examples/demo/provider.js';
import { createTranscript } from '../../../examples/demo/transcript.js';
import { startMockServer } from '../../../mocks/index.js';

/** A transcript printer and what it printed so far. */
export function capturedTranscript(): { print: ReturnType<typeof createTranscript>; printed(): string } {
  let text = '';
  const out = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { print: createTranscript({ out, color: false }), printed: () => text };
}

/** Plays `section` through `provider`'s package on a fresh fault mock; the mock is closed after. */
export async function playSection(
  section: DemoSection,
  name: ProviderName,
): Promise<{ summary: DemoSummary; printed: string }> {
  const provider = providers[name];
  const mock = await startMockServer({ script: [] });
  const transcript = capturedTranscript();
  try {
    const models = provider.models(provider.mockURL(mock));
    const summary = await section.run({
      print: transcript.print,
      live: false,
      provider: name,
      mock,
      model: (id = provider.defaultModel) => models(id),
      script: (script) => mock.setScript(script),
    });
    return { summary, printed: transcript.printed() };
  } finally {
    await mock.close();
  }
}
