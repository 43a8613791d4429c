/**
 * A plain-object LanguageModelV4 (no provider, no network) whose first stream is cut mid-answer by a retryable 503,
 * as an overloaded upstream would. graceful-ai's drop-in `streamText` recovers it with one `doGenerate` and streams
 * only the rest of the answer, so the client sees each character once.
 */
import { streamText } from 'graceful-ai';

export const ANSWER = 'Paris is the capital of France.';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

function streamOf(parts) {
  let i = 0;
  return new ReadableStream(
    {
      pull(controller) {
        const part = parts[i++];
        if (part !== undefined) controller.enqueue(part);
        else controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}

/** A fresh mock per request: the first stream is cut after 'Paris is the capital'. */
function cutModel() {
  return {
    specificationVersion: 'v4',
    provider: 'next-app-example',
    modelId: 'cut-mid-answer',
    supportedUrls: {},
    async doGenerate() {
      return {
        content: [{ type: 'text', text: ANSWER }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      };
    },
    async doStream() {
      return {
        stream: streamOf([
          { type: 'stream-start', warnings: [] },
          { type: 'response-metadata', id: 'r1', modelId: 'cut-mid-answer' },
          { type: 'text-start', id: 't1' },
          { type: 'text-delta', id: 't1', delta: 'Paris ' },
          { type: 'text-delta', id: 't1', delta: 'is the ' },
          { type: 'text-delta', id: 't1', delta: 'capital' },
          {
            type: 'error',
            error: {
              message: 'upstream overloaded',
              statusCode: 503,
              [Symbol.for('vercel.ai.providerStreamError')]: true,
            },
          },
        ]),
      };
    },
  };
}

/** The route handlers' shared body: stream the recovered answer as plain text. */
export function answer() {
  const result = streamText({
    model: cutModel(),
    prompt: 'What is the capital of France?',
    streamGuard: { sleep: async () => {} },
  });
  return result.toTextStreamResponse();
}
