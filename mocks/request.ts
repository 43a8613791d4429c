/** Reading a recorded request the way the model sees it, in both wire formats. */
import type { RecordedRequest } from './script.js';

/** A tool result the model was sent. */
export interface ToolResultSeen {
  /** The tool's name, when the request names it (a responses `item_reference` does not). */
  toolName?: string;
  toolCallId: string;
  /** The result text exactly as sent. */
  output: string;
  /**
   * The error text when the result is a tool error: `@ai-sdk/openai` sends errors as `{"error":"<text>"}`.
   * `undefined` for successful results.
   */
  error?: string;
}

type Item = Record<string, unknown>;

const itemsOf = (request: RecordedRequest): Item[] => {
  const body = request.body as { messages?: unknown; input?: unknown } | undefined;
  const list = request.api === 'chat' ? body?.messages : body?.input;
  return Array.isArray(list) ? (list.filter((x) => typeof x === 'object' && x !== null) as Item[]) : [];
};

/** Text of a content value: a string, or the text parts of an array. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { text?: unknown }) => (typeof part?.text === 'string' ? part.text : ''))
    .join('');
}

function errorOf(output: string): string | undefined {
  try {
    const parsed = JSON.parse(output) as unknown;
    if (typeof parsed === 'object' && parsed !== null && Object.keys(parsed).length === 1) {
      const error = (parsed as { error?: unknown }).error;
      if (error !== undefined) return typeof error === 'string' ? error : JSON.stringify(error);
    }
  } catch {
    // plain text output
  }
  return undefined;
}

/**
 * The tool results at the end of the conversation (the ones the model is asked to react to now), in order;
 * `[]` when the last message is not a tool result.
 *
 * @example
 * // retry with a corrected path when the last tool call failed
 * (req) => lastToolResults(req).some((r) => r.error) ? reply.toolCall('read_file', { path: 'b.txt' }) : reply.text('done')
 */
export function lastToolResults(request: RecordedRequest): ToolResultSeen[] {
  const items = itemsOf(request);
  const names = new Map<string, string>();
  for (const item of items) {
    if (request.api === 'chat' && Array.isArray(item.tool_calls)) {
      for (const call of item.tool_calls as { id?: string; function?: { name?: string } }[]) {
        if (call.id && call.function?.name) names.set(call.id, call.function.name);
      }
    }
    if (item.type === 'function_call' && typeof item.call_id === 'string' && typeof item.name === 'string') {
      names.set(item.call_id, item.name);
    }
  }
  const isResult = (item: Item) =>
    request.api === 'chat' ? item.role === 'tool' : item.type === 'function_call_output';
  let start = items.length;
  while (start > 0 && isResult(items[start - 1]!)) start--;
  return items.slice(start).map((item) => {
    const toolCallId = String(request.api === 'chat' ? item.tool_call_id : item.call_id);
    const output = textOf(request.api === 'chat' ? item.content : item.output);
    const toolName = names.get(toolCallId);
    const error = errorOf(output);
    return {
      toolCallId,
      output,
      ...(toolName === undefined ? {} : { toolName }),
      ...(error === undefined ? {} : { error }),
    };
  });
}

/** The text of the last user message, or `undefined` when there is none. */
export function lastUserText(request: RecordedRequest): string | undefined {
  const users = itemsOf(request).filter((item) => item.role === 'user');
  const last = users.at(-1);
  return last === undefined ? undefined : textOf(last.content);
}

/** The names of the tools offered to the model in this request. */
export function offeredToolNames(request: RecordedRequest): string[] {
  const tools = (request.body as { tools?: unknown } | undefined)?.tools;
  if (!Array.isArray(tools)) return [];
  return tools
    .map((t: { name?: unknown; function?: { name?: unknown } }) => t?.function?.name ?? t?.name)
    .filter((name): name is string => typeof name === 'string');
}
