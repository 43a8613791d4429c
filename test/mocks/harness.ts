/** Runs the same fault-kit scenarios over MSW (in-process) and over the loopback server (real TCP). */
import { type AnthropicProvider, createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI, type GoogleGenerativeAIProvider } from '@ai-sdk/google';
import { createOpenAI, type OpenAIProvider } from '@ai-sdk/openai';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { type RecordedRequest, type Script, startMockServer } from '../../mocks/index.js';
import { mockHandlers, type ProviderBaseURLs } from '../../mocks/msw.js';

/** A started mock: a provider of each kind pointed at it, and what it recorded. */
export interface Mocked {
  openai: OpenAIProvider;
  anthropic: AnthropicProvider;
  google: GoogleGenerativeAIProvider;
  /** The loopback server's base URLs; `undefined` with MSW, which serves the providers' own. */
  urls: ProviderBaseURLs | undefined;
  requests: RecordedRequest[];
}

/** One way to serve a script. */
export interface Transport {
  name: 'msw' | 'loopback';
  /** Registers this transport's hooks; call it at the top of a `describe.each(transports)` body. */
  use(): void;
  start(script: Script): Promise<Mocked>;
}

const msw = setupServer();
const servers: Array<{ close(): Promise<void> }> = [];
const apiKey = 'sk-test';

export const transports: Transport[] = [
  {
    name: 'msw',
    use() {
      // Only while MSW tests run: a listening MSW would also intercept the loopback server's requests.
      beforeAll(() => msw.listen({ onUnhandledFrame: 'error' }));
      afterEach(() => msw.resetHandlers());
      afterAll(() => msw.close());
    },
    async start(script) {
      const handlers = mockHandlers(script);
      msw.use(...handlers);
      return {
        openai: createOpenAI({ apiKey }),
        anthropic: createAnthropic({ apiKey }),
        google: createGoogleGenerativeAI({ apiKey }),
        urls: undefined,
        requests: handlers.requests,
      };
    },
  },
  {
    name: 'loopback',
    use() {
      afterEach(async () => {
        await Promise.all(servers.splice(0).map((server) => server.close()));
      });
    },
    async start(script) {
      const server = await startMockServer({ script });
      servers.push(server);
      const { urls } = server;
      return {
        openai: createOpenAI({ apiKey, baseURL: urls.openai }),
        anthropic: createAnthropic({ apiKey, baseURL: urls.anthropic }),
        google: createGoogleGenerativeAI({ apiKey, baseURL: urls.google }),
        urls,
        requests: server.requests,
      };
    },
  },
];
