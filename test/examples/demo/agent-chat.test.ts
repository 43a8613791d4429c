import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import * as agentChat from '../../../examples/demo/agent-chat.js';
import { providers } from '../../../examples/demo/provider.js';
import { createTranscript } from '../../../examples/demo/transcript.js';
import { startMockServer } from '../../../mocks/index.js';

describe('demo section: an agent chat whose tool budget runs out', () => {
  it.each(['openai', 'anthropic', 'google'] as const)(
    '%s: ai’s UI stream breaks; graceful-ai’s ends with the error, then finish',
    async (name) => {
      const provider = providers[name];
      const mock = await startMockServer({ script: [] });
      let printed = '';
      const out = new Writable({
        write(chunk, _encoding, done) {
          printed += String(chunk);
          done();
        },
      });
      try {
        const models = provider.models(provider.mockURL(mock));
        const summary = await agentChat.run({
          print: createTranscript({ out, color: false }),
          live: false,
          provider: name,
          mock,
          model: (id = provider.defaultModel) => models(id),
          script: (script) => mock.setScript(script),
        });
        expect(summary).toEqual({ section: 'agents', problems: [] });
        expect(printed).toContain('✖ the UI stream broke UnexpectedModelBehavior');
        expect(printed).toContain('onError called 0 time(s); the stream ended with: finish-step, (broke)');
        expect(printed).toContain('← error   weather: The tool call failed and the run stopped.');
        expect(printed).toContain('onError called 1 time(s); the stream ended with: error, finish');
      } finally {
        await mock.close();
      }
    },
  );
});
