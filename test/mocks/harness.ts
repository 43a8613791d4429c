/** Runs the same fault-kit scenarios over MSW (in-process) and over the loopback server (real TCP). */
import { createOpenAI, type OpenAIProvider } from '@ai-sdk/openai';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { openaiHandlers, type RecordedRequest, type Script, startMockOpenAI } from '../../mocks/index.js';

/** A started mock: a provider pointed at it and what it recorded. */
export interface Mocked {
  openai: OpenAIProvider;
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
      const handlers = openaiHandlers(script);
      msw.use(...handlers);
      return { openai: createOpenAI({ apiKey: 'sk-test' }), requests: handlers.requests };
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
      const server = await startMockOpenAI({ script });
      servers.push(server);
      return { openai: createOpenAI({ apiKey: 'sk-test', baseURL: server.url }), requests: server.requests };
    },
  },
];
