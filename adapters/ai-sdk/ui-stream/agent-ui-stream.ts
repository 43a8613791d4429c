/**
 * Drop-ins of `ai`'s agent UI helpers, same signatures: the agent's run as a UI message stream that never breaks and
 * renders a stream guard's reset as `reset-step`. `ai`'s own helpers convert the agent's parts with a fixed mapping
 * in which a reset stays a `custom` chunk; these convert with the same code, then render the reset.
 */
import {
  createUIMessageStreamResponse,
  pipeUIMessageStreamToResponse,
  createAgentUIStream as sdkCreateAgentUIStream,
  type createAgentUIStreamResponse as sdkCreateAgentUIStreamResponse,
  type pipeAgentUIStreamToResponse as sdkPipeAgentUIStreamToResponse,
  type TextStreamPart,
  type ToolSet,
} from 'ai';
import { iterableStream } from '../../../src/util/iterable-stream.js';
import { endFailedRunCleanly } from './failed-run-ending.js';
import { gracefulUIChunks } from './ui-chunks.js';
import { agentMessageCallbacks, withCleanUIMessages } from './ui-message-callbacks.js';

/**
 * `ai`'s `createAgentUIStream`, same signature, for any `Agent` (graceful-ai's `ToolLoopAgent` first):
 * - a run that fails ends with its open tool calls closed (`tool-output-error`), an `error` chunk, then `finish`,
 *   also for an agent whose own stream would throw (e.g. `ai`'s agent on a model wrapped with `streamGuard()`);
 * - a reset is sent as `reset-step`, then what the step keeps, so `useChat` holds the recovered step only;
 *   `onEnd`/`onFinish` and `onUIMessageStepEnd` receive the same messages.
 */
export const createAgentUIStream: typeof sdkCreateAgentUIStream = async (options) => {
  const stream = await sdkCreateAgentUIStream({
    ...withCleanUIMessages(options, agentMessageCallbacks),
    agent: endingCleanly(options.agent),
  });
  return iterableStream(gracefulUIChunks(stream, options.sendFinish));
};

// Each SDK function reads its own options from the one object (the response ones, or the stream ones).

/** `ai`'s `createAgentUIStreamResponse`, same signature, on {@link createAgentUIStream}. */
export const createAgentUIStreamResponse: typeof sdkCreateAgentUIStreamResponse = async (options) =>
  createUIMessageStreamResponse({ ...options, stream: await createAgentUIStream(options) });

/** `ai`'s `pipeAgentUIStreamToResponse`, same signature, on {@link createAgentUIStream}. */
export const pipeAgentUIStreamToResponse: typeof sdkPipeAgentUIStreamToResponse = async (options) =>
  pipeUIMessageStreamToResponse({ ...options, stream: await createAgentUIStream(options) });

/**
 * The agent, whose `stream()` results give parts that end cleanly (a no-op for graceful-ai's agent, whose results
 * already do). Everything else is the agent's own, called on the agent itself: `instanceof` still holds.
 */
function endingCleanly<A extends object>(agent: A): A {
  return new Proxy(agent, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (property !== 'stream') return value.bind(target);
      return async (...args: unknown[]) => withCleanParts(await value.apply(target, args));
    },
  });
}

function withCleanParts<R extends object>(result: R): R {
  return new Proxy(result, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property === 'stream')
        return endFailedRunCleanly(value as ReadableStream<TextStreamPart<ToolSet>>, undefined);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
