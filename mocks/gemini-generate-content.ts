/**
 * The Gemini API wire format (`:generateContent`, and `:streamGenerateContent?alt=sse`: one `data:` chunk per
 * piece, no preamble, no end marker). Shapes follow the recorded fixtures in vercel/ai
 * packages/google/src/__fixtures__/: google-text.chunks.txt (text pieces, then a last chunk with an empty text part
 * carrying the `thoughtSignature`, `finishReason` and `usageMetadata`) and google-text.json (the signature on the
 * text part); google-tool-call.chunks.txt / .json (a whole `functionCall` per part, the signature on it);
 * `thought: true` parts as in packages/google/src/google-language-model.test.ts ('should stream reasoning parts
 * separately from text parts').
 */
import { formatOf, inBandFrame, inBandPayload, inBandStatus } from './in-band-error.js';
import type { ToolCallSpec } from './script.js';
import {
  type AnswerMeta,
  type AnswerStep,
  DEFAULT_CHUNK_CHARS,
  finishReasonOf,
  reasoningOf,
  splitOutput,
  usageOf,
  type WireEvent,
  type WireFormat,
} from './wire.js';

const FINISH_REASONS: Record<string, string> = {
  stop: 'STOP',
  // Gemini has no tool-call finish reason: the SDK reports tool-calls when the answer holds function calls.
  tool_calls: 'STOP',
  length: 'MAX_TOKENS',
  content_filter: 'SAFETY',
};

type Part = Record<string, unknown>;

function usageMetadata(step: AnswerStep) {
  const { input, output, reasoning } = usageOf(step);
  return {
    promptTokenCount: input,
    candidatesTokenCount: output - reasoning,
    totalTokenCount: input + output,
    ...(reasoning > 0 ? { thoughtsTokenCount: reasoning } : {}),
  };
}

/** The step's signature (thinking or redacted), which Gemini attaches to the answer, not to the thoughts. */
function signatureOf(step: AnswerStep, meta: AnswerMeta): string | undefined {
  const reasoning = reasoningOf(step, meta);
  if (reasoning === undefined) return undefined;
  return 'redacted' in reasoning ? reasoning.redacted : reasoning.signature;
}

/** The function call parts; the first carries the signature, as Gemini sends it. Ids only when scripted. */
function callParts(step: AnswerStep, signature: string | undefined): Part[] {
  if (step.kind !== 'toolCalls') return [];
  return step.calls.map((call: ToolCallSpec, i) => ({
    functionCall: {
      ...(call.id === undefined ? {} : { id: call.id }),
      name: call.name,
      args: typeof call.args === 'string' ? JSON.parse(call.args) : (call.args ?? {}),
    },
    // google-tool-call.chunks.txt: the signature rides on the (first) function call.
    ...(i === 0 && signature !== undefined ? { thoughtSignature: signature } : {}),
  }));
}

const signed = (part: Part, signature: string | undefined): Part =>
  signature === undefined ? part : { ...part, thoughtSignature: signature };

function response(step: AnswerStep, meta: AnswerMeta, parts: Part[], finish: boolean) {
  return {
    candidates: [
      {
        content: { parts, role: 'model' },
        ...(finish ? { finishReason: FINISH_REASONS[finishReasonOf(step)] } : {}),
        index: 0,
      },
    ],
    usageMetadata: usageMetadata(step),
    modelVersion: meta.model,
    responseId: `mock_response_${meta.n}`,
  };
}

const thinkingOf = (step: AnswerStep, meta: AnswerMeta): string | undefined => {
  const reasoning = reasoningOf(step, meta);
  return reasoning !== undefined && 'text' in reasoning ? reasoning.text : undefined;
};

export const geminiFormat: WireFormat = {
  json(step, meta) {
    const signature = signatureOf(step, meta);
    const thinking = thinkingOf(step, meta);
    const calls = callParts(step, signature);
    const parts: Part[] = [
      ...(thinking === undefined ? [] : [{ text: thinking, thought: true }]),
      ...(step.text === undefined
        ? []
        : [signed({ text: step.text }, calls.length > 0 ? undefined : signature)]),
      ...calls,
    ];
    return response(step, meta, parts, true);
  },

  events(step, meta, breakAt) {
    const size = step.chunkChars ?? DEFAULT_CHUNK_CHARS;
    const events: WireEvent[] = [];
    const push = (parts: Part[], chars: number, finish = false) =>
      events.push({
        frame: `data: ${JSON.stringify(response(step, meta, parts, finish))}\n\n`,
        chars,
        output: true,
      });
    let offset = 0;
    const pieces = (text: string, part: (piece: string) => Part) => {
      for (const piece of splitOutput(text, size, offset, breakAt)) push([part(piece)], piece.length);
      offset += text.length;
    };
    const signature = signatureOf(step, meta);
    const thinking = thinkingOf(step, meta);
    if (thinking !== undefined) pieces(thinking, (text) => ({ text, thought: true }));
    pieces(step.text ?? '', (text) => ({ text }));
    const calls = callParts(step, signature);
    // A function call arrives whole: a fault position inside its arguments falls after it.
    for (const call of calls)
      push([call], JSON.stringify((call.functionCall as { args: unknown }).args).length);
    // google-text.chunks.txt: the last chunk, an empty text part with the signature, finishReason and usage.
    push([signed({ text: '' }, calls.length > 0 ? undefined : signature)], 0, true);
    return events;
  },

  /** A last chunk with Gemini's unset finish reason, `FINISH_REASON_UNSPECIFIED` (the enum's zero value). */
  finishWithoutReason(step, meta) {
    const last = response(step, meta, [{ text: '' }], false);
    const candidate = { ...last.candidates[0]!, finishReason: 'FINISH_REASON_UNSPECIFIED' };
    return [`data: ${JSON.stringify({ ...last, candidates: [candidate] })}\n\n`];
  },

  errorFrame: (fault) => inBandFrame(fault, formatOf(fault, 'gemini')),

  /** Not streamed, the API reports the error by status: the error object with the status it stands for. */
  errorBody: (fault) => inBandPayload(fault, formatOf(fault, 'gemini')),
  errorStatus: (fault) => inBandStatus(fault, formatOf(fault, 'gemini')),

  garbledFrame: () => 'data: {"candidates":[{"content":{"parts":[{"text":"garb\n\n',

  unsupported(step) {
    if (step.kind !== 'toolCalls' || step.calls.every((call) => call.rawArgs === undefined)) return undefined;
    return "rawArgs (malformed tool arguments) cannot be sent on Gemini: it sends functionCall.args as a JSON object. Script invalid arguments with args that do not match the tool's schema instead";
  },
};
