/** What every demo section gets and returns. A section is a module exporting `run(ctx): Promise<DemoSummary>`. */
import type { LanguageModel } from 'ai';
import type { MockServer, Script } from '../../mocks/index.js';
import type { ProviderName } from './provider.js';
import type { Transcript } from './transcript.js';

export interface DemoContext {
  /** The transcript printer. */
  print: Transcript;
  /**
   * A model of the chosen provider (`--provider`; OpenAI: chat API) on the mock server, or on the real API with
   * `--live`. Default id: the provider's (`gpt-4o-mini`, `claude-haiku-4-5`, `gemini-2.5-flash`).
   */
  model(id?: string): LanguageModel;
  /** The provider the demo runs on (`--provider`, default `openai`). */
  provider: ProviderName;
  /** The loopback fault server; `undefined` with `--live`. */
  mock: MockServer | undefined;
  /** Sets this section's script on the mock (clears its recorded requests); does nothing with `--live`. */
  script(script: Script): void;
  /** `true` with `--live` (faults are then whatever the real API does). */
  live: boolean;
}

/** What a section reports for the final one-line summary. */
export interface DemoSummary {
  /** Short section name, e.g. `plain AI SDK`. */
  section: string;
  /** One short phrase per thing that went wrong (empty when all went well). */
  problems: string[];
}

/** A demo section. */
export interface DemoSection {
  run(ctx: DemoContext): Promise<DemoSummary>;
}
