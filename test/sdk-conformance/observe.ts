/**
 * Runs one scenario through one implementation (`ai`'s functions or graceful-ai's drop-ins) and records everything
 * a caller can observe, already normalised: stream parts, callbacks in order, result fields, UI streams and HTTP
 * bodies, what the provider received, what the tools saw, and the warnings the SDK logged.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { EventEmitter } from 'node:events';
import type { generateText as sdkGenerateText, streamText as sdkStreamText } from 'ai';
import { type ModelScript, scriptedModel } from './model-script.js';
import { type Known, normalise } from './normalise.js';

export type Api = 'stream' | 'generate';

/** What the allowed differences may rely on: facts about what happens in a scenario. */
export type Tag =
  /** A retryable error thrown before any output that both `ai` (its `maxRetries`) and the guard retry. */
  | 'retry-before-output'
  /**
   * A failure the guard recovers and `ai` does not: an error part, a stream error or a clean end before output
   * (retried), a stall (`timeout.chunkMs`), or a transient failure after output (one recovery request).
   */
  | 'guard-recovers'
  /** A stream that ends before any output, 'interrupted', with no retry left: a failure to the guard, not an answer. */
  | 'interrupted-before-output'
  /**
   * A failure nothing recovers: `ai`'s streamText then resolves `text` with what came (an error part, a failure
   * after output, a later step's failure: the partial, possibly empty, answer) or rejects with a
   * `NoOutputGeneratedError` (a failure before any output in the first step).
   */
  | 'unrecovered-failure'
  /** The provider's stream itself errors (no `error` part) and nothing recovers it. */
  | 'stream-throws'
  /** After output, the guard's one recovery request is made and fails (an extra request `ai` does not make). */
  | 'recovery-attempted'
  /** A tool call the model gets an error text for: the tool threw, invalid input, unknown tool. */
  | 'tool-error-text';

export interface Implementation {
  name: string;
  streamText: typeof sdkStreamText;
  generateText: typeof sdkGenerateText;
}

/** What a scenario's option builder gets for one run. */
export interface RunContext {
  api: Api;
  abortController: AbortController;
  /** Records something the code under test did (a tool ran, `prepareStep` was called). */
  log(event: string, data?: unknown): void;
  /** Names an object the caller hands over, so the same object coming back is shown by name. */
  known: Known;
}

export type CallbackStyle = 'modern' | 'deprecated';

export interface Scenario {
  id: string;
  apis: Api[];
  tags: Tag[];
  /** With `guard-recovers`: the drop-in's `result.text` once recovered (a guarantee checked on its own). */
  recoveredText?: string;
  script: ModelScript;
  /** The call's options without model and callbacks; fresh per run. */
  options?: (ctx: RunContext) => Record<string, unknown>;
  /** Options only the drop-in gets (graceful-ai's own knobs, e.g. an instant `streamGuard.sleep`). */
  graceful?: Record<string, unknown>;
  /** Which callback names the run passes (`deprecated`: the aliases). Default: modern. */
  callbacks?: CallbackStyle;
  /** A callback that throws after it was recorded (callbacks cannot fail a run). */
  throwingCallback?: string;
  /** Abort the caller's controller before the call. */
  abortBefore?: boolean;
  /**
   * Abort the caller's controller once the consumer has read `count` parts of `type` from `fullStream` (the
   * provider stalls after them, so nothing is in flight: both runs have shown the same parts when it aborts).
   */
  abortAfter?: { type: string; count: number };
  /** Waits out the SDK's own (real, 2 s) retry delay: the harness's self-test skips it. */
  slow?: boolean;
}

export interface Observation {
  threw?: unknown;
  stream?: unknown[];
  textStream?: unknown[];
  result?: Record<string, unknown>;
  /** The lifecycle callbacks (all but `onChunk`), in the order they ran. */
  callbacks: { name: string; arg: unknown }[];
  /**
   * `onChunk`'s arguments, in order. Kept apart from `callbacks`: when a chunk is delivered relative to a tool's
   * execution (two concurrent activities) is scheduling, not contract.
   */
  chunks: unknown[];
  ui?: unknown[];
  uiEnd?: unknown;
  uiResponse?: unknown;
  pipe?: unknown;
  requests: { doStream: unknown[]; doGenerate: unknown[] };
  log: { event: string; data: unknown }[];
  warnings: unknown[];
}

const callbackNames: Record<Api, Record<CallbackStyle, string[]>> = {
  stream: {
    modern: [
      'onStart',
      'onStepStart',
      'onLanguageModelCallStart',
      'onLanguageModelCallEnd',
      'onToolExecutionStart',
      'onToolExecutionEnd',
      'onChunk',
      'onStepEnd',
      'onStepError',
      'onEnd',
      'onError',
      'onAbort',
    ],
    deprecated: [
      'experimental_onStart',
      'experimental_onStepStart',
      'experimental_onLanguageModelCallStart',
      'experimental_onLanguageModelCallEnd',
      'experimental_onToolCallStart',
      'experimental_onToolCallFinish',
      'onChunk',
      'onStepFinish',
      'onStepError',
      'onFinish',
      'onError',
      'onAbort',
    ],
  },
  generate: {
    modern: [
      'onStart',
      'onStepStart',
      'onLanguageModelCallStart',
      'onLanguageModelCallEnd',
      'onToolExecutionStart',
      'onToolExecutionEnd',
      'onStepEnd',
      'onStepError',
      'onEnd',
    ],
    deprecated: [
      'experimental_onStart',
      'experimental_onStepStart',
      'experimental_onLanguageModelCallStart',
      'experimental_onLanguageModelCallEnd',
      'experimental_onToolCallStart',
      'experimental_onToolCallFinish',
      'onStepFinish',
      'onStepError',
      'onFinish',
    ],
  },
};

const streamResultFields = [
  'text',
  'content',
  'reasoning',
  'reasoningText',
  'files',
  'sources',
  'toolCalls',
  'staticToolCalls',
  'dynamicToolCalls',
  'toolResults',
  'staticToolResults',
  'dynamicToolResults',
  'finishReason',
  'rawFinishReason',
  'usage',
  'totalUsage',
  'warnings',
  'steps',
  'request',
  'response',
  'responseMessages',
  'providerMetadata',
  'output',
] as const;

const generateResultFields = [...streamResultFields, 'finalStep'] as const;

/** How long a result promise may stay pending once the stream has ended. */
const SETTLE_MS = 250;
/** How long any one stream of a run may take. */
const STREAM_MS = 5_000;

const warningSink = new AsyncLocalStorage<unknown[]>();
let warningsInstalled = false;

/** Routes the SDK's logged warnings (`AI_SDK_LOG_WARNINGS`) to the observation of the run that logged them. */
export function installWarningCapture(): () => void {
  const holder = globalThis as { AI_SDK_LOG_WARNINGS?: unknown };
  const previous = holder.AI_SDK_LOG_WARNINGS;
  holder.AI_SDK_LOG_WARNINGS = (options: unknown) => {
    const sink = warningSink.getStore();
    if (sink) sink.push(normalise(options));
  };
  warningsInstalled = true;
  return () => {
    holder.AI_SDK_LOG_WARNINGS = previous;
    warningsInstalled = false;
  };
}

/** Runs `scenario` through `impl` with `api`. */
export async function observe(
  impl: Implementation,
  scenario: Scenario,
  api: Api,
  graceful: boolean,
): Promise<Observation> {
  if (!warningsInstalled) throw new Error('observe: call installWarningCapture() first');
  const warnings: unknown[] = [];
  return warningSink.run(warnings, async () => {
    const observation = await run(impl, scenario, api, graceful);
    observation.warnings = warnings;
    return observation;
  });
}

async function run(impl: Implementation, scenario: Scenario, api: Api, graceful: boolean) {
  const known: Known = new Map();
  const abortController = new AbortController();
  const observation: Observation = {
    callbacks: [],
    chunks: [],
    requests: { doStream: [], doGenerate: [] },
    log: [],
    warnings: [],
  };
  const ctx: RunContext = {
    api,
    abortController,
    known,
    log: (event, data) => observation.log.push({ event, data: normalise(data, known) }),
  };
  const model = scriptedModel(scenario.script, api, { abortCaller: () => abortController.abort() });
  known.set(model, "caller's model");
  const scenarioOptions = scenario.options?.(ctx) ?? {};
  const tools = scenarioOptions.tools as Record<string, object> | undefined;
  if (tools) {
    known.set(tools, "caller's tools");
    for (const [name, tool] of Object.entries(tools)) known.set(tool, `caller's tool ${name}`);
  }
  const callbacks: Record<string, (arg: unknown) => void> = {};
  for (const name of callbackNames[api][scenario.callbacks ?? 'modern']) {
    callbacks[name] = (arg: unknown) => {
      if (name === 'onChunk') observation.chunks.push(normalise(arg, known));
      else observation.callbacks.push({ name, arg: normalise(arg, known) });
      if (scenario.throwingCallback === name) throw new Error(`${name} callback failed`);
    };
  }
  let ids = 0;
  if (scenario.abortBefore) abortController.abort();
  const options: Record<string, unknown> = {
    model,
    prompt: 'Hello',
    ...scenarioOptions,
    ...callbacks,
    _internal: { generateId: () => `id-${ids++}`, generateCallId: () => 'call-id', now: () => 1_000 },
    ...(graceful ? scenario.graceful : {}),
  };
  if (api === 'stream')
    await observeStream(impl, options, observation, known, abortHook(scenario, abortController));
  else await observeGenerate(impl, options, observation, known);
  observation.requests = {
    doStream: model.doStreamCalls.map((call) => normalise(call, known)),
    doGenerate: model.doGenerateCalls.map((call) => normalise(call, known)),
  };
  return observation;
}

function abortHook(scenario: Scenario, controller: AbortController): ((part: unknown) => void) | undefined {
  const when = scenario.abortAfter;
  if (when === undefined) return undefined;
  let seen = 0;
  return (part) => {
    if ((part as { type?: unknown }).type === when.type && ++seen === when.count) controller.abort();
  };
}

async function observeStream(
  impl: Implementation,
  options: Record<string, unknown>,
  observation: Observation,
  known: Known,
  onPart?: (part: unknown) => void,
): Promise<void> {
  let result: ReturnType<typeof sdkStreamText>;
  try {
    result = impl.streamText(options as Parameters<typeof sdkStreamText>[0]);
  } catch (error) {
    observation.threw = normalise(error, known);
    return;
  }
  observation.stream = await collect(() => result.fullStream, known, onPart);
  observation.textStream = await collect(() => result.textStream, known);
  observation.result = await settleFields(
    result as unknown as Record<string, unknown>,
    streamResultFields,
    known,
  );
  observation.ui = await collect(
    () =>
      result.toUIMessageStream({
        sendSources: true,
        onEnd: (event) => {
          observation.uiEnd = normalise(event, known);
        },
      }),
    known,
  );
  observation.uiResponse = await guarded(async () => {
    const response = result.toUIMessageStreamResponse();
    return {
      status: response.status,
      headers: headersOf(response.headers),
      body: sse(await response.text()),
    };
  }, known);
  observation.pipe = await guarded(async () => {
    const response = new FakeServerResponse();
    // Typed `void`, but it returns the writer's promise, which rejects when the UI stream throws.
    const writing = result.pipeUIMessageStreamToResponse(response as never) as unknown;
    let failure: unknown;
    await Promise.race([
      response.finished,
      Promise.resolve(writing).then(
        () => response.finished,
        (error) => {
          failure = { $threw: normalise(error, known) };
        },
      ),
    ]);
    const written = { status: response.statusCode, headers: response.headers, body: sse(response.body) };
    return failure === undefined ? written : { ...written, ended: failure };
  }, known);
}

async function observeGenerate(
  impl: Implementation,
  options: Record<string, unknown>,
  observation: Observation,
  known: Known,
): Promise<void> {
  let result: Awaited<ReturnType<typeof sdkGenerateText>>;
  try {
    result = await withDeadline(
      impl.generateText(options as Parameters<typeof sdkGenerateText>[0]),
      STREAM_MS,
    );
  } catch (error) {
    observation.threw = normalise(error, known);
    return;
  }
  const fields: Record<string, unknown> = {};
  for (const field of generateResultFields) {
    try {
      fields[field] = { value: normalise((result as unknown as Record<string, unknown>)[field], known) };
    } catch (error) {
      fields[field] = { threw: normalise(error, known) };
    }
  }
  observation.result = fields;
}

/** Reads a stream to its end; a stream that throws ends with `{ $threw }`. */
async function collect(
  get: () => AsyncIterable<unknown>,
  known: Known,
  onItem?: (item: unknown) => void,
): Promise<unknown[]> {
  const items: unknown[] = [];
  try {
    await withDeadline(
      (async () => {
        for await (const item of get()) {
          items.push(normalise(item, known));
          onItem?.(item);
        }
      })(),
      STREAM_MS,
    );
  } catch (error) {
    items.push({ $threw: normalise(error, known) });
  }
  return items;
}

async function guarded(fn: () => Promise<unknown>, known: Known): Promise<unknown> {
  try {
    return await withDeadline(fn(), STREAM_MS);
  } catch (error) {
    return { $threw: normalise(error, known) };
  }
}

/** Every promise field of a stream result: `{ value }`, `{ rejected }`, or `'<pending>'` after SETTLE_MS. */
async function settleFields(
  result: Record<string, unknown>,
  fields: readonly string[],
  known: Known,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const pending = fields.map(async (field) => {
    out[field] = '<pending>';
    try {
      const value = await Promise.resolve(result[field]);
      out[field] = { value: normalise(value, known) };
    } catch (error) {
      out[field] = { rejected: normalise(error, known) };
    }
  });
  await Promise.race([Promise.all(pending), sleep(SETTLE_MS)]);
  return out;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref?.());
}

class TimedOut extends Error {
  override readonly name = 'ConformanceHarnessTimeout';
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut(`no end after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function headersOf(headers: Headers | Map<string, string> | Record<string, unknown>): Record<string, string> {
  const entries: [string, string][] = [];
  if (headers instanceof Headers || headers instanceof Map) {
    headers.forEach((value: string, name: string) => {
      entries.push([name, value]);
    });
  } else {
    for (const [name, value] of Object.entries(headers)) entries.push([name, String(value)]);
  }
  return Object.fromEntries(entries.map(([k, v]) => [k.toLowerCase(), v]).sort());
}

/** An SSE body as its events, each parsed when it is JSON. */
function sse(body: string): unknown[] {
  return body
    .split('\n\n')
    .filter((event) => event.trim() !== '')
    .map((event) => {
      const data = event.replace(/^data: /, '');
      try {
        return normalise(JSON.parse(data));
      } catch {
        return normalise(data);
      }
    });
}

/** Just enough of Node's `ServerResponse` for `pipeUIMessageStreamToResponse`. */
export class FakeServerResponse extends EventEmitter {
  statusCode: number | undefined;
  headers: Record<string, string> = {};
  body = '';
  writableFinished = false;
  destroyed = false;
  readonly #decoder = new TextDecoder();
  #resolve!: () => void;
  readonly finished = new Promise<void>((resolve) => {
    this.#resolve = resolve;
  });

  setHeaders(headers: Headers | Map<string, string>): this {
    this.headers = { ...this.headers, ...headersOf(headers) };
    return this;
  }

  writeHead(status: number): this {
    this.statusCode = status;
    return this;
  }

  write(chunk: Uint8Array | string): boolean {
    this.body += typeof chunk === 'string' ? chunk : this.#decoder.decode(chunk, { stream: true });
    return true;
  }

  end(): this {
    this.writableFinished = true;
    this.emit('finish');
    this.#resolve();
    return this;
  }
}
