/** What the wire formats share: the answer being rendered and the frames it becomes. */
import { inBandMessage } from './in-band-error.js';
import type { AnswerMeta, AnswerStep, ErrorFault, ToolCallsStep } from './vocabulary.js';

/** One SSE frame with the characters of model output it carries. */
export interface WireEvent {
  /** The complete frame text, blank line included. */
  frame: string;
  /** Characters of text or tool arguments in this frame. */
  chars: number;
  /** `false` for preamble frames the SDK does not count as output (role chunk, response.created…). */
  output: boolean;
}

/** One wire format (OpenAI chat completions or responses, Anthropic Messages, Gemini). */
export interface WireFormat {
  /** Non-streamed body. */
  json(step: AnswerStep, meta: AnswerMeta): unknown;
  /** Streamed frames; delta boundaries also fall on `breakAt` (a global output character position). */
  events(step: AnswerStep, meta: AnswerMeta, breakAt?: number): WireEvent[];
  /** An in-band error frame; `sequence` is the position it takes in the stream. */
  errorFrame(fault: ErrorFault, meta: AnswerMeta, sequence: number): string;
  /** The body of a non-streamed answer that failed in-band. */
  errorBody(fault: ErrorFault, meta: AnswerMeta): unknown;
  /**
   * The HTTP status of that body (default 200: the error object inside a successful response). A provider that
   * only reports errors by status answers with the status the error stands for.
   */
  errorStatus?(fault: ErrorFault): number;
  /** A frame whose data is not JSON. */
  garbledFrame(): string;
  /** The frames that end a stream with a finish naming no reason (`streamFault.endEarly({ finish: 'other' })`). */
  finishWithoutReason(step: AnswerStep, meta: AnswerMeta): string[];
  /**
   * Why this wire cannot carry `step` (e.g. reasoning on OpenAI chat), or `undefined` when it can. The player
   * answers such a request with an HTTP 400 naming the step and this reason.
   */
  unsupported?(step: AnswerStep, stream: boolean): string | undefined;
}

/** Default characters per streamed delta. */
export const DEFAULT_CHUNK_CHARS = 4;

/**
 * Splits `text` (which starts at global output position `offset`) into pieces of `size` characters,
 * with an extra boundary at global position `breakAt` so a fault can fall exactly there.
 */
export function splitOutput(text: string, size: number, offset: number, breakAt?: number): string[] {
  const pieces: string[] = [];
  let i = 0;
  while (i < text.length) {
    let end = Math.min(text.length, i + size);
    const local = breakAt === undefined ? -1 : breakAt - offset;
    if (local > i && local < end) end = local;
    pieces.push(text.slice(i, end));
    i = end;
  }
  return pieces;
}

/** The reasoning of a step in one shape: thinking text with its signature, or redacted data. */
export type ReasoningBlock = { text: string; signature: string } | { redacted: string };

/** The step's reasoning, with the default signature `sig_mock_<request>` filled in; `undefined` without one. */
export function reasoningOf(step: AnswerStep, meta: AnswerMeta): ReasoningBlock | undefined {
  const r = step.reasoning;
  if (r === undefined) return undefined;
  if (typeof r === 'string') return { text: r, signature: `sig_mock_${meta.n}` };
  if ('redacted' in r) return r;
  return { text: r.text, signature: r.signature ?? `sig_mock_${meta.n}` };
}

/** Characters of reasoning text a step streams (0 for none or redacted reasoning). */
export function reasoningChars(step: AnswerStep): number {
  const r = step.reasoning;
  return typeof r === 'string' ? r.length : r !== undefined && 'text' in r ? r.text.length : 0;
}

/**
 * Default usage numbers: 10 input tokens, about one output token per 4 characters of output (reasoning
 * included); `reasoning` is the reasoning's share of `output`.
 */
export function usageOf(step: AnswerStep): { input: number; output: number; reasoning: number } {
  const thinking = reasoningChars(step);
  const chars =
    thinking +
    (step.text?.length ?? 0) +
    (step.kind === 'toolCalls' ? step.calls.reduce((sum, c) => sum + argsText(c).length, 0) : 0);
  const output = step.usage?.outputTokens ?? Math.ceil(chars / 4);
  return {
    input: step.usage?.inputTokens ?? 10,
    output,
    reasoning: Math.min(output, Math.ceil(thinking / 4)),
  };
}

/** The arguments text of a scripted call as the model would send it. */
export function argsText(call: ToolCallsStep['calls'][number]): string {
  if (call.rawArgs !== undefined) return call.rawArgs;
  if (typeof call.args === 'string') return call.args;
  return JSON.stringify(call.args ?? {});
}

/** The finish reason a step reports (default `stop` for text, `tool_calls` for tool calls). */
export function finishReasonOf(step: AnswerStep): string {
  return step.finishReason ?? (step.kind === 'toolCalls' ? 'tool_calls' : 'stop');
}

/** Message of an in-band error on an OpenAI wire (its own formats; others are relayed, see `in-band-error.ts`). */
export const errorMessageOf = (fault: ErrorFault): string => inBandMessage(fault, 'openai');

/** An SSE frame with only `data:`. */
export const dataFrame = (data: unknown): string =>
  `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
