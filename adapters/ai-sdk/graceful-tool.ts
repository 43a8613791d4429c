import {
  type FlexibleSchema,
  InvalidToolInputError,
  type ModelMessage,
  type Tool,
  type ToolExecutionOptions,
  type ToolSet,
} from 'ai';
import { attachModelText, formatToolError, issuesText } from '../../src/errors/format-for-model.js';
import { ModelRetry } from '../../src/errors/model-retry.js';
import type { RedactOption } from '../../src/errors/redact.js';
import { UnexpectedModelBehavior } from '../../src/errors/unexpected-model-behavior.js';
import { defaultLogger, type Logger } from '../../src/observe/logger.js';
import { safeJson } from '../../src/util/guarded.js';
import { isAsyncIterable, isThenable } from '../../src/util/shape.js';
import { invalidInputOf, routeValidation } from './invalid-input.js';
import { defaultModelOutput, failLoudly, isLoudToolFailure } from './loud-failure.js';
import { countConsecutiveFailures } from './tool-failure-count.js';
import {
  annotateAnsweredBy,
  failureContext,
  resilientInvoker,
  type ToolResilienceOptions,
} from './tool-resilience.js';

/**
 * Options of `gracefulTool` / defaults of `gracefulTools`: the model-visible layer's, plus the resilience
 * layers' (`retry`, `timeoutMs`, `breaker`, `classify`, `treatAsPermanent`, `treatAsTransient`, `fallback`).
 */
export interface GracefulToolOptions extends ToolResilienceOptions {
  /**
   * How many times in a row the model may retry after this tool failed in one run (default 1, as in
   * pydantic-ai): failure number `retries + 1` fails the whole call with `UnexpectedModelBehavior`.
   * 0 = the first failure fails the run. A success resets the count.
   */
  retries?: number;
  /**
   * `true` (default): errors reach the model as text it can act on. `false`: the tool's original error
   * object fails the whole `generateText`/`streamText`/agent call and the model never sees it. A thrown
   * `ModelRetry` always reaches the model.
   */
  graceful?: boolean;
  /** Upper bound of the model-visible error text in characters (default 2000). */
  maxErrorChars?: number;
  /** Extra redaction on top of the built-in secret rules (patterns or a function). */
  redact?: RedactOption;
  /** Receives one `debug` line per converted error (default: `NODE_DEBUG=graceful-ai` only). */
  logger?: Logger;
  /**
   * The tool's name in the tool set, used in `UnexpectedModelBehavior` and to count its failures.
   * `gracefulTools` sets it from the key; without it the wrapper recognises its own earlier calls by id.
   */
  name?: string;
}

/** The retry state of one tool call, as pydantic-ai's `ctx.retry` / `ctx.max_retries`. */
export interface RetryInfo {
  /** How many times in a row this tool already failed in this run (0 on a first attempt). */
  retry: number;
  /** The tool's budget: when `retry === maxRetries`, this is the last attempt before the run fails. */
  maxRetries: number;
  /** The tool's name, when known (see `GracefulToolOptions.name`). */
  toolName: string | undefined;
}

/** One call of the original tool, as the layers under the model-visible one see it. */
export interface ToolInvocation {
  execute: LooseExecute;
  input: unknown;
  options: ToolExecutionOptions<unknown>;
  settings: Readonly<GracefulToolOptions>;
  toolName: string | undefined;
}

type LooseExecute = (input: unknown, options: ToolExecutionOptions<unknown>) => unknown;

/** The fields of a tool the wrapper touches; everything else is copied as is. */
interface LooseTool {
  execute?: LooseExecute;
  inputSchema: FlexibleSchema<unknown>;
  toModelOutput?: (options: { toolCallId: string; input: unknown; output: unknown }) => unknown;
  onInputAvailable?: (options: { input: unknown } & ToolExecutionOptions<unknown>) => unknown;
  needsApproval?: boolean | ((input: unknown, options: unknown) => unknown);
}

const wrappedMarker = Symbol.for('graceful-ai.gracefulTool');
const DEFAULT_RETRIES = 1;
/** How many recent call ids a wrapper remembers to recognise its own results when it has no name. */
const REMEMBERED_CALL_IDS = 512;

interface WrappedInfo {
  original: Tool;
  options: GracefulToolOptions;
}

function wrappedInfo(tool: unknown): WrappedInfo | undefined {
  return typeof tool === 'object' && tool !== null
    ? ((tool as Record<symbol, WrappedInfo | undefined>)[wrappedMarker] ?? undefined)
    : undefined;
}

const retryInfos = new WeakMap<object, RetryInfo>();

/**
 * Inside a wrapped tool's `execute`, the retry state of this call: `getRetryInfo(options).retry` is how many
 * times in a row the tool already failed in this run, `maxRetries` its budget. Lets a tool soft-fail on its
 * last attempt. Returns `undefined` for a tool that is not wrapped.
 */
export function getRetryInfo(options: ToolExecutionOptions<unknown> | object): RetryInfo | undefined {
  return retryInfos.get(options);
}

/**
 * Calls the original `execute` once and returns what it returns (a value, a promise or an async iterable),
 * synchronously. The single place that runs the tool: resilience layers wrap this function.
 */
function invokeTool(call: ToolInvocation): unknown {
  return call.execute(call.input, call.options);
}

/** Which name this wrapper has in the current run: its option, else the name on its own earlier results. */
function nameFromHistory(
  messages: readonly ModelMessage[] | undefined,
  ids: Set<string>,
): string | undefined {
  if (!Array.isArray(messages) || ids.size === 0) return undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message === undefined || message.role === 'user') return undefined;
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-result' && ids.has(part.toolCallId)) return part.toolName;
    }
  }
  return undefined;
}

/**
 * Wraps an AI SDK tool with pydantic-ai's tool-error semantics. The result is usable anywhere the tool was
 * (`generateText`, `streamText`, `ToolLoopAgent`) and keeps its type, so input/output inference is unchanged.
 *
 * - A thrown error reaches the model as `formatToolError` text (name, message, cause chain, guidance;
 *   bounded and redacted) instead of the SDK's bare `toString()`; the original error object stays on the
 *   `tool-error` part and in `onToolExecutionEnd`.
 * - Failures are counted per run (see `countConsecutiveFailures`): failure number `retries + 1` in a row
 *   fails the call with `UnexpectedModelBehavior` (cause: the last error).
 * - `graceful: false` fails the call with the original error object.
 * - Input that fails the tool's schema reaches `execute`'s error path the same way (and counts).
 * - Works with sync, async and async-iterable `execute` (an iterable is returned synchronously so
 *   preliminary results keep streaming). Every other field is kept. A tool without `execute` is returned
 *   unchanged. Wrapping a wrapped tool merges the options (the newer ones win).
 */
export function gracefulTool<TOOL extends Tool>(tool: TOOL, options: GracefulToolOptions = {}): TOOL {
  const prior = wrappedInfo(tool);
  if (prior) return gracefulTool(prior.original as TOOL, { ...prior.options, ...options });
  const original = tool as unknown as LooseTool;
  const originalExecute = original.execute;
  if (typeof originalExecute !== 'function') return tool;

  const settings: Readonly<GracefulToolOptions> = { ...options };
  const retries = Math.max(0, Math.floor(settings.retries ?? DEFAULT_RETRIES));
  const graceful = settings.graceful ?? true;
  const logger = settings.logger ?? defaultLogger;
  const ids = new Set<string>();
  // Automatic retry, breaker, timeout and fallback around the one call of the original (validated here).
  const resilient = resilientInvoker(settings.name ?? 'tool', settings, invokeTool, {
    original: tool,
    onAttemptOptions: (from, to) => {
      const info = retryInfos.get(from);
      if (info) retryInfos.set(to, info);
    },
  });
  // Calls whose failure is not the model's mistake (open circuit, deadline), and calls a fallback answered.
  const uncounted = new Set<string>();
  const answeredBy = new Map<string, string>();

  const remember = (toolCallId: string) => {
    ids.add(toolCallId);
    if (ids.size > REMEMBERED_CALL_IDS) ids.delete(ids.values().next().value as string);
    if (uncounted.size > REMEMBERED_CALL_IDS) uncounted.delete(uncounted.values().next().value as string);
    if (answeredBy.size > REMEMBERED_CALL_IDS) answeredBy.delete(answeredBy.keys().next().value as string);
  };

  /** Turns a failure into what the SDK should get: a throw the model sees, or a loud-failure result. */
  const onFailure = (error: unknown, call: ToolInvocation, info: RetryInfo): unknown => {
    const { toolCallId, abortSignal, messages } = call.options;
    // An abort of the SDK's signal is the caller's (or the SDK's timeout): not the model's mistake.
    if (abortSignal?.aborted) throw error;
    const toolName = info.toolName ?? 'unknown tool';
    const context = failureContext(error);
    if (!context.counts && typeof toolCallId === 'string') uncounted.add(toolCallId);
    if (!graceful && !ModelRetry.isInstance(error)) {
      logger.debug('tool failed loudly; failing the run', { toolName, toolCallId });
      return failLoudly({ toolName, toolCallId, error }, messages);
    }
    if (context.counts && info.retry >= retries) {
      logger.debug('tool exceeded its retries; failing the run', { toolName, toolCallId, retries });
      const exceeded = new UnexpectedModelBehavior({ toolName, retries, cause: error });
      return failLoudly({ toolName, toolCallId, error: exceeded }, messages);
    }
    const text = formatToolError(error, {
      maxErrorChars: settings.maxErrorChars,
      redact: settings.redact,
      guidance: context.guidance,
      details: context.details,
    });
    logger.debug('tool error converted for the model', {
      toolName,
      toolCallId,
      retry: info.retry,
      maxRetries: retries,
      chars: text.length,
    });
    // The SDK sends `toString()` of an Error (and JSON of anything else): an Error carries our text and stays
    // the object the application sees; any other thrown value is replaced by the text itself.
    throw error instanceof Error && attachModelText(error, text) ? error : text;
  };

  const streamGuarded = async function* (
    iterable: AsyncIterable<unknown>,
    call: ToolInvocation,
    info: RetryInfo,
  ): AsyncGenerator<unknown> {
    try {
      yield* iterable;
    } catch (error) {
      yield onFailure(error, call, info);
    }
  };

  const execute = (input: unknown, execOptions: ToolExecutionOptions<unknown>): unknown => {
    const messages = execOptions?.messages;
    if (typeof execOptions?.toolCallId === 'string') remember(execOptions.toolCallId);
    const toolName = settings.name ?? nameFromHistory(messages, ids);
    const retry =
      toolName === undefined
        ? 0
        : countConsecutiveFailures(
            messages,
            (part) => part.toolName === toolName && !uncounted.has(part.toolCallId),
          );
    const info: RetryInfo = { retry, maxRetries: retries, toolName };
    if (execOptions !== null && typeof execOptions === 'object') retryInfos.set(execOptions, info);
    const call: ToolInvocation = {
      execute: originalExecute,
      input,
      options: execOptions,
      settings,
      toolName,
    };

    const invalid = invalidInputOf(input);
    if (invalid !== undefined) {
      const name = toolName ?? 'this tool';
      const issues = issuesText(invalid.error);
      const error = new InvalidToolInputError({
        toolName: name,
        toolInput: safeJson(invalid.value) ?? String(invalid.value),
        cause: invalid.error,
        ...(issues ? { message: `Invalid input for tool ${name}: ${issues}` } : {}),
      });
      return Promise.resolve().then(() => onFailure(error, call, info));
    }

    let result: unknown;
    try {
      result = resilient
        ? resilient(call, (tool) => answeredBy.set(execOptions.toolCallId, tool))
        : invokeTool(call);
    } catch (error) {
      return Promise.resolve().then(() => onFailure(error, call, info));
    }
    if (isAsyncIterable(result)) return streamGuarded(result, call, info);
    if (isThenable(result))
      return Promise.resolve(result).then(undefined, (error) => onFailure(error, call, info));
    return result;
  };

  const wrapped: LooseTool & Record<symbol, WrappedInfo> = {
    ...original,
    inputSchema: routeValidation(original.inputSchema),
    execute,
    toModelOutput: (modelOutputOptions) => {
      if (isLoudToolFailure(modelOutputOptions.output)) throw modelOutputOptions.output.runError;
      const output = original.toModelOutput
        ? original.toModelOutput(modelOutputOptions)
        : defaultModelOutput(modelOutputOptions.output);
      const fallbackName = answeredBy.get(modelOutputOptions.toolCallId);
      return fallbackName === undefined ? output : annotateAnsweredBy(output, fallbackName);
    },
    [wrappedMarker]: { original: tool, options: settings },
  };
  const { onInputAvailable, needsApproval } = original;
  // Invalid calls skip input hooks and approval in the SDK; keep it so now that they pass validation.
  if (onInputAvailable) {
    wrapped.onInputAvailable = (hookOptions) =>
      invalidInputOf(hookOptions.input) ? undefined : onInputAvailable(hookOptions);
  }
  if (typeof needsApproval === 'function') {
    wrapped.needsApproval = (input, approvalOptions) =>
      invalidInputOf(input) ? false : needsApproval(input, approvalOptions);
  }
  return wrapped as unknown as TOOL;
}

/**
 * Applies `gracefulTool` to every tool of a set with `defaults` (the agent-level switch) and the tool's key
 * as its name. A tool already wrapped keeps its own options: they win over the defaults in both directions
 * (opt out under a graceful default, opt in under `graceful: false`). Tools without `execute` are kept as is.
 */
export function gracefulTools<TOOLS extends ToolSet>(
  tools: TOOLS,
  defaults: GracefulToolOptions = {},
): TOOLS {
  const out: Record<string, Tool> = {};
  for (const [name, tool] of Object.entries(tools)) {
    const prior = wrappedInfo(tool);
    out[name] = prior
      ? gracefulTool(prior.original, { ...defaults, ...prior.options, name })
      : gracefulTool(tool, { ...defaults, name });
  }
  return out as TOOLS;
}

/** The retry budget a tool of a set has, for hooks that see a tool call outside `execute`. */
export function toolRetries(tool: unknown, fallback: number = DEFAULT_RETRIES): number {
  const retries = wrappedInfo(tool)?.options.retries;
  return Math.max(0, Math.floor(retries ?? fallback));
}
