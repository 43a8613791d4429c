/**
 * The four wires the fault kit speaks, each with the real provider package pointed at the mock: the one table the
 * scenario matrix (test/adapters/ai-sdk/matrix/), the cross-wire fault-kit tests and the chaos bench run over.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import type { JSONValue, LanguageModel } from 'ai';
import type { Api } from '../mocks/index.js';
import type { ProviderBaseURLs } from '../mocks/msw.js';

/** Provider options of the AI SDK call (`providerOptions`). */
type ProviderOptions = Record<string, Record<string, JSONValue>>;

export interface Wire {
  /** The wire's name, as the mock records it (`RecordedRequest.api`). */
  name: Api;
  /** The provider package's name for it, for test titles and reports. */
  label: string;
  /** The provider whose base URL serves it. */
  provider: keyof ProviderBaseURLs;
  /**
   * The model on this wire; `baseURLs` as the loopback server's `urls` (default: the provider's own base URL,
   * which MSW handlers serve). `id` overrides the wire's default model id.
   */
  model(baseURLs?: ProviderBaseURLs, id?: string): LanguageModel;
  /**
   * `providerOptions` under which the provider sends reasoning back to the model with its signature, or
   * `undefined` where the wire has no reasoning (OpenAI chat completions).
   */
  reasoning: ProviderOptions | undefined;
}

const apiKey = 'sk-test';

export const wires: readonly Wire[] = [
  {
    name: 'chat',
    label: '@ai-sdk/openai .chat()',
    provider: 'openai',
    model: (urls, id = 'gpt-4o') => createOpenAI({ apiKey, baseURL: urls?.openai }).chat(id),
    reasoning: undefined,
  },
  {
    name: 'responses',
    label: '@ai-sdk/openai .responses()',
    provider: 'openai',
    model: (urls, id = 'gpt-4o') => createOpenAI({ apiKey, baseURL: urls?.openai }).responses(id),
    // Stored responses are referred to by id (`item_reference`); unstored ones send the reasoning item back whole,
    // its `encrypted_content` being the signature.
    reasoning: { openai: { store: false } },
  },
  {
    name: 'messages',
    label: '@ai-sdk/anthropic',
    provider: 'anthropic',
    model: (urls, id = 'claude-sonnet-4-5') => createAnthropic({ apiKey, baseURL: urls?.anthropic })(id),
    reasoning: { anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } } },
  },
  {
    name: 'generateContent',
    label: '@ai-sdk/google',
    provider: 'google',
    model: (urls, id = 'gemini-2.5-flash') => createGoogleGenerativeAI({ apiKey, baseURL: urls?.google })(id),
    reasoning: { google: { thinkingConfig: { includeThoughts: true } } },
  },
];

/** The wire named `name`. */
export function wire(name: Api): Wire {
  const found = wires.find((w) => w.name === name);
  if (!found) throw new Error(`no wire named ${name}`);
  return found;
}
