/**
 * MCP tools through graceful-ai, with the official MCP server (`@modelcontextprotocol/sdk`) and the AI SDK's MCP client
 * (`@ai-sdk/mcp`) in process. The server turns a tool's exception into a result with `isError: true`, which the client
 * returns as an ordinary output: graceful-ai must treat it as the failure it is, in every layer. Transport failures
 * (the server gone, the session expired) are classified, and the reconnect recipe of docs/graceful-tool.md works.
 */
import type { MCPClient } from '@ai-sdk/mcp';
import { isStepCount, readUIMessageStream, type ToolExecutionOptions, type ToolSet } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generateText } from '../../../../adapters/ai-sdk/drop-in/generate-text.js';
import { streamText } from '../../../../adapters/ai-sdk/drop-in/stream-text.js';
import { gracefulTools } from '../../../../adapters/ai-sdk/tools/graceful-tool.js';
import { classifyError } from '../../../../src/classify/classify.js';
import { CircuitOpenError } from '../../../../src/errors/circuit-open-error.js';
import { McpToolError } from '../../../../src/errors/mcp-tool-error.js';
import { UnexpectedModelBehavior } from '../../../../src/errors/unexpected-model-behavior.js';
import { modelText } from '../../../../src/model-text/model-text.js';
import { provesNotExecuted } from '../../../../src/policy/safe-retry.js';
import { isolatedTelemetry, virtualTime } from '../../../src/policy/fixtures.js';
import { lastToolOutputs, scriptedModel } from '../scripted-model.js';
import { httpMcp, inMemoryMcp } from './mcp-fixture.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A server with `reserve` (writes; throws for a sku it lacks) and `lookup` (read-only; its first `flaky` calls fail). */
async function inventory(flaky = 0) {
  const calls = { reserve: 0, lookup: 0 };
  const mcp = await inMemoryMcp((server) => {
    server.registerTool('reserve', { inputSchema: { sku: z.string() } }, async ({ sku }) => {
      calls.reserve++;
      if (sku !== 'A1') throw new Error(`No stock for sku ${sku}: order A1 instead`);
      return { content: [{ type: 'text', text: 'reserved A1' }] };
    });
    server.registerTool(
      'lookup',
      { inputSchema: { sku: z.string() }, annotations: { readOnlyHint: true } },
      async ({ sku }) => {
        if (++calls.lookup <= flaky) throw new Error('inventory database connection lost');
        return { content: [{ type: 'text', text: `${sku}: 4 in stock` }] };
      },
    );
  });
  closers.push(mcp.close);
  return { ...mcp, calls };
}

const runtime = () => ({ ...virtualTime(), random: () => 0.5, telemetry: isolatedTelemetry().telemetry });

/** What the SDK hands `execute`, for calls made directly. */
const execOptions = (toolCallId: string) =>
  ({ toolCallId, messages: [] }) as unknown as ToolExecutionOptions<never>;

/** The drop-in `generateText` with `tools` (automatic retries on a virtual clock), up to 3 steps. */
const run = (model: ReturnType<typeof scriptedModel>, tools: ToolSet, gracefulTools = {}) =>
  generateText({
    model,
    prompt: 'Go.',
    tools,
    stopWhen: isStepCount(3),
    gracefulTools: { runtime: runtime(), ...gracefulTools },
  });

/** The model calls `tool` with `sku` in each of the first `times` steps, then answers. */
const caller = (tool: string, sku: string, times = 1) =>
  scriptedModel((step) => (step < times ? { calls: [[tool, { sku }]] } : { text: 'done' }));

describe('an MCP result with isError: true is a tool failure', () => {
  it('generateText: the model reads the error with guidance, the step holds a tool-error with the McpToolError', async () => {
    const { tools, calls } = await inventory();
    const model = caller('reserve', 'B7');
    const result = await run(model, tools);
    const [told] = model.doGenerateCalls.flatMap((call) => lastToolOutputs(call));
    expect(told?.output).toEqual({
      type: 'error-text',
      value: `McpToolError: No stock for sku B7: order A1 instead\n\n${modelText.guidance.retry}`,
    });
    const failed = result.steps[0]!.content.find((part) => part.type === 'tool-error');
    expect(McpToolError.isInstance(failed?.error)).toBe(true);
    expect((failed!.error as McpToolError).result).toMatchObject({ isError: true });
    expect(result.steps[0]!.content.some((part) => part.type === 'tool-result')).toBe(false);
    expect(calls.reserve).toBe(1); // `reserve` is not idempotent: never re-run automatically
    expect(result.text).toBe('done');
  });

  it('streamText: a tool-error part in the stream and an output-error tool part in the UI message', async () => {
    const { tools } = await inventory();
    const result = streamText({
      model: caller('reserve', 'B7'),
      prompt: 'Reserve B7.',
      tools,
      stopWhen: isStepCount(3),
      gracefulTools: { runtime: runtime() },
    });
    let last: { parts: { type: string; state?: string; errorText?: string }[] } | undefined;
    for await (const message of readUIMessageStream({ stream: result.toUIMessageStream() })) last = message;
    const toolPart = last?.parts.find((part) => part.type === 'dynamic-tool');
    expect(toolPart?.state).toBe('output-error');
    expect(toolPart?.errorText).toContain('No stock for sku B7');
    const steps = await result.steps;
    expect(steps[0]!.content.map((part) => part.type)).toContain('tool-error');
  });

  it('counts against retries: a second failure in a row fails the run with UnexpectedModelBehavior', async () => {
    const { tools } = await inventory();
    const error = await run(caller('reserve', 'B7', 2), tools).catch((e: unknown) => e);
    expect(UnexpectedModelBehavior.isInstance(error)).toBe(true);
    expect(McpToolError.isInstance((error as Error).cause)).toBe(true);
  });

  it('counts for the breaker: after failureThreshold failures the call is rejected without reaching the server', async () => {
    const { tools, calls } = await inventory();
    const wrapped = gracefulTools(tools, {
      autoRetry: false,
      breaker: { failureThreshold: 2 },
      runtime: runtime(),
    });
    const call = (id: string) =>
      Promise.resolve(wrapped.reserve!.execute!({ sku: 'B7' }, execOptions(id))).catch((e: unknown) => e);
    expect(McpToolError.isInstance(await call('1'))).toBe(true);
    expect(McpToolError.isInstance(await call('2'))).toBe(true);
    expect(CircuitOpenError.isInstance(await call('3'))).toBe(true);
    expect(calls.reserve).toBe(2);
  });

  it('a readOnlyHint tool is retried automatically and the model gets the success', async () => {
    const { tools, calls } = await inventory(2);
    const model = caller('lookup', 'A1');
    await run(model, tools);
    expect(calls.lookup).toBe(3);
    const [told] = model.doGenerateCalls.flatMap((call) => lastToolOutputs(call));
    expect(told?.output).toMatchObject({
      type: 'content',
      value: [{ type: 'text', text: 'A1: 4 in stock' }],
    });
  });

  it('without the annotation (idempotent: false wins) the same failure goes to the model after one call', async () => {
    const { tools, calls } = await inventory(2);
    const model = caller('lookup', 'A1');
    await run(model, tools, { idempotent: false });
    expect(calls.lookup).toBe(1);
    const [told] = model.doGenerateCalls.flatMap((call) => lastToolOutputs(call));
    expect(told?.output).toMatchObject({ type: 'error-text' });
  });

  it("the MCP SDK's input validation error is permanent: the model is asked to fix its call, no automatic retry", async () => {
    const { tools, calls } = await inventory();
    const model = scriptedModel((step) =>
      step === 0 ? { calls: [['lookup', { sku: 42 }]] } : { text: 'done' },
    );
    const result = await run(model, tools);
    const failed = result.steps[0]!.content.find((part) => part.type === 'tool-error');
    expect(String((failed!.error as Error).message)).toMatch(/^MCP error -32602: Input validation error/);
    expect(classifyError(failed?.error).kind).toBe('permanent');
    const [told] = model.doGenerateCalls.flatMap((call) => lastToolOutputs(call));
    expect((told!.output as { value: string }).value.endsWith(modelText.guidance.retry)).toBe(true);
    expect(calls.lookup).toBe(0);
  });

  it('a successful result (isError: false) stays an output', async () => {
    const { tools } = await inventory();
    const model = caller('reserve', 'A1');
    await generateText({ model, prompt: 'Reserve A1.', tools, stopWhen: isStepCount(3) });
    const [told] = model.doGenerateCalls.flatMap((call) => lastToolOutputs(call));
    expect(told?.output).toMatchObject({ type: 'content', value: [{ type: 'text', text: 'reserved A1' }] });
  });
});

describe('MCP transport failures are classified', () => {
  it('the server going away mid-call: mcp:connection-closed (it may have run); later calls: mcp:not-connected', async () => {
    let release = () => {};
    const mcp = await inMemoryMcp((server) => {
      server.registerTool('slow', { inputSchema: {} }, async () => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return { content: [{ type: 'text', text: 'late' }] };
      });
    });
    closers.push(mcp.close);
    const options = execOptions('c1');
    const pending = Promise.resolve(mcp.tools.slow!.execute!({}, options)).catch((e: unknown) => e);
    await new Promise((resolve) => setImmediate(resolve));
    await mcp.serverGone();
    release();
    const closed = await pending;
    expect(classifyError(closed)).toEqual({ kind: 'transient', reason: 'mcp:connection-closed' });
    expect(provesNotExecuted(closed)).toBe(false);
    const later = await Promise.resolve(mcp.tools.slow!.execute!({}, options)).catch((e: unknown) => e);
    expect(classifyError(later)).toEqual({ kind: 'transient', reason: 'mcp:not-connected' });
    expect(provesNotExecuted(later)).toBe(true);
  });

  it('a connection closed mid-call of a tool that is not idempotent: the model is told it may have taken effect', async () => {
    let gone = async () => {};
    const mcp = await inMemoryMcp((server) => {
      server.registerTool('charge', { inputSchema: {} }, async () => {
        void gone();
        return new Promise(() => {});
      });
    });
    gone = mcp.serverGone;
    closers.push(mcp.close);
    const model = scriptedModel((step) => (step === 0 ? { calls: [['charge', {}]] } : { text: 'done' }));
    await run(model, mcp.tools);
    const [told] = model.doGenerateCalls.flatMap((call) => lastToolOutputs(call));
    expect(told?.output).toEqual({
      type: 'error-text',
      value: `MCPClientError: Connection closed\n${modelText.mayHaveTakenEffect}\n\n${modelText.guidance.unavailable}`,
    });
  });

  it('an expired Streamable HTTP session (404): mcp:session-expired, and the call never ran', async () => {
    const server = httpMcp((s) => {
      s.registerTool('ping', { inputSchema: {} }, async () => ({
        content: [{ type: 'text', text: 'pong' }],
      }));
    });
    const client = await server.connect();
    closers.push(() => client.close());
    const tools = await client.tools();
    const options = execOptions('c1');
    server.expireSessions();
    const expired = await Promise.resolve(tools.ping!.execute!({}, options)).catch((e: unknown) => e);
    expect((expired as { statusCode?: number }).statusCode).toBe(404);
    expect(classifyError(expired)).toEqual({ kind: 'transient', reason: 'mcp:session-expired' });
    expect(provesNotExecuted(expired)).toBe(true);
  });
});

// The recipe of docs/graceful-tool.md ("MCP tools: reconnecting"), as written there.
async function reconnectingMcpTools(connect: () => Promise<MCPClient>): Promise<ToolSet> {
  let client = await connect();
  let tools = await client.tools();
  let reconnecting: Promise<void> | undefined;
  const reconnect = () =>
    (reconnecting ??= (async () => {
      await client.close().catch(() => {});
      client = await connect();
      tools = await client.tools();
    })().finally(() => {
      reconnecting = undefined;
    }));
  return Object.fromEntries(
    Object.entries(tools).map(([name, tool]) => [
      name,
      {
        ...tool,
        execute: async (input: unknown, options: ToolExecutionOptions<unknown>) => {
          try {
            return await tools[name]!.execute!(input as never, options as never);
          } catch (error) {
            if (classifyError(error).reason.startsWith('mcp:')) await reconnect();
            throw error;
          }
        },
      },
    ]),
  );
}

describe('reconnecting (docs/graceful-tool.md)', () => {
  it('an expired session reconnects and the automatic retry succeeds on the new session', async () => {
    let pings = 0;
    const server = httpMcp((s) => {
      s.registerTool('ping', { inputSchema: {} }, async () => {
        pings++;
        return { content: [{ type: 'text', text: 'pong' }] };
      });
    });
    const clients: MCPClient[] = [];
    const tools = await reconnectingMcpTools(async () => {
      const client = await server.connect();
      clients.push(client);
      return client;
    });
    closers.push(async () => {
      for (const client of clients) await client.close();
    });
    server.expireSessions();
    const result = await run(
      scriptedModel((step) => (step === 0 ? { calls: [['ping', {}]] } : { text: 'done' })),
      tools,
    );
    expect(clients).toHaveLength(2);
    expect(pings).toBe(1);
    expect(result.steps[0]!.content.find((part) => part.type === 'tool-result')?.output).toMatchObject({
      content: [{ type: 'text', text: 'pong' }],
    });
  });
});
