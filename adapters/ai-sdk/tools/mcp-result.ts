/**
 * MCP tool results that report a failure. The MCP specification reports a tool's error inside its result
 * (`{ content, isError: true }`), and `@ai-sdk/mcp` returns that result as the tool's output, so the SDK (and any
 * layer that waits for a throw) would take it for a success. `gracefulTool` throws it instead, as the tool's error.
 */
import { McpToolError } from '../../../src/errors/mcp-tool-error.js';
import { read, readPath } from '../../../src/util/guarded.js';
import { isThenable } from '../../../src/util/shape.js';

/** Content items read for the message; the rest is counted. The text is bounded where it is formatted. */
const MAX_ITEMS = 20;

/** The failure an MCP tool result reports (`isError: true` with a `content` array), or `undefined`. */
export function mcpFailureOf(value: unknown, toolName: string | undefined): McpToolError | undefined {
  if (read(value, 'isError') !== true) return undefined;
  const content = read(value, 'content');
  if (!Array.isArray(content)) return undefined;
  return new McpToolError({ message: contentText(content), toolName, result: value });
}

/** What the content says: text items as they are, embedded text resources' text, other items named. */
function contentText(content: readonly unknown[]): string {
  const lines = content.slice(0, MAX_ITEMS).map((item) => {
    const type = read(item, 'type');
    const text = type === 'resource' ? readPath(item, 'resource', 'text') : read(item, 'text');
    if (typeof text === 'string') return text;
    return `[${typeof type === 'string' ? type : 'content'}]`;
  });
  if (content.length > MAX_ITEMS) lines.push(`[… ${content.length - MAX_ITEMS} more items]`);
  return lines.join('\n');
}

function checked(value: unknown, toolName: string | undefined): unknown {
  const failure = mcpFailureOf(value, toolName);
  if (failure) throw failure;
  return value;
}

/**
 * `result` as `execute` returned it, with a failed MCP result thrown as `McpToolError` (synchronously, or by the
 * promise). Anything else passes unchanged; an async iterable (preliminary results) is not inspected.
 */
export function withMcpFailuresThrown(result: unknown, toolName: string | undefined): unknown {
  return isThenable(result)
    ? Promise.resolve(result).then((value) => checked(value, toolName))
    : checked(result, toolName);
}
