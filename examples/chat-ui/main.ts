/**
 * `npm run chat-ui`: the chat page against the fault mock (no key, no network). Every streamed answer is cut
 * mid-sentence and the recovery request answers in other words, so the page shows a reset: the words shown before
 * the cut disappear and the recovered answer replaces them. With a real model, pass `openai('gpt-4o-mini')`.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { lastUserText, reply, startMockServer, streamFault } from '../../mocks/index.js';
import { startChatServer } from './server.js';

const mock = await startMockServer({
  script: (request) =>
    request.stream
      ? reply.text(`You asked: "${lastUserText(request)}". Let me think about that for a while…`, {
          frameDelayMs: 40,
          fault: streamFault.cut({ afterChars: 40 }),
        })
      : reply.text(`Recovered answer to "${lastUserText(request)}": the stream was cut, this replaced it.`),
});
const openai = createOpenAI({ apiKey: 'sk-demo', baseURL: mock.urls.openai });
const server = await startChatServer({
  model: openai.chat('gpt-4o-mini'),
  port: Number(process.env.PORT ?? 3000),
});
console.log(`chat UI at ${server.url} (model: the fault mock at ${mock.urls.openai}); Ctrl+C to stop`);
