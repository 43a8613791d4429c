/**
 * Which provider the demo runs on (`--provider openai|anthropic|google`, default openai): its package pointed at
 * the fault mock's wire for it, or at the real API with `--live` and the provider's key in the environment.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModel } from 'ai';
import type { MockServer } from '../../mocks/index.js';

export interface DemoProvider {
  /** How the transcript names it. */
  label: string;
  /** The environment variable its package reads the API key from (needed with `--live`). */
  keyVariable: string;
  /** The model id the demo uses unless a section asks for another. */
  defaultModel: string;
  /** Its base URL on the fault mock. */
  mockURL(mock: MockServer): string;
  /** A model factory: on the mock (`baseURL` given, a dummy key) or on the real API (the package's defaults). */
  models(baseURL: string | undefined): (id: string) => LanguageModel;
}

const onMock = (baseURL: string | undefined) => (baseURL ? { apiKey: 'sk-demo', baseURL } : {});

export const providers = {
  openai: {
    label: 'OpenAI (chat completions)',
    keyVariable: 'OPENAI_API_KEY',
    defaultModel: 'gpt-4o-mini',
    mockURL: (mock) => mock.urls.openai,
    models: (baseURL) => {
      const openai = createOpenAI(onMock(baseURL));
      return (id) => openai.chat(id);
    },
  },
  anthropic: {
    label: 'Anthropic (Messages)',
    keyVariable: 'ANTHROPIC_API_KEY',
    defaultModel: 'claude-haiku-4-5',
    mockURL: (mock) => mock.urls.anthropic,
    models: (baseURL) => {
      const anthropic = createAnthropic(onMock(baseURL));
      return (id) => anthropic(id);
    },
  },
  google: {
    label: 'Google (Gemini)',
    keyVariable: 'GOOGLE_GENERATIVE_AI_API_KEY',
    defaultModel: 'gemini-2.5-flash',
    mockURL: (mock) => mock.urls.google,
    models: (baseURL) => {
      const google = createGoogleGenerativeAI(onMock(baseURL));
      return (id) => google(id);
    },
  },
} satisfies Record<string, DemoProvider>;

export type ProviderName = keyof typeof providers;

const names = Object.keys(providers) as ProviderName[];
const choices = `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;

/**
 * The provider named by `--provider NAME` or `--provider=NAME` in `argv` (default `openai`). Throws a `TypeError`
 * that says what to write for a missing or unknown name.
 */
export function providerFromArgs(argv: readonly string[]): ProviderName {
  let name = 'openai';
  for (const [i, arg] of argv.entries()) {
    if (arg !== '--provider' && !arg.startsWith('--provider=')) continue;
    const value = arg === '--provider' ? argv[i + 1] : arg.slice('--provider='.length);
    if (!value || value.startsWith('--')) throw new TypeError(`--provider needs a name: ${choices}.`);
    name = value;
  }
  if (!Object.hasOwn(providers, name)) {
    throw new TypeError(`Unknown provider "${name}" for --provider: use ${choices} (default openai).`);
  }
  return name as ProviderName;
}
