import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { RpcClient, RpcError, runRpcServer } from '../../../adapters/rpc/index.js';
import type { SessionEvent } from '../../../src/session/events.js';
import { echoSession } from './fake-session.js';

const fixture = fileURLToPath(new URL('./fixtures/rpc-server.ts', import.meta.url));

describe('RPC round trip with a real child process', () => {
  it('prompts with retry events, survives a malformed line, toggles auto-retry and cancels a retry', async () => {
    const lines: object[] = [];
    const client = new RpcClient({
      command: process.execPath,
      args: ['--import', 'tsx', fixture],
      onLine: (line) => lines.push(line),
    });
    const events: SessionEvent[] = [];
    client.subscribe((event) => events.push(event));
    try {
      // 1: a 503 then the answer; the response comes after the retry chain.
      await expect(client.prompt('hi')).resolves.toMatchObject({
        text: 'Hello over RPC',
        finishReason: 'stop',
      });
      expect(events.filter((e) => e.type.startsWith('auto_retry'))).toEqual([
        {
          type: 'auto_retry_start',
          attempt: 1,
          maxRetries: 3,
          delayMs: 10,
          errorMessage: 'The server is overloaded or not ready yet.',
        },
        { type: 'auto_retry_end', success: true, attempt: 1 },
      ]);
      expect(events.at(-1)).toMatchObject({ type: 'turn_end', success: true, text: 'Hello over RPC' });

      // A malformed line gets an error response; the server keeps running.
      client.writeLine('{"type": "prompt", oops');
      await expect(client.getState()).resolves.toEqual({
        autoRetryEnabled: true,
        isRetrying: false,
        isRunning: false,
        retryAttempt: 0,
        messageCount: 2,
      });
      expect(lines).toContainEqual({
        type: 'response',
        id: null,
        command: null,
        success: false,
        error: { name: 'RpcParseError', message: expect.stringContaining('not valid JSON') },
      });

      // An unknown command is refused by name.
      const unknown = await client.send({ type: 'explode' } as never).catch((e: unknown) => e);
      expect(RpcError.isInstance(unknown)).toBe(true);
      expect(unknown).toMatchObject({ remoteName: 'RpcUnknownCommand', command: 'explode' });

      // 2: auto-retry off → the 503 fails the turn at once.
      await client.setAutoRetry(false);
      expect((await client.getState()).autoRetryEnabled).toBe(false);
      await expect(client.prompt('again')).rejects.toMatchObject({ remoteName: 'AI_APICallError' });

      // 3: a 30 s retry-after, cancelled by abort_retry as soon as the retry starts.
      await client.setAutoRetry(true);
      const cancelled = vi.fn();
      const stop = client.subscribe((event) => {
        if (event.type === 'auto_retry_start') {
          cancelled(event);
          void client.abortRetry();
        }
      });
      const error = await client.prompt('third').catch((e: unknown) => e);
      stop();
      expect(cancelled).toHaveBeenCalledWith(expect.objectContaining({ delayMs: 30_000 }));
      expect(error).toMatchObject({ remoteName: 'RetryCancelledError' });
      expect(events.filter((e) => e.type === 'auto_retry_end').at(-1)).toEqual({
        type: 'auto_retry_end',
        success: false,
        attempt: 1,
        finalError: 'Retry cancelled',
      });
    } finally {
      await client.close();
    }
    expect(client.process?.exitCode).toBe(0);
  });
});

describe('runRpcServer over streams', () => {
  it('answers every command with its id, rejects bad fields, and resolves closed when the input ends', async () => {
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const session = echoSession();
    const server = await runRpcServer({ createSession: () => session, input: toServer, output: fromServer });
    const client = new RpcClient({ input: fromServer, output: toServer });
    await expect(client.prompt('x')).resolves.toEqual({ text: 'echo x' });
    await client.abort();
    expect(session.abortRetry).not.toHaveBeenCalled();
    expect(session.abort).toHaveBeenCalledTimes(1);
    await client.abortRetry();
    expect(session.abortRetry).toHaveBeenCalledTimes(1);
    await expect(client.send({ type: 'set_auto_retry', enabled: 'yes' } as never)).rejects.toMatchObject({
      remoteName: 'RpcInvalidCommand',
    });
    await expect(client.send({ type: 'prompt' } as never)).rejects.toMatchObject({
      remoteName: 'RpcInvalidCommand',
    });
    toServer.end();
    await server.closed;
  });

  it('forwards session events as lines and survives an event JSON cannot hold', async () => {
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    let emit: (event: SessionEvent) => void = () => {};
    const session = echoSession({
      subscribe: (listener) => {
        emit = listener;
        return () => {};
      },
    });
    await runRpcServer({ session, input: toServer, output: fromServer });
    const client = new RpcClient({ input: fromServer, output: toServer });
    const events: SessionEvent[] = [];
    client.subscribe((event) => events.push(event));
    emit({ type: 'text_delta', delta: 'Hi' });
    emit({ type: 'tool_result', toolCallId: 'c', toolName: 't', output: { big: 1n } });
    await expect(client.getState()).resolves.toMatchObject({ messageCount: 0 });
    expect(events).toEqual([
      { type: 'text_delta', delta: 'Hi' },
      { type: 'tool_result', unserializable: true, error: expect.stringContaining('BigInt') },
    ]);
  });

  it('rejects pending commands when the server goes away', async () => {
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const client = new RpcClient({ input: fromServer, output: toServer });
    const pending = client.getState();
    fromServer.end();
    await expect(pending).rejects.toThrow(/closed its output before answering 'get_state'/);
    await expect(client.getState()).rejects.toSatisfy(RpcError.isInstance);
  });
});
