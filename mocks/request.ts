/** Reading a recorded request the way the model sees it, on every wire. */
import type { Api, RecordedRequest } from './vocabulary.js';

/** A tool result the model was sent. */
export interface ToolResultSeen {
  /** The tool's name, when the request names it (a responses `item_reference` does not). */
  toolName?: string;
  /** The call's id (`''` on Gemini when the request sends none, as on Vertex). */
  toolCallId: string;
  /** The result text exactly as sent (a JSON value is shown as JSON text). */
  output: string;
  /**
   * The error text when the result is a tool error, `undefined` for successful results. `@ai-sdk/openai` sends
   * errors as `{"error":"<text>"}` (here: `<text>`); Anthropic as a `tool_result` with `is_error: true`; Gemini
   * as `functionResponse.response.error`.
   */
  error?: string;
}

type Item = Record<string, unknown>;

/** How one wire lays out a conversation. */
interface Reader {
  /** The conversation's messages or items, in order. */
  items(body: Item): unknown;
  /** The text of a user message (`undefined` for anything else, e.g. a message holding only tool results). */
  userText(item: Item): string | undefined;
  /** The text of an assistant message, reasoning left out (`undefined` for anything else). */
  assistantText(item: Item): string | undefined;
  /** Tool call ids → tool names, from one item. */
  callNames(item: Item): [id: string, name: string][];
  /** The tool results at the end of the conversation (named when the result itself names its tool). */
  lastResults(items: Item[]): ToolResultSeen[];
  /** The names of the tools offered. */
  toolNames(body: Item): unknown[];
}

const objects = (list: unknown): Item[] =>
  Array.isArray(list) ? (list.filter((x) => typeof x === 'object' && x !== null) as Item[]) : [];

/** Text of a content value: a string, or the text parts of an array. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return objects(content)
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .join('');
}

/** A string as is; any other JSON value as JSON text. */
const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** The `<text>` of `{"error":"<text>"}`, the way `@ai-sdk/openai` sends a tool error. */
function openaiErrorOf(output: string): string | undefined {
  try {
    const parsed = JSON.parse(output) as unknown;
    if (typeof parsed === 'object' && parsed !== null && Object.keys(parsed).length === 1) {
      const error = (parsed as { error?: unknown }).error;
      if (error !== undefined) return asText(error);
    }
  } catch {
    // plain text output
  }
  return undefined;
}

/** The trailing run of items that are tool results, mapped. */
function trailing(items: Item[], isResult: (item: Item) => boolean, read: (item: Item) => ToolResultSeen) {
  let start = items.length;
  while (start > 0 && isResult(items[start - 1]!)) start--;
  return items.slice(start).map(read);
}

const result = (toolCallId: string, output: string, error: string | undefined, toolName?: unknown) => ({
  ...(typeof toolName === 'string' ? { toolName } : {}),
  toolCallId,
  output,
  ...(error === undefined ? {} : { error }),
});

const openaiUserText = (item: Item) => (item.role === 'user' ? textOf(item.content) : undefined);
const openaiAssistantText = (item: Item) => (item.role === 'assistant' ? textOf(item.content) : undefined);
const openaiToolNames = (body: Item) =>
  objects(body.tools).map((t) => (t.function as { name?: unknown } | undefined)?.name ?? t.name);

const READERS: Record<Api, Reader> = {
  chat: {
    items: (body) => body.messages,
    userText: openaiUserText,
    assistantText: openaiAssistantText,
    callNames: (item) =>
      objects(item.tool_calls).flatMap((call) => {
        const name = (call.function as { name?: unknown } | undefined)?.name;
        return typeof call.id === 'string' && typeof name === 'string' ? [[call.id, name]] : [];
      }),
    lastResults: (items) =>
      trailing(
        items,
        (item) => item.role === 'tool',
        (item) => {
          const output = textOf(item.content);
          return result(String(item.tool_call_id), output, openaiErrorOf(output));
        },
      ),
    toolNames: openaiToolNames,
  },
  responses: {
    items: (body) => body.input,
    userText: openaiUserText,
    assistantText: openaiAssistantText,
    callNames: (item) =>
      item.type === 'function_call' && typeof item.call_id === 'string' && typeof item.name === 'string'
        ? [[item.call_id, item.name]]
        : [],
    lastResults: (items) =>
      trailing(
        items,
        (item) => item.type === 'function_call_output',
        (item) => {
          const output = textOf(item.output);
          return result(String(item.call_id), output, openaiErrorOf(output));
        },
      ),
    toolNames: openaiToolNames,
  },
  messages: {
    items: (body) => body.messages,
    userText(item) {
      if (item.role !== 'user') return undefined;
      if (typeof item.content === 'string') return item.content;
      const texts = objects(item.content).filter((block) => block.type === 'text');
      return texts.length === 0 ? undefined : textOf(texts);
    },
    assistantText(item) {
      if (item.role !== 'assistant') return undefined;
      if (typeof item.content === 'string') return item.content;
      return textOf(objects(item.content).filter((block) => block.type === 'text'));
    },
    callNames: (item) =>
      objects(item.content).flatMap((block) =>
        block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string'
          ? [[block.id, block.name]]
          : [],
      ),
    lastResults(items) {
      const last = items.at(-1);
      if (last?.role !== 'user') return [];
      return objects(last.content)
        .filter((block) => block.type === 'tool_result')
        .map((block) => {
          const output = textOf(block.content);
          return result(String(block.tool_use_id), output, block.is_error === true ? output : undefined);
        });
    },
    toolNames: (body) => objects(body.tools).map((t) => t.name),
  },
  generateContent: {
    items: (body) => body.contents,
    userText(item) {
      if (item.role !== 'user') return undefined;
      const texts = objects(item.parts).filter((part) => typeof part.text === 'string');
      return texts.length === 0 ? undefined : textOf(texts);
    },
    assistantText: (item) =>
      item.role === 'model' ? textOf(objects(item.parts).filter((part) => part.thought !== true)) : undefined,
    // Gemini matches results to calls by name; a call's id is optional.
    callNames: () => [],
    lastResults(items) {
      const last = items.at(-1);
      if (last?.role !== 'user') return [];
      return objects(last.parts).flatMap((part) => {
        const response = part.functionResponse as
          | { id?: unknown; name?: unknown; response?: Item }
          | undefined;
        if (typeof response !== 'object' || response === null) return [];
        const body = response.response ?? {};
        const error = body.error === undefined ? undefined : asText(body.error);
        const id = typeof response.id === 'string' ? response.id : '';
        return [result(id, error ?? asText(body.content), error, response.name)];
      });
    },
    toolNames: (body) =>
      objects(body.tools).flatMap((tool) => objects(tool.functionDeclarations).map((f) => f.name)),
  },
};

function bodyOf(request: RecordedRequest): Item {
  const body = request.body;
  return typeof body === 'object' && body !== null ? (body as Item) : {};
}

const itemsOf = (request: RecordedRequest): Item[] => objects(READERS[request.api].items(bodyOf(request)));

/**
 * The tool results at the end of the conversation (the ones the model is asked to react to now), in order;
 * `[]` when the last message is not a tool result.
 *
 * @example
 * // retry with a corrected path when the last tool call failed
 * (req) => lastToolResults(req).some((r) => r.error) ? reply.toolCall('read_file', { path: 'b.txt' }) : reply.text('done')
 */
export function lastToolResults(request: RecordedRequest): ToolResultSeen[] {
  const reader = READERS[request.api];
  const items = itemsOf(request);
  const names = new Map(items.flatMap((item) => reader.callNames(item)));
  return reader.lastResults(items).map((seen) => {
    const toolName = seen.toolName ?? names.get(seen.toolCallId);
    return toolName === undefined ? seen : { ...seen, toolName };
  });
}

/** The text of the last user message, or `undefined` when there is none. */
export function lastUserText(request: RecordedRequest): string | undefined {
  const reader = READERS[request.api];
  return itemsOf(request)
    .map((item) => reader.userText(item))
    .filter((text): text is string => text !== undefined)
    .at(-1);
}

/**
 * The text of the assistant message the conversation ends with (a prefill, which the model is to continue), or
 * `undefined` when the last message is not the assistant's. The stream guard sends one on Anthropic Messages to
 * recover a cut stream: answer it with the rest of the text.
 *
 * @example
 * // the first stream is cut; the recovery request continues what was shown
 * (req, { index }) => index === 0
 *   ? reply.text(answer, { fault: streamFault.cut({ afterChars: 20 }) })
 *   : reply.text(answer.slice(assistantPrefill(req)?.length ?? 0))
 */
export function assistantPrefill(request: RecordedRequest): string | undefined {
  const reader = READERS[request.api];
  const texts: string[] = [];
  // The responses wire may send one assistant turn as several message items.
  for (const item of itemsOf(request).toReversed()) {
    const text = reader.assistantText(item);
    if (text === undefined) break;
    texts.unshift(text);
  }
  return texts.length === 0 ? undefined : texts.join('');
}

/** The names of the tools offered to the model in this request. */
export function offeredToolNames(request: RecordedRequest): string[] {
  return READERS[request.api]
    .toolNames(bodyOf(request))
    .filter((name): name is string => typeof name === 'string');
}
