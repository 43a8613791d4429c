import { createOpenAI } from '@ai-sdk/openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoScript } from '../../../examples/chat-ui/demo-script.js';
import { type ChatServer, startChatServer } from '../../../examples/chat-ui/server.js';
import { type MockServer, reply, startMockServer, streamFault } from '../../../mocks/index.js';

const question = (id: string, text: string) => ({
  id,
  messages: [{ id: `${id}-user`, role: 'user', parts: [{ type: 'text', text }] }],
});

describe('examples/chat-ui server', () => {
  let mock: MockServer;
  let app: ChatServer;
  const post = (body: unknown) =>
    fetch(new URL('/api/chat', app.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const persisted = async (id: string) => (await fetch(new URL(`/api/chats/${id}`, app.url))).json();

  beforeAll(async () => {
    mock = await startMockServer({ script: [] });
    const openai = createOpenAI({ apiKey: 'test', baseURL: mock.urls.openai });
    app = await startChatServer({ model: openai.chat('gpt-4o-mini') });
  });
  afterAll(async () => {
    await app?.close();
    await mock?.close();
  });

  it('serves the page and its bundled script', async () => {
    const page = await fetch(app.url);
    expect(page.headers.get('content-type')).toBe('text/html');
    expect(await page.text()).toContain('<script type="module" src="/app.js">');
    const script = await fetch(new URL('/app.js', app.url));
    expect(script.headers.get('content-type')).toBe('text/javascript');
    expect(await script.text()).toContain('/api/chats/');
  });

  it('streams the answer as a UI message stream and persists the chat under its id', async () => {
    expect(await persisted('chat-a')).toEqual([]);
    mock.setScript([reply.text('Paris.')]);
    const response = await post(question('chat-a', 'Capital of France?'));
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(await response.text()).toContain('"delta":"Pari"');
    expect(await persisted('chat-a')).toMatchObject([
      { role: 'user', parts: [{ type: 'text', text: 'Capital of France?' }] },
      { role: 'assistant', parts: [{ type: 'step-start' }, { type: 'text', text: 'Paris.' }] },
    ]);
    expect(await persisted('chat-b')).toEqual([]);
  });

  it('persists only the recovered answer after a reset: no discarded text, no reset part', async () => {
    mock.setScript((request) =>
      request.stream
        ? reply.text('The capital is Paris, on the Seine.', { fault: streamFault.cut({ afterChars: 8 }) })
        : reply.text('Paris.'),
    );
    const streamed = await (await post(question('chat-c', 'Capital of France?'))).text();
    // The live stream tells the page to drop what it already showed with the SDK's own chunk.
    expect(streamed).toContain('"type":"reset-step"');
    expect(streamed).not.toContain('graceful-ai.reset');
    const [, answer] = (await persisted('chat-c')) as Array<{
      parts: Array<{ type: string; text?: string }>;
    }>;
    expect(answer!.parts).toEqual([
      { type: 'step-start' },
      expect.objectContaining({ type: 'text', text: 'Paris.' }),
    ]);
  });

  it('a weather question calls the agent’s tool, and the answer uses its result', async () => {
    mock.setScript(demoScript);
    await (await post(question('chat-d', 'What is the weather in Paris?'))).text();
    const [, answer] = (await persisted('chat-d')) as Array<{ parts: Array<Record<string, unknown>> }>;
    expect(answer!.parts).toEqual([
      { type: 'step-start' },
      expect.objectContaining({ type: 'tool-weather', state: 'output-available' }),
      { type: 'step-start' },
      expect.objectContaining({ type: 'text', text: 'The weather in Paris: Sunny, 24 °C.' }),
    ]);
  });

  it('a tool budget running out: the stream ends with the error, then finish; both calls persisted as failed', async () => {
    mock.setScript(demoScript);
    const streamed = await (await post(question('chat-e', 'What is the weather in Atlantis?'))).text();
    expect(streamed).toContain('data: {"type":"error","errorText":"An error occurred."}');
    expect(streamed).toMatch(/"type":"finish","finishReason":"error"\}\n\ndata: \[DONE\]\n\n$/);
    expect(streamed).not.toContain('gracefulAi');
    const [, answer] = (await persisted('chat-e')) as Array<{ parts: Array<Record<string, unknown>> }>;
    const calls = answer!.parts.filter((part) => part.type === 'tool-weather');
    expect(calls.map((call) => [call.state, call.errorText])).toEqual([
      ['output-error', expect.stringContaining('No weather station in "Atlantis"')],
      ['output-error', 'The tool call failed and the run stopped.'],
    ]);
  });

  it('answers 400 with the reason for a body that is not a chat request', async () => {
    mock.setScript([]);
    const noId = await post({ messages: [] });
    expect(noId.status).toBe(400);
    expect(await noId.json()).toEqual({ error: 'expected { id: string, messages: UIMessage[] }' });
    const noMessages = await post({ id: 'x', messages: [] });
    expect(noMessages.status).toBe(400);
    expect((await noMessages.json()).error).toContain('Messages array must not be empty');
    expect(mock.requests).toHaveLength(0);
  });

  it('answers 404 for other routes', async () => {
    const response = await fetch(new URL('/nope', app.url));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'no route for GET /nope' });
  });
});
