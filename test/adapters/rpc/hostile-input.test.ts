/**
 * The RPC server and client against input they did not expect: line separators inside prompts and answers, any line
 * shape a server may print, and a client that closes its end of the server's output (EPIPE). The crash cases run in
 * child processes, so a regression shows as a failed exit instead of taking the test runner down.
 */
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { RpcClient, RpcError, type RpcSession, runRpcServer } from '../../../adapters/rpc/index.js';
import type { SessionEvent } from '../../../src/session/events.js';
import { defaultLogger } from '../../../src/util/logger.js';
import { runChild } from '../../child.js';
import { echoSession } from './fake-session.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

/** A server and a client over in-memory pipes, with every byte the server wrote. */
async function pair(session: RpcSession) {
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  const written: Buffer[] = [];
  fromServer.on('data', (chunk: Buffer) => written.push(chunk));
  const server = await runRpcServer({ session, input: toServer, output: fromServer });
  const client = new RpcClient({ input: fromServer, output: toServer });
  return { server, client, toServer, fromServer, written: () => Buffer.concat(written).toString('utf8') };
}

describe('U+2028 and U+2029 in prompts and answers', () => {
  it('a prompt holding them reaches the session whole and is answered (it used to hang forever)', async () => {
    const prompt = vi.fn(async (text: string) => ({ text: `echo ${text}` }));
    const { client } = await pair(echoSession({ prompt }));
    const text = 'line\u2028separator\u2029paragraph';
    await expect(client.prompt(text)).resolves.toEqual({ text: `echo ${text}` });
    expect(prompt).toHaveBeenCalledWith(text);
  });

  it('an answer holding them arrives as one event, and the server writes them escaped', async () => {
    let emit: (event: SessionEvent) => void = () => {};
    const { client, written } = await pair(
      echoSession({
        subscribe: (listener) => {
          emit = listener;
          return () => {};
        },
      }),
    );
    const events: SessionEvent[] = [];
    client.subscribe((event) => events.push(event));
    emit({ type: 'text_delta', delta: 'a\u2028b' });
    emit({ type: 'text_delta', delta: 'c\u2029d' });
    await client.getState();
    expect(events).toEqual([
      { type: 'text_delta', delta: 'a\u2028b' },
      { type: 'text_delta', delta: 'c\u2029d' },
    ]);
    expect(written()).not.toMatch(/[\u2028\u2029]/);
    expect(written()).toContain('"delta":"a\\u2028b"');
  });

  it('the client sends them escaped, and reads a raw one from an older server as part of its line', async () => {
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const sent: string[] = [];
    toServer.setEncoding('utf8').on('data', (chunk: string) => sent.push(chunk));
    const client = new RpcClient({ input: fromServer, output: toServer });
    const events: SessionEvent[] = [];
    client.subscribe((event) => events.push(event));
    const answer = client.prompt('x\u2028y');
    expect(sent.join('')).toBe('{"type":"prompt","text":"x\\u2028y","id":1}\n');
    fromServer.write('{"type":"text_delta","delta":"raw\u2028sep"}\n');
    fromServer.write('{"type":"response","id":1,"command":"prompt","success":true,"data":"ok\u2029"}\n');
    await expect(answer).resolves.toBe('ok\u2029');
    expect(events).toEqual([{ type: 'text_delta', delta: 'raw\u2028sep' }]);
  });
});

describe('an answer JSON cannot hold', () => {
  it('fails its command with RpcUnserializable instead of leaving the client waiting forever', async () => {
    const { client } = await pair(echoSession({ prompt: async () => ({ tokens: 1n }) }));
    const error = await client.prompt('hi').catch((e: unknown) => e);
    expect(RpcError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      remoteName: 'RpcUnserializable',
      command: 'prompt',
      message: expect.stringMatching(/^The answer could not be sent as JSON \(.*BigInt.*\)\.$/),
    });
  });
});

describe('RpcClient: every line shape a server may print', () => {
  const hostile = [
    'null',
    '[]',
    '[1,2]',
    '5',
    '"text"',
    'true',
    'not json at all',
    '{"unterminated": ',
    '{}',
    '{"type":5}',
    '{"type":null}',
    '{"type":"response"}',
    '{"type":"response","id":999,"success":true}',
    '{"type":"response","id":"1","success":true}',
    '{"type":"response","id":null,"command":null,"success":false,"error":{"name":"RpcParseError","message":"x"}}',
  ];

  it('never crashes its host process: stray lines are reported, malformed responses reject (child process)', async () => {
    const outcome = await runChild(fixture('client-host.ts'), [JSON.stringify(hostile)]);
    expect(outcome).toMatchObject({ code: 0, killed: false });
    const report = JSON.parse(outcome.stdout) as {
      results: unknown[];
      strays: Array<{ line: string; reason: string }>;
      events: unknown[];
    };
    expect(report.results).toEqual([
      { value: { isRunning: false } },
      {
        error: {
          name: 'RpcError',
          message: expect.stringMatching(
            /^The RPC server answered 'prompt' with a failure without an error message: .*Check the server's logs\.$/,
          ),
        },
      },
      {
        error: {
          name: 'RpcError',
          message: expect.stringContaining(`answered 'abort' with a response without "success": true`),
        },
      },
    ]);
    expect(report.strays.map((s) => [s.line, s.reason])).toEqual([
      ['null', 'not a JSON object'],
      ['[]', 'not a JSON object'],
      ['[1,2]', 'not a JSON object'],
      ['5', 'not a JSON object'],
      ['"text"', 'not a JSON object'],
      ['true', 'not a JSON object'],
      ['not json at all', 'not JSON'],
      ['{"unterminated": ', 'not JSON'],
      ['{}', 'no string "type"'],
      ['{"type":5}', 'no string "type"'],
      ['{"type":null}', 'no string "type"'],
      ['{"type":"response"}', 'a response to no pending command'],
      ['{"type":"response","id":999,"success":true}', 'a response to no pending command'],
      ['{"type":"response","id":"1","success":true}', 'a response to no pending command'],
      [hostile.at(-1), 'a response to no pending command'],
    ]);
    // Only objects with a string type other than "response" are events; the throwing subscriber changed nothing.
    expect(report.events).toEqual([]);
  });

  it('fuzz: any lines, then the real answer: nothing throws and the pending command still resolves', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.json({ maxDepth: 2 }), fc.string({ unit: 'binary' })), {
          maxLength: 8,
        }),
        async (lines) => {
          const fromServer = new PassThrough();
          const strays = vi.fn();
          const client = new RpcClient({ input: fromServer, output: new PassThrough(), onStrayLine: strays });
          const state = client.getState();
          for (const line of lines) fromServer.write(`${line.replaceAll('\n', ' ')}\n`);
          fromServer.write('{"type":"response","id":1,"command":"get_state","success":true,"data":7}\n');
          await expect(state).resolves.toBe(7);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('without onStrayLine a stray line is a warn line in the debug log; a throwing onLine an error line', async () => {
    const warn = vi.spyOn(defaultLogger, 'warn').mockImplementation(() => {});
    const error = vi.spyOn(defaultLogger, 'error').mockImplementation(() => {});
    try {
      const fromServer = new PassThrough();
      const client = new RpcClient({
        input: fromServer,
        output: new PassThrough(),
        onLine: () => {
          throw new Error('bad hook');
        },
      });
      const state = client.getState();
      fromServer.write('null\n{"type":"response","id":1,"command":"get_state","success":true,"data":1}\n');
      await expect(state).resolves.toBe(1);
      expect(warn).toHaveBeenCalledWith('RpcClient ignored a line: not a JSON object', { line: 'null' });
      expect(error).toHaveBeenCalledWith('RpcClient: onLine threw; the client goes on', {
        error: 'bad hook',
      });
    } finally {
      warn.mockRestore();
      error.mockRestore();
    }
  });

  it('onStrayLine must be a function', () => {
    expect(
      () => new RpcClient({ input: new PassThrough(), output: new PassThrough(), onStrayLine: 5 as never }),
    ).toThrow(new TypeError("graceful-ai: option 'onStrayLine' must be a function; got 5."));
  });

  it('a failed write to the server (stream mode) fails the pending command instead of throwing', async () => {
    const toServer = new PassThrough();
    const client = new RpcClient({ input: new PassThrough(), output: toServer });
    const pending = client.getState();
    toServer.destroy(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    await expect(pending).rejects.toThrow(
      /Writing to the RPC server failed \(write EPIPE\) before answering 'get_state'/,
    );
    await expect(client.getState()).rejects.toSatisfy(RpcError.isInstance);
  });
});

describe('runRpcServer when the client closes its end of the output (EPIPE)', () => {
  it('the real server in a child process survives, stops, and exits with code 0', async () => {
    const outcome = await runChild(fixture('rpc-server.ts'), [], {
      drive: (child) => {
        // Wait for the server to be up (its first answer), then stop reading its output and make it write.
        child.stdin.write('{"id":1,"type":"get_state"}\n');
        child.stdout.once('data', () => {
          child.stdout.destroy();
          child.stdin.write('{"id":2,"type":"get_state"}\n');
          child.stdin.write('{"id":3,"type":"prompt","text":"hi"}\n');
        });
      },
    });
    // Exited by itself with stdin still open: it stopped reading once nobody could read its answers.
    expect(outcome.killed).toBe(false);
    expect(outcome.stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(outcome).toMatchObject({ code: 0, signal: null });
  });

  it('over streams: no uncaught error, the running turn is aborted, closed resolves, nothing more is written', async () => {
    const toServer = new PassThrough();
    const output = new PassThrough();
    let release: () => void = () => {};
    const abort = vi.fn(() => release());
    const session = echoSession({
      abort,
      prompt: () => new Promise((resolve) => (release = () => resolve({ aborted: true }))),
    });
    const server = await runRpcServer({ session, input: toServer, output });
    const write = vi.spyOn(output, 'write');
    toServer.write('{"id":1,"type":"prompt","text":"hi"}\n');
    await new Promise((resolve) => setImmediate(resolve));
    output.destroy(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    await server.closed;
    expect(abort).toHaveBeenCalledTimes(1);
    toServer.write('{"id":2,"type":"get_state"}\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(write).not.toHaveBeenCalled();
    expect(toServer.isPaused()).toBe(true);
  });
});
