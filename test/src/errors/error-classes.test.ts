/**
 * The house rule for errors: a class with a stable `name`, a static marker-based `isInstance()` and ONE options
 * object, whose message says what happened and what to do. One row per exported error class; the last test
 * fails when an entry point exports an error class that has no row here.
 */
import { describe, expect, it } from 'vitest';
import * as core from '../../../adapters/ai-sdk/index.js';
import * as rpc from '../../../adapters/rpc/index.js';
import { AggregateToolError } from '../../../src/errors/aggregate-tool-error.js';
import { CircuitOpenError } from '../../../src/errors/circuit-open-error.js';
import { ContextOverflowError } from '../../../src/errors/context-overflow-error.js';
import { EmptyAnswerError } from '../../../src/errors/empty-answer-error.js';
import { FailoverError } from '../../../src/errors/failover-error.js';
import { GracefulError } from '../../../src/errors/graceful-error.js';
import { InvalidToolPlanError } from '../../../src/errors/invalid-tool-plan-error.js';
import { McpToolError } from '../../../src/errors/mcp-tool-error.js';
import { ModelRetry } from '../../../src/errors/model-retry.js';
import { RepeatedToolCallError } from '../../../src/errors/repeated-tool-call-error.js';
import { RpcError } from '../../../src/errors/rpc-error.js';
import {
  RetryCancelledError,
  RetryDelayTooLongError,
  RetryExhaustedError,
  SessionBusyError,
  SessionFileCorruptError,
  SessionLockedError,
  SessionStoreClosedError,
  SessionStoreError,
} from '../../../src/errors/session-errors.js';
import { StreamConsumedError } from '../../../src/errors/stream-consumed-error.js';
import { StreamFailedError } from '../../../src/errors/stream-failed-error.js';
import { StreamInterruptedError } from '../../../src/errors/stream-interrupted-error.js';
import { StreamStalledError } from '../../../src/errors/stream-stalled-error.js';
import { ToolTimeoutError } from '../../../src/errors/tool-timeout-error.js';
import { TurnDeadlineError } from '../../../src/errors/turn-deadline-error.js';
import { UnexpectedModelBehavior } from '../../../src/errors/unexpected-model-behavior.js';
import { UnfinishedToolCallError } from '../../../src/errors/unfinished-tool-call-error.js';
import * as session from '../../../src/session/index.js';

interface ErrorClass {
  readonly name: string;
  readonly length: number;
  isInstance(error: unknown): boolean;
}

interface Row {
  name: string;
  Class: ErrorClass;
  /** Constructs the error with its one options object. */
  make: () => Error;
}

const cause = new Error('ECONNRESET');

const rows: Row[] = [
  {
    name: 'AggregateToolError',
    Class: AggregateToolError,
    make: () =>
      new AggregateToolError({
        errors: [
          { toolName: 'a', toolCallId: '1', error: cause },
          { toolName: 'b', toolCallId: '2', error: 'x' },
        ],
      }),
  },
  {
    name: 'CircuitOpenError',
    Class: CircuitOpenError,
    make: () => new CircuitOpenError({ toolName: 'search', retryAfterMs: 5000, reopensAt: 10_000, cause }),
  },
  {
    name: 'FailoverError',
    Class: FailoverError,
    make: () =>
      new FailoverError({
        models: [
          {
            model: { provider: 'openai.chat', modelId: 'gpt-4o' },
            error: new Error('Service Unavailable'),
            reason: 'status:503',
          },
          {
            model: { provider: 'anthropic.messages', modelId: 'claude-sonnet-4-5' },
            error: cause,
            reason: 'status:529',
          },
        ],
      }),
  },
  {
    name: 'ContextOverflowError',
    Class: ContextOverflowError,
    make: () => new ContextOverflowError({ cause }),
  },
  {
    name: 'EmptyAnswerError',
    Class: EmptyAnswerError,
    make: () => new EmptyAnswerError({ finishReason: 'content-filter', rawFinishReason: 'SAFETY' }),
  },
  {
    name: 'InvalidToolPlanError',
    Class: InvalidToolPlanError,
    make: () => new InvalidToolPlanError({ problem: 'dependency cycle a → b → a', steps: ['a', 'b', 'a'] }),
  },
  {
    name: 'McpToolError',
    Class: McpToolError,
    make: () =>
      new McpToolError({
        message: 'inventory database unavailable',
        toolName: 'lookup',
        result: { content: [{ type: 'text', text: 'inventory database unavailable' }], isError: true },
      }),
  },
  {
    name: 'ModelRetry',
    Class: ModelRetry,
    make: () => new ModelRetry({ message: 'No city "Pariss". Did you mean "Paris"?', cause }),
  },
  {
    name: 'RepeatedToolCallError',
    Class: RepeatedToolCallError,
    make: () =>
      new RepeatedToolCallError({ toolName: 'search', calls: 3, lastResult: 'results for weather' }),
  },
  { name: 'RetryCancelledError', Class: RetryCancelledError, make: () => new RetryCancelledError({ cause }) },
  {
    name: 'RetryDelayTooLongError',
    Class: RetryDelayTooLongError,
    make: () => new RetryDelayTooLongError({ retryAfterMs: 120_000, maxRetryAfterMs: 60_000, cause }),
  },
  {
    name: 'RetryExhaustedError',
    Class: RetryExhaustedError,
    make: () => new RetryExhaustedError({ retries: 3, cause }),
  },
  {
    name: 'RpcError',
    Class: RpcError,
    make: () =>
      new RpcError({ message: 'Retry cancelled.', remoteName: 'RetryCancelledError', command: 'prompt' }),
  },
  { name: 'SessionBusyError', Class: SessionBusyError, make: () => new SessionBusyError() },
  {
    name: 'SessionFileCorruptError',
    Class: SessionFileCorruptError,
    make: () => new SessionFileCorruptError({ path: '/tmp/s.jsonl', line: 3, cause }),
  },
  {
    name: 'SessionLockedError',
    Class: SessionLockedError,
    make: () => new SessionLockedError({ path: '/tmp/s.jsonl', pid: 42 }),
  },
  {
    name: 'SessionStoreClosedError',
    Class: SessionStoreClosedError,
    make: () => new SessionStoreClosedError({ path: '/tmp/s.jsonl' }),
  },
  {
    name: 'SessionStoreError',
    Class: SessionStoreError,
    make: () => new SessionStoreError({ entryType: 'message', cause }),
  },
  {
    name: 'StreamConsumedError',
    Class: StreamConsumedError,
    make: () => new StreamConsumedError({ request: 'result.textStream' }),
  },
  {
    name: 'StreamFailedError',
    Class: StreamFailedError,
    make: () => new StreamFailedError({ message: 'overloaded', type: 'server_error', statusCode: 529 }),
  },
  {
    name: 'StreamInterruptedError',
    Class: StreamInterruptedError,
    make: () => new StreamInterruptedError({ ending: 'interrupted', charsEmitted: 12 }),
  },
  {
    name: 'StreamStalledError',
    Class: StreamStalledError,
    make: () => new StreamStalledError({ stallTimeoutMs: 30_000 }),
  },
  {
    name: 'ToolTimeoutError',
    Class: ToolTimeoutError,
    make: () => new ToolTimeoutError({ toolName: 'search', timeoutMs: 1000 }),
  },
  {
    name: 'TurnDeadlineError',
    Class: TurnDeadlineError,
    make: () => new TurnDeadlineError({ phase: 'timed_out', toolName: 'search', deadlineMs: 60_000 }),
  },
  {
    name: 'UnexpectedModelBehavior',
    Class: UnexpectedModelBehavior,
    make: () => new UnexpectedModelBehavior({ toolName: 'search', retries: 2, cause }),
  },
  {
    name: 'UnfinishedToolCallError',
    Class: UnfinishedToolCallError,
    make: () => new UnfinishedToolCallError({ toolName: 'search', toolCallId: 'c1', endedRun: false, cause }),
  },
];

describe('error classes follow the house rule', () => {
  it.each(rows)(
    '$name: stable name, marker isInstance, one options object, a message',
    ({ name, Class, make }) => {
      const error = make();
      expect(Class.name).toBe(name);
      expect(error.name).toBe(name);
      expect(error).toBeInstanceOf(Error);
      expect(Class.isInstance(error)).toBe(true);
      expect(Class.isInstance(new Error(error.message))).toBe(false);
      expect(Class.isInstance(null)).toBe(false);
      expect(GracefulError.isInstance(error)).toBe(true);
      expect(error.message.trim()).not.toBe('');
      expect(Class.length).toBeLessThanOrEqual(1);
      // Markers are per class: no other class claims this error.
      for (const other of rows) {
        if (other.name !== name) expect(other.Class.isInstance(error), other.name).toBe(false);
      }
    },
  );

  it("CircuitOpenError of a model names the model (not the breaker's key) and what to do", () => {
    const error = new CircuitOpenError({
      model: { provider: 'openai.chat', modelId: 'gpt-4o' },
      retryAfterMs: 30_000,
      reopensAt: 10_000,
    });
    expect([error.toolName, error.model]).toEqual([
      undefined,
      { provider: 'openai.chat', modelId: 'gpt-4o' },
    ]);
    expect(error.message).toBe(
      "Model 'openai.chat:gpt-4o' is temporarily unavailable after repeated failures (circuit open); it gets a " +
        'trial request again in 30 s. Add fallbackModels to answer meanwhile.',
    );
  });

  it('ModelRetry still takes a message string, optionally with { cause }', () => {
    const plain = new ModelRetry('Ask for a city name.');
    expect([plain.message, 'cause' in plain]).toEqual(['Ask for a city name.', false]);
    const withCause = new ModelRetry('Ask for a city name.', { cause });
    expect([withCause.message, withCause.cause]).toEqual(['Ask for a city name.', cause]);
    const fromOptions = new ModelRetry({ message: 'Ask for a city name.' });
    expect([fromOptions.message, 'cause' in fromOptions]).toEqual(['Ask for a city name.', false]);
    expect(new ModelRetry({ message: 'x', cause }).cause).toBe(cause);
  });

  it('keeps the documented fields', () => {
    expect(new InvalidToolPlanError({ problem: 'p', steps: ['a'] }).steps).toEqual(['a']);
    expect(new RpcError({ message: 'm', remoteName: 'R', command: 'c' })).toMatchObject({
      message: 'm',
      remoteName: 'R',
      command: 'c',
    });
    expect(new SessionLockedError({ path: 'f' })).toMatchObject({ path: 'f', pid: undefined });
    expect(new SessionFileCorruptError({ path: 'f', line: 2, cause })).toMatchObject({
      path: 'f',
      line: 2,
      cause,
    });
    expect(new SessionStoreClosedError({ path: 'f' }).path).toBe('f');
    expect(new SessionStoreError({ entryType: 'compaction', cause })).toMatchObject({
      entryType: 'compaction',
      cause,
    });
    expect(new SessionLockedError({ path: 'f', pid: 7, host: 'h' })).toMatchObject({ pid: 7, host: 'h' });
    expect(new SessionFileCorruptError({ path: 'f', line: 4, problem: 'is null' }).message).toBe(
      'Line 4 of the session file f is null, so the history cannot be restored in order. Repair or remove that ' +
        'line, then load the session again.',
    );
    expect(new RetryCancelledError({ cause }).cause).toBe(cause);
    expect(new StreamConsumedError({ request: 'r' }).request).toBe('r');
    expect(new StreamStalledError({ stallTimeoutMs: 5 }).stallTimeoutMs).toBe(5);
    expect(new StreamInterruptedError({ ending: 'no-finish', charsEmitted: 0 })).toMatchObject({
      ending: 'no-finish',
      charsEmitted: 0,
    });
  });

  it('UnfinishedToolCallError: its text, which a chat UI shows, is the message alone; the run’s error is the cause', () => {
    const ended = new UnfinishedToolCallError({ toolName: 't', toolCallId: 'c1', endedRun: true, cause });
    expect(ended).toMatchObject({ toolName: 't', toolCallId: 'c1', endedRun: true, cause });
    expect(String(ended)).toBe('The tool call failed and the run stopped.');
    const open = new UnfinishedToolCallError({ toolName: 't', toolCallId: 'c2', endedRun: false, cause });
    expect(String(open)).toBe('The run failed before the tool call finished.');
  });

  it('RpcError without a message still says what failed and what to do', () => {
    const error = new RpcError({ message: '', remoteName: 'TypeError', command: 'prompt' });
    expect(error.message).toBe(
      "The RPC command 'prompt' failed with TypeError without a message. Check the server's logs, then send the " +
        'command again.',
    );
  });

  it.each([
    ['graceful-ai', core],
    ['graceful-ai/rpc', rpc],
    ['graceful-ai/session', session],
  ])('%s exports no error class without a row here', (_entry, module) => {
    const exported = Object.entries(module)
      .filter(([, value]) => typeof value === 'function' && value.prototype instanceof GracefulError)
      .map(([name]) => name);
    const covered = new Set(rows.map((row) => row.name));
    expect(exported.filter((name) => !covered.has(name))).toEqual([]);
    expect(exported.length).toBeGreaterThan(0);
  });
});

describe('StreamInterruptedError', () => {
  it('says where and how the stream ended, and what to check', () => {
    expect(new StreamInterruptedError({ ending: 'no-finish', charsEmitted: 0 }).message).toBe(
      'The model stream ended before any content, without a finish: the answer is incomplete. The stream guard ' +
        'retries it; if this repeats, check for a proxy or load balancer that closes long responses.',
    );
    expect(new StreamInterruptedError({ ending: 'interrupted', charsEmitted: 12 }).message).toMatch(
      /^The model stream ended after 12 characters, with finish reason 'interrupted': /,
    );
  });
});

describe('the errors of issue 24 say what happened and what to do', () => {
  it('EmptyAnswerError: the finish reason, what the provider said, and advice per reason', () => {
    expect(new EmptyAnswerError({ finishReason: 'content-filter', rawFinishReason: 'SAFETY' }).message).toBe(
      "The model answered with no content, finish reason 'content-filter' (the provider said 'SAFETY'): the " +
        "provider's content filter withheld the answer: rephrase the request, or check the provider's moderation " +
        'settings.',
    );
    expect(new EmptyAnswerError({ finishReason: 'other' }).message).toBe(
      "The model answered with no content, finish reason 'other': the provider did not say why: try again later, " +
        "and check the provider's status if it repeats.",
    );
  });

  it('McpToolError: the server text, or a sentence when it sent none; the result is kept', () => {
    const result = { content: [], isError: true };
    expect(new McpToolError({ message: ' ', result }).message).toBe(
      'The MCP tool reported an error without a message.',
    );
    expect(new McpToolError({ message: 'x', result }).result).toBe(result);
  });

  it('RepeatedToolCallError: how often, and the last result', () => {
    expect(new RepeatedToolCallError({ toolName: 'search', calls: 1 }).message).toBe(
      "You already called 'search' once with this same input in this task, so this call was not run again.",
    );
  });
});

describe('StreamFailedError', () => {
  it('ends the provider message with exactly one full stop', async () => {
    const { StreamFailedError } = await import('../../../src/errors/stream-failed-error.js');
    for (const message of ['Overloaded', 'Overloaded.', 'Overloaded. ']) {
      expect(new StreamFailedError({ message } as never).message).toMatch(
        /^The model stream failed: Overloaded\. The/,
      );
    }
  });
});
