/**
 * The Anthropic Messages wire format (`POST /v1/messages`), streamed (named SSE events) and not. Shapes follow the
 * recorded fixtures in vercel/ai packages/anthropic/src/__fixtures__/: anthropic-text.chunks.txt (message_start,
 * a ping after the first content_block_start, text_delta, message_delta with stop_reason and usage, message_stop)
 * and anthropic-text.json; anthropic-json-other-tool.1.chunks.txt / .json (tool_use: an empty input_json_delta,
 * then the arguments); anthropic-clear-thinking.1.chunks.txt (thinking_delta…, then signature_delta);
 * redacted_thinking as in packages/anthropic/src/anthropic-language-model.test.ts.
 */
import { formatOf, inBandFrame, inBandPayload, inBandStatus } from './in-band-error.js';
import type { ToolCallSpec } from './script.js';
import {
  type AnswerMeta,
  type AnswerStep,
  argsText,
  DEFAULT_CHUNK_CHARS,
  finishReasonOf,
  type ReasoningBlock,
  reasoningOf,
  splitOutput,
  usageOf,
  type WireEvent,
  type WireFormat,
} from './wire.js';

const STOP_REASONS: Record<string, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  content_filter: 'refusal',
};

const toolUseId = (call: ToolCallSpec, meta: AnswerMeta, i: number) => call.id ?? `toolu_mock_${meta.n}_${i}`;

const inputOf = (call: ToolCallSpec): unknown =>
  typeof call.args === 'string' ? JSON.parse(call.args) : (call.args ?? {});

function usage(step: AnswerStep, outputTokens: number) {
  return {
    input_tokens: usageOf(step).input,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: outputTokens,
  };
}

/** The usage of `message_start` and of a whole message: the cache breakdown and service tier too (anthropic-text.json). */
const fullUsage = (step: AnswerStep, outputTokens: number) => ({
  ...usage(step, outputTokens),
  cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
  service_tier: 'standard',
});

const message = (meta: AnswerMeta, rest: object) => ({
  model: meta.model,
  id: `msg_mock_${meta.n}`,
  type: 'message',
  role: 'assistant',
  ...rest,
});

const reasoningBlock = (r: ReasoningBlock) =>
  'redacted' in r
    ? // anthropic-language-model.test.ts: content_block_start {"type":"redacted_thinking","data":…}
      { type: 'redacted_thinking', data: r.redacted }
    : { type: 'thinking', thinking: r.text, signature: r.signature };

type EventData = { type: string; [field: string]: unknown };

const eventFrame = (data: EventData): string => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;

/** `message_start`'s message: no content yet, no stop reason, one output token. */
const startState = (step: AnswerStep) => ({
  content: [],
  stop_reason: null,
  stop_sequence: null,
  usage: fullUsage(step, 1),
});

export const anthropicMessagesFormat: WireFormat = {
  json(step, meta) {
    const reasoning = reasoningOf(step, meta);
    const content = [
      ...(reasoning ? [reasoningBlock(reasoning)] : []),
      ...(step.text === undefined ? [] : [{ type: 'text', text: step.text }]),
      ...(step.kind === 'toolCalls'
        ? step.calls.map((call, i) => ({
            type: 'tool_use',
            id: toolUseId(call, meta, i),
            name: call.name,
            input: inputOf(call),
          }))
        : []),
    ];
    return message(meta, {
      content,
      stop_reason: STOP_REASONS[finishReasonOf(step)],
      stop_sequence: null,
      usage: fullUsage(step, usageOf(step).output),
    });
  },

  events(step, meta, breakAt) {
    const size = step.chunkChars ?? DEFAULT_CHUNK_CHARS;
    const events: WireEvent[] = [];
    const push = (data: EventData, chars = 0, output = true) =>
      events.push({ frame: eventFrame(data), chars, output });
    let index = 0;
    let offset = 0;
    /**
     * One content block: its start (then a ping after the first, as the API sends), an optional `first` delta,
     * the deltas carrying `text`, an optional `last` delta, its stop.
     */
    const block = (
      start: object,
      text = '',
      delta: (piece: string) => object = () => ({}),
      edges: { first?: object; last?: object } = {},
    ) => {
      push({ type: 'content_block_start', index, content_block: start });
      if (index === 0) push({ type: 'ping' }, 0, false);
      if (edges.first) push({ type: 'content_block_delta', index, delta: edges.first });
      for (const piece of splitOutput(text, size, offset, breakAt)) {
        push({ type: 'content_block_delta', index, delta: delta(piece) }, piece.length);
      }
      if (edges.last) push({ type: 'content_block_delta', index, delta: edges.last });
      push({ type: 'content_block_stop', index });
      offset += text.length;
      index++;
    };

    push({ type: 'message_start', message: message(meta, startState(step)) }, 0, false);
    const reasoning = reasoningOf(step, meta);
    if (reasoning && 'redacted' in reasoning) block(reasoningBlock(reasoning));
    else if (reasoning) {
      const thinking = (text: string) => ({ type: 'thinking_delta', thinking: text });
      // anthropic-clear-thinking.1.chunks.txt: the signature arrives last, as its own delta.
      const last = { type: 'signature_delta', signature: reasoning.signature };
      block({ type: 'thinking', thinking: '', signature: '' }, reasoning.text, thinking, { last });
    }
    if (step.text !== undefined)
      block({ type: 'text', text: '' }, step.text, (text) => ({ type: 'text_delta', text }));
    if (step.kind === 'toolCalls') {
      const json = (partial_json: string) => ({ type: 'input_json_delta', partial_json });
      step.calls.forEach((call, i) => {
        const start = { type: 'tool_use', id: toolUseId(call, meta, i), name: call.name, input: {} };
        // anthropic-json-other-tool.1.chunks.txt: an empty input_json_delta opens the arguments.
        block(start, argsText(call), json, { first: json('') });
      });
    }
    const stop = { stop_reason: STOP_REASONS[finishReasonOf(step)], stop_sequence: null };
    push({ type: 'message_delta', delta: stop, usage: usage(step, usageOf(step).output) });
    push({ type: 'message_stop' });
    return events;
  },

  /** `message_delta` with `stop_reason: null`, then `message_stop`. */
  finishWithoutReason: (step) => [
    eventFrame({
      type: 'message_delta',
      delta: { stop_reason: null, stop_sequence: null },
      usage: usage(step, usageOf(step).output),
    }),
    eventFrame({ type: 'message_stop' }),
  ],

  errorFrame: (fault) => inBandFrame(fault, formatOf(fault, 'anthropic')),

  /** Not streamed, the API reports the error by status: the error object with the status it stands for. */
  errorBody: (fault) => inBandPayload(fault, formatOf(fault, 'anthropic')),
  errorStatus: (fault) => inBandStatus(fault, formatOf(fault, 'anthropic')),

  garbledFrame: () =>
    'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_del\n\n',

  unsupported(step, stream) {
    if (stream || step.kind !== 'toolCalls' || step.calls.every((call) => call.rawArgs === undefined)) {
      return undefined;
    }
    return 'rawArgs (malformed tool arguments) can only be streamed on Anthropic Messages (input_json_delta): a non-streamed message carries tool_use input as a JSON object. Stream the request, or script invalid arguments with args';
  },
};
