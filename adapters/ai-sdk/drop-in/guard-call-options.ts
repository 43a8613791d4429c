import {
  type LanguageModel,
  type PrepareStepFunction,
  type TimeoutConfiguration,
  type ToolCallRepairFunction,
  type ToolSet,
  wrapLanguageModel,
} from 'ai';
import { type Coordination, checkCoordination } from '../../../src/policy/coordination.js';
import { defaultTurnTimeoutMs, type TurnDeadlineReport } from '../../../src/policy/turn-deadline.js';
import { checkCount, checkFunction, checkOptionsObject, checkTimeoutMs } from '../../../src/util/validate.js';
import { resolveModel } from '../stream-guard/models/resolve-model.js';
import {
  reportFailureKey,
  resolveOptions,
  type StreamGuardOptions,
  telemetryKey,
} from '../stream-guard/options.js';
import { guardMiddleware } from '../stream-guard/stream-guard.js';
import { type GracefulRepairOptions, repairHook } from '../tools/graceful-repair-tool-call.js';
import { type GracefulToolOptions, gracefulTools } from '../tools/graceful-tool.js';
import { copyWith } from '../tools/tool-copy.js';
import { type TurnDeadlineRun, withTurnDeadline } from '../tools/turn-deadline.js';
import { withCleanPrompt } from './discarded-prompt.js';
import { withLoudFailuresAsErrors } from './loud-failure-events.js';

/** What the drop-ins add to the AI SDK's options. Everything else is the SDK's own, unchanged. */
export interface GracefulCallOptions {
  /**
   * The stream guard's options, or `false` to call the SDK unguarded (with the SDK's own retries). The drop-in
   * maps the call's `maxRetries` (default 2) to the guard's `maxRetries` and `timeout.chunkMs` to `stallTimeoutMs`
   * unless you set them here.
   * @default {}
   */
  streamGuard?: StreamGuardOptions | false;
  /**
   * Defaults for `gracefulTools` applied to `tools` (default `{}`: every tool becomes a graceful tool with the
   * standard retries and model-visible errors; tools you wrapped yourself keep their options). `false` leaves the
   * tools as they are.
   * @default {}
   */
  gracefulTools?: GracefulToolOptions | false;
  /**
   * The per-turn deadline with graceful degradation (see `withTurnDeadline`), in ms; `false` turns it off. Any other
   * value must be a number of ms in (0, 2^31−1] (0, negative, NaN, `Infinity` throw a `RangeError` naming
   * `turnTimeoutMs`).
   * @default 300000
   */
  turnTimeoutMs?: number | false;
  /**
   * Called once when the run ends, however it ends (answer, failed step, abort), with the turn deadline's report:
   * which tool calls completed, timed out and were skipped (`<tool>#<toolCallId>`), and whether it expired. Not
   * called with `turnTimeoutMs: false`. A throwing callback is logged and ignored.
   */
  onTurnDeadline?: (report: TurnDeadlineReport) => void;
  /**
   * What this call shares with other processes (`redisCoordination(client)` from `graceful-ai/redis`): given to the
   * stream guard (cool-downs per provider, model and API key) and to `gracefulTools` (cool-downs and breakers per
   * tool name), unless `streamGuard.coordination` or `gracefulTools.coordination` say otherwise. Default: none.
   */
  coordination?: Coordination;
}

/** The drop-ins' defaults: the SDK's `maxRetries` (2), mapped onto the guard, and a 5-minute turn deadline. */
export const defaultCallOptions = { maxRetries: 2, turnTimeoutMs: defaultTurnTimeoutMs } as const;

/** A drop-in's rewritten options, its turn deadline (`undefined` with `turnTimeoutMs: false`) and its failure. */
export interface DropInCall<O> {
  options: O;
  turn: TurnDeadlineRun<O> | undefined;
  /**
   * The failure that ended the run where the SDK would not reject: one the guard could not recover, or a used-up
   * unknown-tool budget (`undefined` until then).
   */
  failure(): { error: unknown } | undefined;
}

interface SdkCallOptions {
  model: LanguageModel;
  tools?: ToolSet;
  maxRetries?: number;
  timeout?: TimeoutConfiguration<never> | number;
  // biome-ignore lint/suspicious/noExplicitAny: the SDK's repair function is generic over the caller's tools.
  repairToolCall?: ToolCallRepairFunction<any>;
  // biome-ignore lint/suspicious/noExplicitAny: as above (the deprecated alias of `repairToolCall`).
  experimental_repairToolCall?: ToolCallRepairFunction<any>;
  // biome-ignore lint/suspicious/noExplicitAny: the SDK's PrepareStepFunction is generic over the caller's tools.
  prepareStep?: PrepareStepFunction<any, any>;
  telemetry?: SdkTelemetry;
  experimental_telemetry?: SdkTelemetry;
}

/** What of the SDK's `telemetry` option decides whether it records telemetry. */
interface SdkTelemetry {
  isEnabled?: boolean;
  integrations?: unknown;
}

/**
 * Whether the AI SDK records telemetry for a call, as its dispatcher decides: not turned off, and an integration
 * given with the call or registered (`registerTelemetry`). The guard then records its spans in the same trace.
 */
export function sdkRecordsTelemetry(
  options: Pick<SdkCallOptions, 'telemetry' | 'experimental_telemetry'>,
): boolean {
  const telemetry = options.telemetry ?? options.experimental_telemetry;
  if (telemetry?.isEnabled === false) return false;
  const given = telemetry?.integrations;
  if (given != null) return !Array.isArray(given) || given.length > 0;
  const registered = (globalThis as { AI_SDK_TELEMETRY_INTEGRATIONS?: unknown[] })
    .AI_SDK_TELEMETRY_INTEGRATIONS;
  return (registered?.length ?? 0) > 0;
}

/**
 * Checks the options a drop-in adds and the ones it takes over from the SDK (`maxRetries`, the `timeout`s, which
 * the SDK does not check: Node fires a timer above 2^31−1 ms after ~1 ms), naming each one after `prefix`. Run
 * where the options are given: when a drop-in call starts, and when an `AgentSession` is built (`callOptions.`).
 */
export function checkCallOptions(
  options: Omit<SdkCallOptions, 'model'> & GracefulCallOptions,
  prefix = '',
): void {
  checkOwnOptions(options, prefix);
  // Named `streamGuard.<option>`: the call's own `maxRetries` is checked under its bare name.
  if (options.streamGuard) resolveOptions(options.streamGuard, `${prefix}streamGuard.`);
}

/** {@link checkCallOptions} but the guard's own options (resolved, and so checked, where the guard is built). */
function checkOwnOptions(options: Omit<SdkCallOptions, 'model'> & GracefulCallOptions, prefix: string): void {
  const { turnTimeoutMs } = options;
  // The SDK checks its own `maxRetries`; the guard takes it over, so it is checked here.
  checkCount(`${prefix}maxRetries`, options.maxRetries);
  if (turnTimeoutMs !== false) checkTimeoutMs(`${prefix}turnTimeoutMs`, turnTimeoutMs);
  checkOptionsObject(`${prefix}streamGuard`, options.streamGuard, true);
  checkOptionsObject(`${prefix}gracefulTools`, options.gracefulTools, true);
  checkFunction(`${prefix}onTurnDeadline`, options.onTurnDeadline);
  checkCoordination(`${prefix}coordination`, options.coordination);
  checkSdkTimeout(options.timeout, `${prefix}timeout`);
}

/** The SDK's `timeout`: a number of ms, or `{ totalMs, stepMs, firstChunkMs, chunkMs, toolMs, tools: { <name>Ms } }`. */
function checkSdkTimeout(timeout: SdkCallOptions['timeout'], name: string): void {
  if (typeof timeout !== 'object') {
    checkTimeoutMs(name, timeout);
    return;
  }
  checkOptionsObject(name, timeout);
  for (const key of ['totalMs', 'stepMs', 'firstChunkMs', 'chunkMs', 'toolMs'] as const) {
    checkTimeoutMs(`${name}.${key}`, timeout[key]);
  }
  const tools: unknown = timeout.tools;
  checkOptionsObject(`${name}.tools`, tools);
  for (const [tool, ms] of Object.entries(tools ?? {})) checkTimeoutMs(`${name}.tools.${tool}`, ms);
}

/**
 * Rewrites a drop-in's options so the guard is the single retry authority: the model wrapped with
 * {@link streamGuard} (also a model `prepareStep` returns), SDK `maxRetries: 0`, `streamRetries` off, and the
 * SDK's chunk timeout handed to the guard as its stall timeout (the SDK's own would abort the whole call). Guarded
 * or not, every step's prompt is cleared of what a reset discarded and its tool history repaired
 * ({@link withCleanPrompt}); the guard records a repair.
 */
export function guardCallOptions<O extends SdkCallOptions & GracefulCallOptions>(
  options: O,
  api: 'streamText' | 'generateText',
): DropInCall<O> {
  // The result is typed as `O` (without our keys at run time): `Omit` would break the SDK's prompt union.
  const {
    streamGuard: guardSettings,
    gracefulTools: toolDefaults,
    turnTimeoutMs = defaultCallOptions.turnTimeoutMs,
    onTurnDeadline,
    coordination,
    ...rest
  } = options;
  checkOwnOptions(options, '');
  let sdkOptions = rest as unknown as O;
  let failure: { error: unknown } | undefined;
  const failRun = (error: unknown) => {
    failure ??= { error };
  };
  if (toolDefaults !== false && options.tools) {
    sdkOptions = {
      ...sdkOptions,
      tools: wrappedTools(options.tools, toolDefaults, coordination),
      // Unknown tool names and unparseable arguments reach the model the same way, after the caller's own repair
      // (ai 7's `repairToolCall`, or its deprecated alias): under the name the SDK reads first, the alias cleared.
      repairToolCall: repairHook(
        {
          ...(typeof toolDefaults === 'object' ? pickRepairDefaults(toolDefaults) : {}),
          repair: options.repairToolCall ?? options.experimental_repairToolCall,
        },
        failRun,
      ),
      experimental_repairToolCall: undefined,
    };
  }
  const chunkMs = typeof options.timeout === 'object' ? options.timeout.chunkMs : undefined;
  const middleware =
    guardSettings === false
      ? undefined
      : guardMiddleware(
          resolveOptions(
            {
              // The guard's own count wins over the call's `maxRetries`.
              maxRetries: options.maxRetries ?? defaultCallOptions.maxRetries,
              stallTimeoutMs: api === 'streamText' ? chunkMs : undefined,
              coordination,
              ...guardSettings,
              [reportFailureKey]: failRun,
              [telemetryKey]: sdkRecordsTelemetry(options),
            },
            'streamGuard.',
          ),
        );
  // The deadline's timer starts last, so an invalid option above leaves no timer behind.
  const turn =
    turnTimeoutMs === false ? undefined : withTurnDeadline(sdkOptions, { turnTimeoutMs, onTurnDeadline });
  if (turn) sdkOptions = turn.options;
  const failed = () => failure;
  if (middleware === undefined) {
    const unguarded = {
      ...sdkOptions,
      ...asTheCallerSees(sdkOptions, { tools: [sdkOptions.tools, options.tools] }),
      prepareStep: withCleanPrompt(sdkOptions.prepareStep),
    };
    return { options: unguarded, turn, failure: failed };
  }
  const guard = (model: LanguageModel) => wrapLanguageModel({ model: resolveModel(model), middleware });
  const prepareStep = sdkOptions.prepareStep;
  const guardedModel = guard(options.model);
  const guarded = {
    ...sdkOptions,
    model: guardedModel,
    maxRetries: 0,
    streamRetries: undefined,
    // The guard watches chunks while streaming; `generateText` keeps the option, and so the SDK's warning about it.
    timeout:
      api === 'streamText' && typeof options.timeout === 'object'
        ? { ...options.timeout, chunkMs: undefined }
        : options.timeout,
    // The SDK runs with `maxRetries: 0` underneath; the callbacks report the caller's, which the guard honours.
    ...asTheCallerSees(sdkOptions, {
      tools: [sdkOptions.tools, options.tools],
      maxRetries: options.maxRetries ?? defaultCallOptions.maxRetries,
      timeout: options.timeout,
    }),
    prepareStep: withCleanPrompt(
      prepareStep &&
        (async (step: Parameters<typeof prepareStep>[0]) => {
          // The caller's step function sees the caller's model; a model it returns is guarded too.
          const own = step.model === guardedModel ? copyWith(step, { model: options.model }) : step;
          const result = await prepareStep(own);
          return result?.model === undefined ? result : { ...result, model: guard(result.model) };
        }),
      true,
    ),
  };
  return { options: guarded as unknown as O, turn, failure: failed };
}

const callbackName = /^(experimental_)?on[A-Z]/;

/**
 * The SDK's callbacks (`onStart`, `onStepStart`, `onEnd`, …), receiving what they would without the drop-in: the
 * caller's own tools object where the SDK reports the wrapped one, the caller's `maxRetries` and `timeout` where
 * it reports the ones it runs with (0; no `chunkMs`, which the guard took over), and a tool failure that fails the
 * run as the `tool-error` it is. Other events pass unchanged.
 */
function asTheCallerSees(
  options: object,
  view: { tools: [sdk: unknown, caller: unknown]; maxRetries?: number; timeout?: unknown },
): Record<string, unknown> {
  const [sdkTools, callerTools] = view.tools;
  const rewrite = (sdkEvent: unknown): unknown => {
    const event = withLoudFailuresAsErrors(sdkEvent);
    if (typeof event !== 'object' || event === null) return event;
    const overrides: Record<string, unknown> = {};
    if (sdkTools !== undefined && (event as { tools?: unknown }).tools === sdkTools)
      overrides.tools = callerTools;
    if (view.maxRetries !== undefined && 'maxRetries' in event) overrides.maxRetries = view.maxRetries;
    if (view.timeout !== undefined && 'timeout' in event) overrides.timeout = view.timeout;
    if (Object.keys(overrides).length === 0) return event;
    // The SDK swallows a throw here and the caller's callback would silently not run: a frozen event gets a spread.
    try {
      return copyWith(event, overrides);
    } catch {
      return { ...event, ...overrides };
    }
  };
  const out: Record<string, unknown> = {};
  for (const [name, callback] of Object.entries(options)) {
    if (typeof callback !== 'function' || !callbackName.test(name)) continue;
    out[name] = (event: unknown, ...rest: unknown[]) => callback(rewrite(event), ...rest);
  }
  return out;
}

/** Tools wrapped by a drop-in, by tools object, then defaults object, then coordination (`none` for none). */
const wrapped = new WeakMap<ToolSet, WeakMap<object, WeakMap<object, ToolSet>>>();
const none = {};

/**
 * `gracefulTools(tools, defaults)` with the call's coordination, wrapped once per tools object (and defaults object and
 * coordination): an agent that passes the same tools to every call pays for wrapping them, and for checking the
 * defaults, once. Wrapped tools keep no per-run state (a run's budget is counted from its messages; breakers are
 * process-wide per tool), so every call can share them.
 */
function wrappedTools(
  tools: ToolSet,
  defaults: GracefulToolOptions | undefined,
  coordination: Coordination | undefined,
): ToolSet {
  const byDefaults = wrapped.get(tools) ?? new WeakMap<object, WeakMap<object, ToolSet>>();
  wrapped.set(tools, byDefaults);
  const byCoordination = byDefaults.get(defaults ?? none) ?? new WeakMap<object, ToolSet>();
  byDefaults.set(defaults ?? none, byCoordination);
  let set = byCoordination.get(coordination ?? none);
  if (set === undefined) {
    set = gracefulTools(tools, coordination ? { coordination, ...defaults } : defaults);
    byCoordination.set(coordination ?? none, set);
  }
  return set;
}

/** The tool defaults the repair hook shares: the budget and the text's bounds. */
function pickRepairDefaults(defaults: GracefulToolOptions): GracefulRepairOptions {
  const { retries, maxErrorChars, redact, logger } = defaults;
  return { retries, maxErrorChars, redact, logger };
}
