import { describe, expect, it } from 'vitest';
import * as agentChat from '../../../examples/demo/agent-chat.js';
import { playSection } from './play-section.js';

describe('demo section: an agent chat whose tool budget runs out', () => {
  it.each(['openai', 'anthropic', 'google'] as const)(
    '%s: ai’s UI stream breaks; graceful-ai’s ends with the error, then finish',
    async (name) => {
      const { summary, printed } = await playSection(agentChat, name);
      expect(summary).toEqual({ section: 'agents', problems: [] });
      expect(printed).toContain('✖ the UI stream broke UnexpectedModelBehavior');
      expect(printed).toContain('onError called 0 time(s); the stream ended with: finish-step, (broke)');
      expect(printed).toContain('← error   weather: The tool call failed and the run stopped.');
      expect(printed).toContain('onError called 1 time(s); the stream ended with: error, finish');
    },
  );
});
