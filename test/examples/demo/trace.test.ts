import { describe, expect, it } from 'vitest';
import { providers } from '../../../examples/demo/provider.js';
import * as traceDemo from '../../../examples/demo/trace.js';
import { playSection } from './play-section.js';

describe('demo section: the trace of a recovered stream', () => {
  it.each(['openai', 'anthropic', 'google'] as const)(
    '%s: the guard spans under the SDK chat span, then every global unregistered',
    async (name) => {
      const { summary, printed } = await playSection(traceDemo, name);
      expect(summary).toEqual({ section: 'trace', problems: [] });
      const kind = name === 'anthropic' ? 'continuation' : 'regeneration';
      const lines = printed.split('\n');
      const chat = lines.findIndex((l) => l.includes(`ℹ     chat ${providers[name].defaultModel}`));
      expect(chat).toBeGreaterThan(0);
      expect(lines[chat + 1]).toMatch(/ℹ {7}graceful-ai.attempt .* number=1 mode=stream outcome=failed/);
      expect(lines[chat + 2]).toMatch(
        new RegExp(`ℹ {7}graceful-ai.recovery .* kind=${kind} outcome=ok reset=false`),
      );
      expect(lines[chat + 3]).toMatch(/ℹ {9}graceful-ai.attempt .* number=2 mode=generate outcome=ok/);
      expect(
        (globalThis as { AI_SDK_TELEMETRY_INTEGRATIONS?: unknown }).AI_SDK_TELEMETRY_INTEGRATIONS,
      ).toBeUndefined();
    },
  );
});
