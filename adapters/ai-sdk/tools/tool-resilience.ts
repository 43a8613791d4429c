import type { AsyncLocalStorage } from 'node:async_hooks';
import type { Tool, ToolExecutionOptions } from 'ai';
import { modelText } from '../../../src/model-text/model-text.js';
import { defaultTelemetry } from '../../../src/observe/tool-telemetry.js';
import type { TurnTrace } from '../../../src/observe/trace.js';
import { InMemoryBreakerStore } from '../../../src/policy/breaker-store.js';
import { checkCoordination } from '../../../src/policy/coordination.js';
import { checkPolicyRuntime, type PolicyRuntime } from '../../../src/policy/retry.js';
import {
  checkToolPolicyOptions,
  createToolPolicy,
  type PolicyFallback,
  type ToolPolicyOptions,
  type ToolPolicyOutcome,
} from '../../../src/policy/tool-policy.js';
import { read } from '../../../src/util/guarded.js';
import { optionalBuiltin } from '../../../src/util/node-builtin.js';
import { isAsyncIterable } from '../../../src/util/shape.js';
import { checkOptionsObject, checkTimeoutMs } from '../../../src/util/validate.js';
import { boundExecute, type LooseExecute } from './tool-copy.js';
import { PolicyFailure } from './tool-failure.js';

/** A fallback tool: a tool object (named `<tool>_fallback` in events), or a tool with the name the model sees. */
export type FallbackOption = Tool | { name: string; tool: Tool };

/** The resilience options `gracefulTool` accepts on top of its model-visible ones. */
export interface ToolResilienceOptions extends ToolPolicyOptions {
  /**
   * A tool that answers when this one fails for good: a permanent error, retries used up, a failure not safe to
   * re-run (`not_idempotent`), or an open circuit (not after the caller's abort). It gets the same input; the model
   * sees which tool answered.
   */
  fallback?: FallbackOption;
  /** Time, randomness and reporting for the policies (tests inject fakes; default: the system's). */
  runtime?: PolicyRuntime;
}

/** One call of the original tool: the same shape `gracefulTool` keeps in one internal function. */
export interface ResilientInvocation {
  execute: LooseExecute;
  input: unknown;
  options: ToolExecutionOptions<unknown>;
}

type TraceStorage = AsyncLocalStorage<TurnTrace>;
let turnTraces: TraceStorage | null | undefined;

/**
 * The storage that carries a turn's trace into its tool calls, created at first use from what the runtime provides:
 * Node's `node:async_hooks`, or a global `AsyncLocalStorage` (Next.js edge, workerd with `nodejs_als`). `null` where
 * there is none: `traceTurn` then runs without a trace.
 */
function traceStorage(): TraceStorage | null {
  if (turnTraces !== undefined) return turnTraces;
  const Storage =
    optionalBuiltin<{ AsyncLocalStorage: new () => TraceStorage }>('node:async_hooks')?.AsyncLocalStorage ??
    (globalThis as { AsyncLocalStorage?: new () => TraceStorage }).AsyncLocalStorage;
  turnTraces = Storage ? new Storage() : null;
  return turnTraces;
}

/**
 * Records the resilience decisions of every wrapped tool that runs inside `run` (e.g. one `generateText` call)
 * into `trace`, whatever telemetry the tools were wrapped with: `traceTurn(trace, () => generateText({...}))`.
 */
export function traceTurn<T>(trace: TurnTrace, run: () => T): T {
  const storage = traceStorage();
  return storage ? storage.run(trace, run) : run();
}

const breakerStores = new WeakMap<object, InMemoryBreakerStore>();

/**
 * The default breaker store of a tool object (keyed by tool name inside): wrapping the same tool again — e.g.
 * `gracefulTools` on every request, as the drop-ins do — keeps its breaker state instead of starting afresh.
 */
function breakerStoreOf(original: object): InMemoryBreakerStore {
  let store = breakerStores.get(original);
  if (!store) {
    store = new InMemoryBreakerStore();
    breakerStores.set(original, store);
  }
  return store;
}

function isAsyncGeneratorFunction(fn: unknown): boolean {
  return Object.prototype.toString.call(fn) === '[object AsyncGeneratorFunction]';
}

function fallbackOf(
  option: FallbackOption | undefined,
  primary: string,
): { name: string; tool: Tool } | undefined {
  if (option === undefined) return undefined;
  if ('tool' in option && typeof option.name === 'string') return option as { name: string; tool: Tool };
  return { name: `${primary}_fallback`, tool: option as Tool };
}

/** A fallback must be able to answer: a tool with `execute`, or `{ name, tool }` with one (read as `fallbackOf` does). */
function checkFallback(option: unknown): void {
  if (option === undefined) return;
  const named =
    typeof option === 'object' &&
    option !== null &&
    'tool' in option &&
    typeof (option as { name?: unknown }).name === 'string';
  const tool = named ? (option as { tool: unknown }).tool : option;
  if (typeof tool === 'object' && tool !== null && typeof (tool as Tool).execute === 'function') return;
  const got =
    typeof option === 'object' && option !== null ? 'an object' : (JSON.stringify(option) ?? String(option));
  throw new TypeError(
    `graceful-ai: option 'fallback' must be a tool with an execute function, or { name: string, tool }; got ${got}.`,
  );
}

/**
 * Checks what `createToolPolicy` does not see or sees too late: `runtime` and `fallback`, and `timeoutMs` and
 * `breaker` before every layer may turn out to be off (`timeoutMs: NaN` must not just mean "no timeout").
 */
function checkResilienceShape(options: ToolResilienceOptions): void {
  checkTimeoutMs('timeoutMs', options.timeoutMs);
  checkOptionsObject('breaker', options.breaker, true);
  checkOptionsObject('runtime', options.runtime);
  if (options.runtime) checkPolicyRuntime(options.runtime, 'runtime.');
  checkFallback(options.fallback);
  checkCoordination('coordination', options.coordination);
}

/**
 * Whether a tool says of itself, through MCP's tool annotations, that running it again is safe: `readOnlyHint: true`
 * (it changes nothing) or `idempotentHint: true` (a repeated call with the same input has no further effect). Read
 * from `tool.metadata.annotations`, where the AI SDK's MCP client (`@ai-sdk/mcp`) puts a server's annotations,
 * and from `tool.annotations`, the MCP wire shape, for tools built by hand from a `tools/list` answer. Only the
 * boolean `true` counts; the hints are the server's word, so an explicit `idempotent: false` wins over them.
 */
export function annotatedIdempotent(tool: unknown): boolean {
  for (const annotations of [read(read(tool, 'metadata'), 'annotations'), read(tool, 'annotations')]) {
    if (read(annotations, 'readOnlyHint') === true || read(annotations, 'idempotentHint') === true)
      return true;
  }
  return false;
}

/** Checks every resilience option without wrapping anything (for a tool with nothing to wrap, or defaults). */
export function checkToolResilienceOptions(options: ToolResilienceOptions): void {
  checkResilienceShape(options);
  checkToolPolicyOptions({ ...options, ...options.runtime });
}

/**
 * Builds the stack fallback ▸ circuit breaker ▸ retry ▸ timeout around `invoke` (the one function that calls the
 * original `execute`). Options are validated now (a `RangeError` names the bad one); the breaker is created now
 * and shared by every call of this wrapped tool. Returns `undefined` when every layer is off.
 *
 * The returned function answers synchronously like `execute`: a promise, or, when the tool's first attempt returned
 * an async iterable (whatever kind of function returned it), an async generator that is retried only until its first
 * value, so preliminary results keep streaming. A promise that resolves to an iterable stays a final output, as the
 * SDK treats it. When no attempt returned in the calling tick (an async breaker store, a first attempt that threw)
 * only an `async function*` streams.
 */
export function resilientInvoker<C extends ResilientInvocation>(
  name: string,
  options: ToolResilienceOptions,
  invoke: (call: C) => unknown,
  hooks: {
    /** The unwrapped tool: breaker state is kept per tool object and name (see `breakerStoreOf`). */
    original: object;
    /** Called with the SDK's options and each attempt's copy (which carries the attempt's own abort signal). */
    onAttemptOptions?: (from: ToolExecutionOptions<unknown>, to: ToolExecutionOptions<unknown>) => void;
    /**
     * The caller needs the tool's own error even when the breaker ended the call (a `graceful: false` tool): see
     * `RetryPolicy.keepOwnError`.
     */
    keepOwnError?: boolean;
  },
): ((call: C, onAnsweredBy: (tool: string) => void) => unknown) | undefined {
  checkResilienceShape(options);
  if (
    options.autoRetry === false &&
    options.breaker === false &&
    !options.timeoutMs &&
    !options.fallback &&
    !options.coordination
  ) {
    return undefined;
  }
  const { onAttemptOptions } = hooks;
  const breaker =
    options.breaker === false
      ? false
      : {
          ...options.breaker,
          store:
            options.breaker?.store ?? options.coordination?.breakerStore ?? breakerStoreOf(hooks.original),
        };
  // Re-run automatically only when safe: declared idempotent (the option wins), or so annotated (MCP).
  const idempotent = options.idempotent ?? annotatedIdempotent(hooks.original);
  const policy = createToolPolicy(name, { ...options, ...options.runtime, breaker, idempotent });
  const baseTelemetry = options.runtime?.telemetry ?? defaultTelemetry;
  /** The calling turn's trace, if the call runs inside `traceTurn`. */
  const telemetryOfCall = () => {
    const trace = turnTraces?.getStore();
    return trace ? baseTelemetry.withTrace(trace) : undefined;
  };
  const fallback = fallbackOf(options.fallback, name);

  const attemptCall = (call: C, signal: AbortSignal): C => {
    const options = { ...call.options, abortSignal: signal };
    onAttemptOptions?.(call.options, options);
    return { ...call, options };
  };
  const policyFallback = <T>(call: C, map: (value: unknown) => T): PolicyFallback<T> | undefined => {
    const execute = fallback && boundExecute(fallback.tool);
    if (!fallback || execute === undefined) return undefined;
    return {
      name: fallback.name,
      run: async (signal) =>
        map(await execute(call.input, { ...call.options, abortSignal: signal ?? call.options.abortSignal })),
    };
  };
  /** Hands the policy's verdict to the model-visible layer with the error (see `judgeToolFailure`). */
  const failed = (outcome: Extract<ToolPolicyOutcome<unknown>, { ok: false }>): never => {
    const { error, decision, classification, retryAfterMs } = outcome;
    throw new PolicyFailure(error, { decision, classification, retryAfterMs });
  };

  /** A streaming attempt: its iterator and first result, so a failure before the first value can be retried. */
  type Primed = { iterator: AsyncIterator<unknown>; first: IteratorResult<unknown> };
  const prime = async (iterable: AsyncIterable<unknown>): Promise<Primed> => {
    const iterator = iterable[Symbol.asyncIterator]();
    return { iterator, first: await iterator.next() };
  };
  const primedValue = (value: unknown): Primed => ({
    iterator: (async function* () {})(),
    first: { done: false, value },
  });

  /** Passes a primed stream on; after its first value, errors reach the model-visible layer unretried. */
  const relay = async function* (outcome: Promise<unknown>): AsyncGenerator<unknown> {
    const { iterator, first } = (await outcome) as Primed;
    if (first.done) return;
    yield first.value;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  };

  return (call, onAnsweredBy) => {
    // Streaming or not is decided by what the first attempt returns, as the SDK does: an async iterable must be
    // answered synchronously with one, so the first attempt runs in this tick (see `ToolPolicy.run`).
    let streaming: boolean | undefined;
    const outcome = policy
      .run(
        ({ signal }) => {
          const result = invoke(attemptCall(call, signal));
          streaming ??= isAsyncIterable(result);
          if (!streaming) return result;
          if (!isAsyncIterable(result)) {
            throw new TypeError(
              `Tool '${name}' returned an async iterable on its first attempt but not on a retry: return the same kind of result on every call.`,
            );
          }
          return prime(result);
        },
        {
          signal: call.options.abortSignal,
          keepOwnError: hooks.keepOwnError,
          telemetry: telemetryOfCall(),
          fallback: policyFallback(call, (value) => (streaming ? primedValue(value) : value)),
        },
      )
      .then((done) => {
        if (!done.ok) return failed(done);
        if (done.answeredBy) onAnsweredBy(done.answeredBy);
        return done.value;
      });
    // Nothing returned in this tick (an async breaker store, an open circuit, a throw): judge by the function's type.
    streaming ??= isAsyncGeneratorFunction(call.execute);
    if (!streaming) return outcome;
    // The attempt runs before the SDK starts iterating; its failure is delivered by `relay`, not unhandled.
    outcome.catch(() => {});
    return relay(outcome);
  };
}

/**
 * Tells the model which tool answered when a fallback did: a text output gets a leading note, a JSON output
 * becomes `{ answeredBy, result }`. Other output kinds (content parts, promises) are kept as they are.
 */
export function annotateAnsweredBy(output: unknown, tool: string): unknown {
  if (typeof output !== 'object' || output === null || !('type' in output) || !('value' in output))
    return output;
  if (output.type === 'text')
    return { type: 'text', value: `${modelText.answeredBy(tool)} ${String(output.value)}` };
  if (output.type === 'json') return { type: 'json', value: { answeredBy: tool, result: output.value } };
  return output;
}
