import type { Context } from '@ai-sdk/provider-utils';
import {
  type GenerateTextResult,
  type OutputInterface,
  ToolLoopAgent as SdkToolLoopAgent,
  type StreamTextResult,
  type ToolLoopAgentSettings,
  type ToolSet,
} from 'ai';
import { generateText } from '../drop-in/generate-text.js';
import { checkCallOptions, type GracefulCallOptions } from '../drop-in/guard-call-options.js';
import { streamText } from '../drop-in/stream-text.js';

/** The settings of graceful-ai's `ToolLoopAgent`: `ai`'s own, plus the drop-ins' {@link GracefulCallOptions}. */
export type GracefulToolLoopAgentSettings<
  CALL_OPTIONS = never,
  // biome-ignore lint/complexity/noBannedTypes: `ai`'s own default, kept so the types are the same.
  TOOLS extends ToolSet = {},
  RUNTIME_CONTEXT extends Context = Context,
  OUTPUT extends OutputInterface = never,
> = ToolLoopAgentSettings<CALL_OPTIONS, TOOLS, RUNTIME_CONTEXT, OUTPUT> & GracefulCallOptions;

/** A callback of the SDK's events. */
type Callback = ((event: never) => unknown) | undefined;

/**
 * The SDK agent's own call preparation (`prepareCall`: `callOptionsSchema`, the settings without their callbacks,
 * the default stop condition, the settings' `prepareCall`; `agentHeaders`: the user-agent tag). Private in `ai`'s
 * types, so reached here by name: graceful-ai's agent prepares every call exactly as the installed `ai` does.
 */
interface SdkCallPreparation {
  prepareCall(options: Record<string, unknown>): Promise<Record<string, unknown>>;
  agentHeaders(preparedCall: { headers?: unknown }): Record<string, string>;
}

const sdkPrototype = SdkToolLoopAgent.prototype as unknown as Partial<SdkCallPreparation>;

/** The callbacks of a call that the SDK merges with the settings' own (both run, in parallel). */
const mergedCallbacks = [
  ['onStart', 'experimental_onStart'],
  ['onStepStart', 'experimental_onStepStart'],
  ['onToolExecutionStart'],
  ['onToolExecutionEnd'],
  ['onStepEnd', 'onStepFinish'],
  ['onEnd', 'onFinish'],
] as const;

/**
 * `ai`'s `ToolLoopAgent` with graceful-ai's drop-ins underneath: `generate()` runs the drop-in `generateText` and
 * `stream()` the drop-in `streamText`, so every call gets the stream guard (the single retry authority),
 * `gracefulTools` defaults, the unknown-tool repair hook (after your own `repairToolCall`), the turn deadline,
 * clean prompts after a reset and shared cool-downs. Same constructor settings, types and methods as `ai`'s (it
 * extends it: `instanceof ToolLoopAgent` holds for `ai`'s class, so `createAgentUIStream*` accept
 * `experimental_steering`), plus `streamGuard`, `gracefulTools`, `turnTimeoutMs`, `onTurnDeadline` and
 * `coordination`, checked here and usable per call from `prepareCall`.
 *
 * A run that fails (a tool over its `retries` budget, a `graceful: false` tool, a provider failure the guard could
 * not recover) never breaks a stream: `stream()`'s parts end with the open tool calls closed, an `error` part and
 * `finish`, `onError` is called once, and the answer fields (`text`, `steps`, …) reject with the error; `generate()`
 * calls `onError` and rejects with it, as `ai`'s agent does.
 */
export class ToolLoopAgent<
  CALL_OPTIONS = never,
  // biome-ignore lint/complexity/noBannedTypes: `ai`'s own default, kept so the types are the same.
  TOOLS extends ToolSet = {},
  RUNTIME_CONTEXT extends Context = Context,
  OUTPUT extends OutputInterface = never,
> extends SdkToolLoopAgent<CALL_OPTIONS, TOOLS, RUNTIME_CONTEXT, OUTPUT> {
  readonly #settings: GracefulToolLoopAgentSettings<CALL_OPTIONS, TOOLS, RUNTIME_CONTEXT, OUTPUT>;

  constructor(settings: GracefulToolLoopAgentSettings<CALL_OPTIONS, TOOLS, RUNTIME_CONTEXT, OUTPUT>) {
    if (typeof sdkPrototype.prepareCall !== 'function' || typeof sdkPrototype.agentHeaders !== 'function') {
      throw new TypeError(
        "graceful-ai: this version of 'ai' prepares agent calls differently (ToolLoopAgent has no prepareCall or agentHeaders); install the 'ai' version graceful-ai supports (see its peerDependencies).",
      );
    }
    checkCallOptions(settings);
    super(settings);
    this.#settings = settings;
  }

  /** Generates an output from the agent (non-streaming), through the drop-in `generateText`. */
  override async generate(
    parameters: Parameters<SdkToolLoopAgent<CALL_OPTIONS, TOOLS, RUNTIME_CONTEXT, OUTPUT>['generate']>[0],
  ): Promise<GenerateTextResult<TOOLS, RUNTIME_CONTEXT, OUTPUT>> {
    const call = await this.#prepare(parameters as unknown as Record<string, unknown>);
    try {
      return (await generateText(
        call as unknown as Parameters<typeof generateText>[0],
      )) as unknown as GenerateTextResult<TOOLS, RUNTIME_CONTEXT, OUTPUT>;
    } catch (error) {
      // generateText has no `onError`: the agent reports the error before rethrowing it; aborts and timeouts are
      // not reported, as in streamText.
      const { abortSignal } = parameters as { abortSignal?: AbortSignal };
      if (!isCausedByAbort(error) && !abortSignal?.aborted) {
        try {
          await this.#settings.onError?.({ error });
        } catch {
          // The SDK ignores what its callbacks throw.
        }
      }
      throw error;
    }
  }

  /** Streams an output from the agent, through the drop-in `streamText`. */
  override async stream(
    parameters: Parameters<SdkToolLoopAgent<CALL_OPTIONS, TOOLS, RUNTIME_CONTEXT, OUTPUT>['stream']>[0],
  ): Promise<StreamTextResult<TOOLS, RUNTIME_CONTEXT, OUTPUT>> {
    const { experimental_transform, ...rest } = parameters as unknown as Record<string, unknown>;
    const call = await this.#prepare(rest);
    const options = {
      ...call,
      experimental_transform,
      onError: this.#settings.onError,
      onAbort: this.#settings.onAbort,
    };
    return streamText(options as unknown as Parameters<typeof streamText>[0]) as unknown as StreamTextResult<
      TOOLS,
      RUNTIME_CONTEXT,
      OUTPUT
    >;
  }

  /**
   * The options of one call, as `ai`'s agent builds them: the prepared call (settings, call options, the settings'
   * `prepareCall`), the call's request options, each callback merged with the settings' own, the user-agent tag. The
   * graceful options come from the settings unless `prepareCall` returned its own.
   */
  async #prepare(parameters: Record<string, unknown>): Promise<Record<string, unknown>> {
    const { abortSignal, timeout, experimental_sandbox, experimental_steering, ...options } = parameters;
    const own = this as unknown as SdkCallPreparation;
    for (const names of mergedCallbacks) for (const name of names) delete options[name];
    const prepared = await own.prepareCall.call(this, { ...options, experimental_sandbox });
    const settings = this.#settings as unknown as Record<string, unknown>;
    const callbacks: Record<string, unknown> = {};
    for (const [name, alias] of mergedCallbacks) {
      const fromSettings = (settings[name] ?? (alias && settings[alias])) as Callback;
      const fromCall = (parameters[name] ?? (alias && parameters[alias])) as Callback;
      callbacks[name] = mergeCallbacks(fromSettings, fromCall);
    }
    const { streamGuard, gracefulTools, turnTimeoutMs, onTurnDeadline, coordination } = this.#settings;
    return {
      ...{ streamGuard, gracefulTools, turnTimeoutMs, onTurnDeadline, coordination },
      ...prepared,
      abortSignal,
      timeout: timeout ?? prepared.timeout,
      experimental_sandbox,
      experimental_steering,
      ...callbacks,
      headers: own.agentHeaders.call(this, prepared),
    };
  }
}

/** One callback running both, in parallel, ignoring what they throw (the SDK's `mergeCallbacks`). */
function mergeCallbacks(...callbacks: Callback[]): (event: never) => Promise<void> {
  return async (event) => {
    await Promise.allSettled(callbacks.map(async (callback) => callback?.(event)));
  };
}

/** An abort or a timeout, or an error caused by one (the SDK's `isCausedByAbort`). */
function isCausedByAbort(error: unknown): boolean {
  let current = error;
  for (let depth = 0; current != null && depth < 5; depth++) {
    const { name } = current as { name?: unknown };
    const isError =
      current instanceof Error || (typeof DOMException === 'function' && current instanceof DOMException);
    if (isError && (name === 'AbortError' || name === 'ResponseAborted' || name === 'TimeoutError'))
      return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
