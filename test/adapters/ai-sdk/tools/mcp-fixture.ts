/**
 * Official MCP servers (`@modelcontextprotocol/sdk`'s `McpServer`) and the AI SDK's MCP client (`@ai-sdk/mcp`),
 * connected in process: over the MCP SDK's linked in-memory transports, or over Streamable HTTP with the server's
 * web-standard transport answering the client's `fetch` directly (no socket).
 */
import { randomUUID } from 'node:crypto';
import { createMCPClient, type MCPClient } from '@ai-sdk/mcp';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

/** Registers the server's tools. */
export type RegisterTools = (server: McpServer) => void;

const newServer = (register: RegisterTools) => {
  const server = new McpServer({ name: 'test-server', version: '1.0.0' });
  register(server);
  return server;
};

/**
 * A server and a client over linked in-memory transports. `serverGone()` closes the server's end: the client's
 * pending requests fail with "Connection closed", later ones with "Attempted to send a request from a closed client".
 */
export async function inMemoryMcp(register: RegisterTools) {
  const server = newServer(register);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = await createMCPClient({ transport: clientTransport });
  return {
    client,
    tools: await client.tools(),
    serverGone: () => serverTransport.close(),
    close: () => client.close(),
  };
}

/**
 * A Streamable HTTP server whose sessions live in a map, as the MCP SDK's examples keep them; `expireSessions()`
 * forgets them all, and requests with a forgotten session id are answered 404 "Session not found" (the MCP
 * specification's answer to an ended session, in the JSON-RPC error the SDK's transport uses for it). `connect()`
 * makes a new `@ai-sdk/mcp` client (a new session) whose requests the servers answer through `fetch`.
 */
export function httpMcp(register: RegisterTools) {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const handle = async (request: Request): Promise<Response> => {
    const id = request.headers.get('mcp-session-id');
    const known = id === null ? undefined : sessions.get(id);
    if (known) return known.handleRequest(request);
    if (id !== null) {
      const body = { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null };
      return Response.json(body, { status: 404 });
    }
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      enableJsonResponse: true,
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, transport);
      },
    });
    await newServer(register).connect(transport);
    return transport.handleRequest(request);
  };
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => handle(new Request(input, init));
  return {
    connect: (): Promise<MCPClient> =>
      createMCPClient({ transport: { type: 'http', url: 'http://mcp.test/mcp', fetch } }),
    expireSessions: () => sessions.clear(),
  };
}
