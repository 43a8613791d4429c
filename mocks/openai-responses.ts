/** The Responses API wire format (`POST /responses`), streamed (named SSE events) and not. */
import { relayedFrame, relayedPayload } from './in-band-error.js';
import { reasoningEvents, reasoningItems } from './openai-reasoning.js';
import {
  type AnswerMeta,
  type AnswerStep,
  argsText,
  DEFAULT_CHUNK_CHARS,
  type ErrorFault,
  errorMessageOf,
  finishReasonOf,
  reasoningChars,
  splitOutput,
  usageOf,
  type WireEvent,
  type WireFormat,
} from './wire.js';

const ids = (meta: AnswerMeta) => ({ response: `resp_mock_${meta.n}`, message: `msg_mock_${meta.n}` });

function usage(step: AnswerStep) {
  const { input, output } = usageOf(step);
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + output,
  };
}

/** `status` and `incomplete_details` for a scripted finish reason (tool calls are implied by the items). */
function outcome(step: AnswerStep) {
  const reason = finishReasonOf(step);
  if (reason === 'length')
    return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  if (reason === 'content_filter')
    return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  return { status: 'completed', incomplete_details: null };
}

function messageItem(step: AnswerStep, meta: AnswerMeta, status: 'in_progress' | 'completed') {
  const content =
    status === 'completed'
      ? [{ type: 'output_text', text: step.text ?? '', annotations: [], logprobs: [] }]
      : [];
  return { type: 'message', id: ids(meta).message, status, role: 'assistant', content };
}

function callItems(step: AnswerStep, meta: AnswerMeta, status: 'in_progress' | 'completed') {
  if (step.kind !== 'toolCalls') return [];
  return step.calls.map((call, i) => ({
    type: 'function_call',
    id: `fc_mock_${meta.n}_${i}`,
    call_id: call.id ?? `call_mock_${meta.n}_${i}`,
    name: call.name,
    arguments: status === 'completed' ? argsText(call) : '',
    status,
  }));
}

function responseObject(step: AnswerStep, meta: AnswerMeta, state: 'in_progress' | 'done') {
  const done = state === 'done';
  const output = done
    ? [
        ...reasoningItems(step, meta),
        ...(step.text === undefined ? [] : [messageItem(step, meta, 'completed')]),
        ...callItems(step, meta, 'completed'),
      ]
    : [];
  return {
    id: ids(meta).response,
    object: 'response',
    created_at: meta.created,
    model: meta.model,
    output,
    error: null,
    ...(done
      ? { ...outcome(step), usage: usage(step) }
      : { status: 'in_progress', incomplete_details: null, usage: null }),
  };
}

/** The error object of an in-band failure: `{ type, code, message, param }`. */
const errorObject = (fault: ErrorFault) => ({
  type: fault.type ?? 'server_error',
  code: fault.code ?? 'server_error',
  message: errorMessageOf(fault),
  param: fault.param ?? null,
});

/**
 * A failed response. Streamed, its `error` holds only `code` and `message`, as recorded from the API (vercel/ai
 * packages/openai/src/responses/__fixtures__/openai-error.1.chunks.txt) and typed by the `openai` client
 * (`ResponseError`); a non-streamed body keeps the whole error object, which `@ai-sdk/openai`'s response schema
 * requires (`type` included).
 */
function failedResponse(fault: ErrorFault, meta: AnswerMeta, streamed: boolean) {
  const { code, message, ...rest } = errorObject(fault);
  const error = streamed ? { code, message } : { ...rest, code, message };
  return {
    id: ids(meta).response,
    object: 'response',
    created_at: meta.created,
    model: meta.model,
    status: 'failed',
    output: [],
    error,
    incomplete_details: null,
    usage: null,
  };
}

const eventFrame = (data: Record<string, unknown> & { type: string }): string =>
  `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;

export const responsesFormat: WireFormat = {
  json: (step, meta) => responseObject(step, meta, 'done'),

  events(step, meta, breakAt) {
    const size = step.chunkChars ?? DEFAULT_CHUNK_CHARS;
    const events: WireEvent[] = [];
    const push = (data: Record<string, unknown> & { type: string }, chars = 0, output = true) =>
      events.push({ frame: eventFrame({ ...data, sequence_number: events.length }), chars, output });

    push({ type: 'response.created', response: responseObject(step, meta, 'in_progress') }, 0, false);
    push({ type: 'response.in_progress', response: responseObject(step, meta, 'in_progress') }, 0, false);
    const reasoning = reasoningEvents(step, meta, size, breakAt);
    for (const event of reasoning) push(event.data, event.chars);
    let outputIndex = reasoning.length > 0 ? 1 : 0;
    let offset = reasoningChars(step);
    if (step.text !== undefined) {
      const item_id = ids(meta).message;
      const at = { item_id, output_index: outputIndex, content_index: 0 };
      push({
        type: 'response.output_item.added',
        output_index: outputIndex,
        item: messageItem(step, meta, 'in_progress'),
      });
      push({
        type: 'response.content_part.added',
        ...at,
        part: { type: 'output_text', text: '', annotations: [] },
      });
      for (const delta of splitOutput(step.text, size, offset, breakAt)) {
        push({ type: 'response.output_text.delta', ...at, delta, logprobs: [] }, delta.length);
      }
      push({ type: 'response.output_text.done', ...at, text: step.text, logprobs: [] });
      push({
        type: 'response.content_part.done',
        ...at,
        part: { type: 'output_text', text: step.text, annotations: [] },
      });
      push({
        type: 'response.output_item.done',
        output_index: outputIndex,
        item: messageItem(step, meta, 'completed'),
      });
      offset += step.text.length;
      outputIndex++;
    }
    const added = callItems(step, meta, 'in_progress');
    const done = callItems(step, meta, 'completed');
    added.forEach((item, i) => {
      const doneItem = done[i]!;
      const at = { item_id: item.id, output_index: outputIndex };
      push({ type: 'response.output_item.added', output_index: outputIndex, item });
      for (const delta of splitOutput(doneItem.arguments, size, offset, breakAt)) {
        push({ type: 'response.function_call_arguments.delta', ...at, delta }, delta.length);
      }
      push({ type: 'response.function_call_arguments.done', ...at, arguments: doneItem.arguments });
      push({ type: 'response.output_item.done', output_index: outputIndex, item: doneItem });
      offset += doneItem.arguments.length;
      outputIndex++;
    });
    const final = responseObject(step, meta, 'done');
    push({
      type: final.status === 'incomplete' ? 'response.incomplete' : 'response.completed',
      response: final,
    });
    return events;
  },

  /** The Responses API has no finish without a reason: the stream ends before any terminal response event. */
  finishWithoutReason: () => [],

  errorFrame(fault: ErrorFault, meta, sequence) {
    // Another provider's frame is relayed verbatim (no `sequence_number`).
    const relayed = relayedFrame(fault);
    if (relayed !== undefined) return relayed;
    const message = errorMessageOf(fault);
    if (fault.format === 'response.failed') {
      const response = failedResponse(fault, meta, true);
      if (!fault.errorEvent)
        return eventFrame({ type: 'response.failed', sequence_number: sequence, response });
      // The real API sends an `error` event with the whole error object, then `response.failed` (same fixture).
      return (
        eventFrame({ type: 'error', sequence_number: sequence, error: errorObject(fault) }) +
        eventFrame({ type: 'response.failed', sequence_number: sequence + 1, response })
      );
    }
    const code = fault.code ?? 'server_error';
    return eventFrame({ type: 'error', sequence_number: sequence, code, message, param: null });
  },

  /** A non-streamed failed response (`status: "failed"`); another provider's error object is relayed as is. */
  errorBody: (fault: ErrorFault, meta) => relayedPayload(fault) ?? failedResponse(fault, meta, false),

  garbledFrame: () =>
    'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","del\n\n',
};
