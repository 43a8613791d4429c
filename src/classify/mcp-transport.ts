// MCP transport failures: the connection to an MCP server, not the tool, failed. Read from the facts the classifier
// reads (an `MCPClientError` of `@ai-sdk/mcp`, by name, and its message), so the core stays free of the SDK.

import type { ErrorFacts } from './error-facts.js';

/** The MCP transport failures graceful-ai recognises, as the reason `classifyError` gives them. */
export type McpTransportReason = 'mcp:session-expired' | 'mcp:connection-closed' | 'mcp:not-connected';

/** What an MCP transport failure is: its reason, and whether the request can have reached the server's tool. */
export interface McpTransportFailure {
  reason: McpTransportReason;
  /** `true` when the failure proves the request never ran (see `provesNotExecuted`). */
  notExecuted: boolean;
}

/** The error names of MCP clients: `@ai-sdk/mcp`'s `MCPClientError` (its `name`, with and without the prefix). */
const clientErrorNames = new Set(['MCPClientError', 'AI_MCPClientError']);

const rules: ReadonlyArray<{ pattern: RegExp; failure: McpTransportFailure }> = [
  // Streamable HTTP: the server answered 404 to the session id (it restarted, or the session timed out). The MCP
  // specification has the client start a new session; `@ai-sdk/mcp` says "The MCP session expired", the official
  // server "Session not found". The server refused the request before handling it.
  {
    pattern: /\bMCP session expired\b|\bsession not found\b/i,
    failure: { reason: 'mcp:session-expired', notExecuted: true },
  },
  // The client was closed, or its transport never connected: nothing was sent. `@ai-sdk/mcp`: "Attempted to send a
  // request from a closed client"; its SSE and stdio transports: "… Not connected", "… not connected".
  {
    pattern: /\brequest from a closed client\b|\bnot connected\b/i,
    failure: { reason: 'mcp:not-connected', notExecuted: true },
  },
  // The connection closed while the request was pending (the server went away): it may have run.
  { pattern: /\bconnection closed\b/i, failure: { reason: 'mcp:connection-closed', notExecuted: false } },
];

/**
 * The MCP transport failure `facts` describe, or `undefined`. Each is transient (a new connection can succeed); the
 * client that raised it stays unusable, so reconnect (docs/graceful-tool.md, "MCP tools").
 */
export function mcpTransportFailure(facts: ErrorFacts): McpTransportFailure | undefined {
  if (!facts.names.some((name) => clientErrorNames.has(name))) return undefined;
  return rules.find(({ pattern }) => pattern.test(facts.text))?.failure;
}
