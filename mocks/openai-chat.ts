/** The Chat Completions wire format (`POST /chat/completions`), streamed and not. */
import { inBandPayload, relayedFrame, relayedPayload } from './in-band-error.js';
import {
  type AnswerMeta,
  type AnswerStep,
  argsText,
  DEFAULT_CHUNK_CHARS,
  dataFrame,
  type ErrorFault,
  finishReasonOf,
  splitOutput,
  usageOf,
  type WireEvent,
  type WireFormat,
} from './wire.js';

const callId = (step: AnswerStep, meta: AnswerMeta, i: number): string =>
  (step.kind === 'toolCalls' ? step.calls[i]?.id : undefined) ?? `call_mock_${meta.n}_${i}`;

function usage(step: AnswerStep) {
  const { input, output } = usageOf(step);
  return { prompt_tokens: input, completion_tokens: output, total_tokens: input + output };
}

/** Whether the request asked for the final usage chunk (`stream_options: { include_usage: true }`). */
function includeUsage(meta: AnswerMeta): boolean {
  const options = meta.body.stream_options;
  return (
    typeof options === 'object' &&
    options !== null &&
    (options as { include_usage?: unknown }).include_usage === true
  );
}

/** One streamed chunk; with `include_usage` every chunk carries `usage` (`null` but in the last). */
function chunkFrame(meta: AnswerMeta, choices: unknown[], usage: unknown = null): string {
  return dataFrame({
    id: `chatcmpl-mock-${meta.n}`,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    system_fingerprint: null,
    choices,
    ...(includeUsage(meta) ? { usage } : {}),
  });
}

export const chatFormat: WireFormat = {
  json(step, meta) {
    const toolCalls =
      step.kind === 'toolCalls'
        ? step.calls.map((call, i) => ({
            id: callId(step, meta, i),
            type: 'function',
            function: { name: call.name, arguments: argsText(call) },
          }))
        : undefined;
    return {
      id: `chatcmpl-mock-${meta.n}`,
      object: 'chat.completion',
      created: meta.created,
      model: meta.model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: step.text ?? null,
            refusal: null,
            ...(toolCalls ? { tool_calls: toolCalls } : {}),
          },
          logprobs: null,
          finish_reason: finishReasonOf(step),
        },
      ],
      usage: usage(step),
      system_fingerprint: null,
    };
  },

  // Chunks as recorded from the API (vercel/ai packages/openai/src/chat/__fixtures__/openai-text.chunks.txt):
  // with `include_usage` every chunk carries `usage: null` and a last chunk `choices: []` carries the usage;
  // without it there is neither (the `openai` client's ChatCompletionChunk.usage documents the same).
  events(step, meta, breakAt) {
    const size = step.chunkChars ?? DEFAULT_CHUNK_CHARS;
    const delta = (d: object, finish: string | null = null) =>
      chunkFrame(meta, [{ index: 0, delta: d, logprobs: null, finish_reason: finish }]);

    const events: WireEvent[] = [];
    let offset = 0;
    const role = { role: 'assistant', content: step.text === undefined ? null : '', refusal: null };
    events.push({ frame: delta(role), chars: 0, output: false });
    for (const piece of splitOutput(step.text ?? '', size, offset, breakAt)) {
      events.push({ frame: delta({ content: piece }), chars: piece.length, output: true });
    }
    offset += step.text?.length ?? 0;
    if (step.kind === 'toolCalls') {
      step.calls.forEach((call, index) => {
        const head = {
          index,
          id: callId(step, meta, index),
          type: 'function',
          function: { name: call.name, arguments: '' },
        };
        events.push({ frame: delta({ tool_calls: [head] }), chars: 0, output: true });
        const args = argsText(call);
        for (const piece of splitOutput(args, size, offset, breakAt)) {
          const frame = delta({ tool_calls: [{ index, function: { arguments: piece } }] });
          events.push({ frame, chars: piece.length, output: true });
        }
        offset += args.length;
      });
    }
    events.push({ frame: delta({}, finishReasonOf(step)), chars: 0, output: true });
    for (const frame of chatFormat.finishWithoutReason(step, meta))
      events.push({ frame, chars: 0, output: true });
    return events;
  },

  /** What follows the finish chunk (the usage chunk with `include_usage`, `[DONE]`), here with none before it. */
  finishWithoutReason: (step, meta) => [
    ...(includeUsage(meta) ? [chunkFrame(meta, [], usage(step))] : []),
    'data: [DONE]\n\n',
  ],

  errorFrame: (fault: ErrorFault, meta: AnswerMeta) =>
    relayedFrame(fault) ?? dataFrame(chatFormat.errorBody(fault, meta)),

  /**
   * Chat has no failed-response object: OpenAI's formats are an error body (`response.failed` like `openai`), the
   * error object OpenAI sends (`{ message, type, param, code }`); another provider's is relayed as is.
   */
  errorBody: (fault: ErrorFault) => relayedPayload(fault) ?? inBandPayload(fault, 'openai'),

  garbledFrame: () => 'data: {"id":"chatcmpl-garbled","choices":[{"index":0,"delta":{"cont\n\n',

  unsupported: (step) =>
    step.reasoning === undefined
      ? undefined
      : 'reasoning is not part of the OpenAI chat completions wire (@ai-sdk/openai reads no reasoning from it). Serve it on the responses API (openai.responses(id)), Anthropic or Gemini, or drop reasoning from this step',
};
