/** Recorded requests and dynamic scripts: what the model was sent, in both wire formats and transports. */
import { generateText, isStepCount, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  fault,
  lastToolResults,
  lastUserText,
  offeredToolNames,
  reply,
  type ScriptFunction,
  streamFault,
} from '../../mocks/index.js';
import { transports } from './harness.js';

const readFile = tool({
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => {
    if (path !== 'notes/todo.txt') throw new Error(`ENOENT: no such file '${path}'`);
    return 'buy milk';
  },
});

describe.each(transports)('recording over $name', (t) => {
  t.use();

  describe.each(['chat', 'responses'] as const)('%s API', (api) => {
    it('records method, path, parsed body, headers, time, api and stream', async () => {
      const { openai, requests } = await t.start([reply.text('hi')]);
      const model = api === 'chat' ? openai.chat('gpt-4o') : openai.responses('gpt-4o');
      const before = Date.now();
      await streamText({ model, prompt: 'Say hi', maxRetries: 0 }).text;
      const [request] = requests;
      expect(request).toMatchObject({
        method: 'POST',
        path: api === 'chat' ? '/v1/chat/completions' : '/v1/responses',
        api,
        stream: true,
        body: { model: 'gpt-4o', stream: true },
        headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
      });
      expect(request!.time).toBeGreaterThanOrEqual(before);
      expect(lastUserText(request!)).toBe('Say hi');
    });

    it('runs the issue example: 429, a cut stream, a tool error, a corrected call, then done', async () => {
      const dynamic: ScriptFunction = (request) => {
        const [last] = lastToolResults(request);
        if (last?.error !== undefined) return reply.toolCall('read_file', { path: 'notes/todo.txt' });
        return reply.text('done');
      };
      const { openai, requests } = await t.start({
        steps: [
          fault.rateLimit({ retryAfterSeconds: 0, retryAfterMs: 1 }),
          reply.text('Hello', { fault: streamFault.cut({ afterChars: 3 }) }),
          reply.toolCall('read_file', { path: 'todo.txt' }),
        ],
        rest: dynamic,
      });
      const model = api === 'chat' ? openai.chat('gpt-4o') : openai.responses('gpt-4o');
      // 429 then a cut: the SDK retries the 429 (maxRetries 1), then the cut rejects the stream.
      const first = streamText({ model, prompt: 'Read my todo list', maxRetries: 1, onError: () => {} });
      await expect(first.text).rejects.toMatchObject({ statusCode: 200 });
      expect(requests).toHaveLength(2);

      const result = await generateText({
        model,
        prompt: 'Read my todo list',
        maxRetries: 0,
        tools: { read_file: readFile },
        stopWhen: isStepCount(5),
      });
      expect(result.text).toBe('done');
      expect(requests).toHaveLength(5);

      // The exact tool-error text the model was sent, and the successful result after the correction.
      expect(lastToolResults(requests[3]!)).toEqual([
        {
          toolName: 'read_file',
          toolCallId: 'call_mock_3_0',
          output: JSON.stringify({ error: "Error: ENOENT: no such file 'todo.txt'" }),
          error: "Error: ENOENT: no such file 'todo.txt'", // err.toString()
        },
      ]);
      expect(lastToolResults(requests[4]!)).toEqual([
        { toolName: 'read_file', toolCallId: 'call_mock_4_0', output: 'buy milk' },
      ]);
      expect(offeredToolNames(requests[2]!)).toEqual(['read_file']);
      expect(lastToolResults(requests[2]!)).toEqual([]);
    });
  });
});
