import {
  type FlexibleSchema,
  InvalidToolInputError,
  type ModelMessage,
  type Tool,
  type ToolExecutionOptions,
  type ToolSet,
} from 'ai';
import { attachModelText, issuesText } from '../../../src/model-text/format-for-model.js';
import { modelText } from '../../../src/model-text/model-text.js';
import type { RedactOption } from '../../../src/redact/redact.js';
import { safeJson } from '../../../src/util/guarded.js';
import { defaultLogger, type Logger } from '../../../src/util/logger.js';
import { isAsyncIterable, isThenable } from '../../../src/util/shape.js';
import { truncateText } from '../../../src/util/truncate.js';
import { checkBoolean, checkCount, checkOptionsObject, checkSize } from '../../../src/util/validate.js';
import { checkMaxIdenticalCalls, defaultMaxIdenticalCalls, repeatedCall } from './identical-calls.js';
import { invalidInputOf, routeValidation } from './invalid-input.js';
import { defaultModelOutput, failLoudly, isLoudToolFailure } from './loud-failure.js';
import { withMcpFailuresThrown } from './mcp-result.js';
import { boundExecute, copyWith, type LooseExecute } from './tool-copy.js';
import { failuresInARow, judgeToolFailure, PolicyFailure } from './tool-failure.js';
import {
  annotateAnsweredBy,
  checkToolResilienceOptions,
  type ResilientInvocation,
  resilientInvoker,
  type ToolResilienceOptions,
} from './tool-resilience.js';

/**
 * Options of `gracefulTool` / defaults of `gracefulTools`: the model-visible layer's, plus the resilience
 * layers' (`autoRetry`, `idempotent`, `timeoutMs`, `breaker`, `classify`, `treatAsPermanent`, `treatAsTransient`,
 * `fallback`).
 */
export interface GracefulToolOptions extends ToolResilienceOptions {
  /**
   * How many times in a row the model may retry after this tool failed in one run (pydantic-ai's `retries`):
   * failure number `retries + 1` fails the whole call with `UnexpectedModelBehavior`. 0 = the first failure fails
   * the run. A success resets the count. Not to be confused with `autoRetry.maxRetries`, the silent retries before
   * the model sees anything.
   * @default 1
   */
  retries?: number;
  /**
   * `true`: errors reach the model as text it can act on. `false`: the tool's original error object fails the
   * whole `generateText`/`streamText`/agent call and the model never sees it (also when that failure opened the
   * circuit breaker). A thrown `ModelRetry` always reaches the model.
   * @default true
   */
  graceful?: boolean;
  /**
   * Whether running the tool again is safe after any failure: it reads, or writes the same thing however often it
   * runs (an upsert by key, a request with an idempotency key). Only such a tool is re-run by `autoRetry` after
   * any transient error. A tool that is not (the default) is re-run automatically only when the error proves the
   * call never took effect (a refused connection, an unresolved host, HTTP 429 or 503, a dependency's open circuit:
   * see `provesNotExecuted`); any other failure goes to the model at once, which may call the tool again itself
   * within `retries`. Without this option, MCP's tool annotations `readOnlyHint: true` or `idempotentHint: true`
   * (on `tool.metadata.annotations`, where `@ai-sdk/mcp` puts them, or `tool.annotations`) make a tool idempotent;
   * `false` given here wins over them.
   * @default false
   */
  idempotent?: boolean;
  /**
   * How many answered calls of this tool with the same input (equal JSON) one run may make: the next one is not run,
   * and the model reads a `RepeatedToolCallError` with what the last of them returned. It counts against `retries`,
   * so a model that keeps repeating itself fails the run with `UnexpectedModelBehavior`. Failed calls are left to
   * `retries`. An integer ≥ 1, or `false` for no limit (a tool polled for a status on purpose). Counted from the
   * run's messages: calls within one step are not.
   * @default 3
   */
  maxIdenticalCalls?: number | false;
  /**
   * Upper bound of the model-visible error text in characters (an integer ≥ 64).
   * @default 2000
   */
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
  /** The tool's budget (`retries`): when `retry === retries`, this is the last attempt before the run fails. */
  retries: number;
  /** The tool's name, when known (see `GracefulToolOptions.name`). */
  toolName: string | undefined;
}

/** One call of the original tool: what the resilience layers pass on, and the tool's name for MCP errors. */
interface ToolInvocation extends ResilientInvocation {
  toolName: string | undefined;
}

/** The fields of a tool the wrapper touches; everything else is copied as is. */
interface LooseTool {
  execute?: LooseExecute;
  inputSchema: FlexibleSchema<unknown>;
  toModelOutput?: (options: { toolCallId: string; input: unknown; output: unknown }) => unknown;
  onInputAvailable?: (options: { input: unknown } & ToolExecutionOptions<unknown>) => unknown;
  needsApproval?: boolean | ((input: unknown, options: unknown) => unknown);
}

const wrappedMarker = Symbol.for('graceful-ai.gracefulTool');
/** The model-visible budget when `retries` is not given (pydantic-ai's default). */
export const defaultToolRetries = 1;
/** How much of an invalid call's input the model is shown again (characters). */
const MAX_INPUT_SHOWN = 500;
/** How many recent call ids a wrapper remembers to recognise its own results when it has no name. */
const REMEMBERED_CALL_IDS = 512;

/** Checks the model-visible options (the resilience ones are checked when their policy is built). */
function validateToolOptions(options: GracefulToolOptions): void {
  checkOptionsObject('gracefulTool options', options);
  checkCount('retries', options.retries);
  checkBoolean('graceful', options.graceful);
  checkBoolean('idempotent', options.idempotent);
  checkSize('maxErrorChars', options.maxErrorChars, 64);
  checkMaxIdenticalCalls(options.maxIdenticalCalls);
  if (options.name !== undefined && typeof options.name !== 'string') {
    throw new TypeError(`graceful-ai: option 'name' must be a string; got ${typeof options.name}.`);
  }
}

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
 * times in a row the tool already failed in this run, `retries` its budget. Lets a tool soft-fail on its
 * last attempt. Returns `undefined` for a tool that is not wrapped.
 */
export function getRetryInfo(options: ToolExecutionOptions<unknown> | object): RetryInfo | undefined {
  return retryInfos.get(options);
}

/**
 * Calls the original `execute` once and returns what it returns (a value, a promise or an async iterable),
 * synchronously. The single place that runs the tool: resilience layers wrap this function. An MCP result that
 * reports a failure (`isError: true`) is thrown as `McpToolError` here, so every layer above sees the failure.
 */
function invokeTool(call: ToolInvocation): unknown {
  return withMcpFailuresThrown(call.execute(call.input, call.options), call.toolName);
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
  // Only the options given: one given as `undefined` must not hide an earlier wrapper's, a `gracefulTools` default or
  // a drop-in's (`{ ...defaults, ...options }` would).
  const given: Record<string, unknown> = { ...options };
  for (const key in given) if (given[key] === undefined) delete given[key];
  const prior = wrappedInfo(tool);
  if (prior) return gracefulTool(prior.original as TOOL, { ...prior.options, ...given });
  const original = tool as unknown as LooseTool;
  // Called with the tool as `this`, as the SDK would: class-based tools keep their fields.
  const originalExecute = boundExecute(original);
  validateToolOptions(options);
  if (originalExecute === undefined) {
    // Nothing to wrap, but a bad option is still the caller's mistake.
    checkToolResilienceOptions(options);
    return tool;
  }
  const settings: Readonly<GracefulToolOptions> = given;
  const retries = settings.retries ?? defaultToolRetries;
  const graceful = settings.graceful ?? true;
  const maxIdenticalCalls = settings.maxIdenticalCalls ?? defaultMaxIdenticalCalls;
  const logger = settings.logger ?? defaultLogger;
  const ids = new Set<string>();
  // Automatic retry, breaker, timeout and fallback around the one call of the original (validated here).
  const resilient = resilientInvoker(settings.name ?? 'tool', settings, invokeTool, {
    original: tool,
    onAttemptOptions: (from, to) => {
      const info = retryInfos.get(from);
      if (info) retryInfos.set(to, info);
    },
    // A loud tool fails the run with its own error, even when that failure opened the breaker.
    keepOwnError: !graceful,
  });
  // Calls a fallback answered.
  const answeredBy = new Map<string, string>();

  const remember = (toolCallId: string) => {
    ids.add(toolCallId);
    if (ids.size > REMEMBERED_CALL_IDS) ids.delete(ids.values().next().value as string);
    if (answeredBy.size > REMEMBERED_CALL_IDS) answeredBy.delete(answeredBy.keys().next().value as string);
  };

  /** Turns a failure into what the SDK should get: a throw the model sees, or a loud-failure result. */
  const onFailure = (failure: unknown, call: ResilientInvocation, info: RetryInfo): unknown => {
    const { toolCallId, abortSignal, messages } = call.options;
    const toolName = info.toolName ?? 'unknown tool';
    // An abort of the SDK's signal is the caller's (or the SDK's timeout): not the model's mistake.
    if (abortSignal?.aborted) throw failure instanceof PolicyFailure ? failure.error : failure;
    const verdict = judgeToolFailure({
      failure,
      toolName,
      toolCallId,
      retry: info.retry,
      retries,
      graceful,
      maxErrorChars: settings.maxErrorChars,
      redact: settings.redact,
    });
    if (verdict.kind === 'fail-run') {
      logger.debug('tool failure fails the run', { toolName, toolCallId, retries });
      return failLoudly({ toolName, toolCallId, error: verdict.error }, messages);
    }
    logger.debug('tool error converted for the model', {
      toolName,
      toolCallId,
      retry: info.retry,
      retries,
      chars: verdict.text.length,
    });
    // The SDK sends `toString()` of an Error (and JSON of anything else): an Error carries our text and stays
    // the object the application sees; any other thrown value is replaced by the text itself.
    const { error, text } = verdict;
    throw error instanceof Error && attachModelText(error, text) ? error : text;
  };

  const streamGuarded = async function* (
    iterable: AsyncIterable<unknown>,
    call: ResilientInvocation,
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
    const retry = toolName === undefined ? 0 : failuresInARow(messages, toolName);
    const info: RetryInfo = { retry, retries, toolName };
    if (execOptions !== null && typeof execOptions === 'object') retryInfos.set(execOptions, info);
    const call: ToolInvocation = { execute: originalExecute, input, options: execOptions, toolName };

    const invalid = invalidInputOf(input);
    if (invalid !== undefined) {
      const name = toolName ?? 'this tool';
      const issues = issuesText(invalid.error);
      const fields = {
        toolName: name,
        toolInput: safeJson(invalid.value) ?? String(invalid.value),
        cause: invalid.error,
      };
      const what = issues
        ? `Invalid input for tool ${name}: ${issues}`
        : new InvalidToolInputError(fields).message;
      // What the model sent, bounded (redacted with the rest of the text where the model reads it).
      const sent = modelText.inputSent(truncateText(fields.toolInput, MAX_INPUT_SHOWN));
      const error = new InvalidToolInputError({ ...fields, message: `${what}\n${sent}` });
      return Promise.resolve().then(() => onFailure(error, call, info));
    }
    // The same call again after `maxIdenticalCalls` identical ones is not run: the model reads the earlier result.
    const repeated =
      maxIdenticalCalls === false || toolName === undefined
        ? undefined
        : repeatedCall(messages, toolName, input, maxIdenticalCalls);
    if (repeated) return Promise.resolve().then(() => onFailure(repeated, call, info));

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

  // Every own property (enumerable or not) and the prototype are kept: see `copyWith`.
  const wrapped: LooseTool & Record<symbol, WrappedInfo> = copyWith(
    original as LooseTool & Record<symbol, WrappedInfo>,
    {
      inputSchema: routeValidation(original.inputSchema),
      execute,
      toModelOutput: (modelOutputOptions: Parameters<NonNullable<LooseTool['toModelOutput']>>[0]) => {
        if (isLoudToolFailure(modelOutputOptions.output)) throw modelOutputOptions.output.runError;
        const output = original.toModelOutput
          ? original.toModelOutput(modelOutputOptions)
          : defaultModelOutput(modelOutputOptions.output);
        const fallbackName = answeredBy.get(modelOutputOptions.toolCallId);
        return fallbackName === undefined ? output : annotateAnsweredBy(output, fallbackName);
      },
      [wrappedMarker]: { original: tool, options: settings },
    },
  );
  const { onInputAvailable, needsApproval } = original;
  // Invalid calls skip input hooks and approval in the SDK; keep it so now that they pass validation.
  if (onInputAvailable) {
    wrapped.onInputAvailable = (hookOptions) =>
      invalidInputOf(hookOptions.input) ? undefined : onInputAvailable.call(original, hookOptions);
  }
  if (typeof needsApproval === 'function') {
    wrapped.needsApproval = (input, approvalOptions) =>
      invalidInputOf(input) ? false : needsApproval.call(original, input, approvalOptions);
  } else if (needsApproval === true) {
    // Invalid input goes back to the model, as the SDK does for it: nobody is asked to approve a call that fails.
    wrapped.needsApproval = (input) => !invalidInputOf(input);
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
  // Checked once here too: an empty set (or one without `execute`) must not hide a bad default.
  checkOptionsObject('gracefulTools defaults', defaults);
  validateToolOptions(defaults);
  checkToolResilienceOptions(defaults);
  const out: Record<string, Tool> = {};
  for (const [name, tool] of Object.entries(tools)) {
    const prior = wrappedInfo(tool);
    out[name] = prior
      ? gracefulTool(prior.original, { ...defaults, ...prior.options, name })
      : gracefulTool(tool, { ...defaults, name });
  }
  return out as TOOLS;
}

/** The model-visible budget (`retries`) of a tool of a set, for hooks that see a tool call outside `execute`. */
export function toolRetries(tool: unknown, fallback: number = defaultToolRetries): number {
  return wrappedInfo(tool)?.options.retries ?? fallback;
}
