/**
 * The script player shared by both transports: it records a request, picks the scripted step and turns it
 * into a transport-neutral {@link ResponsePlan} in the wire of the route that was hit; {@link writeBody} then
 * plays a plan's body into a sink.
 */
import { abortableSleep } from '../src/policy/sleep.js';
import { type Clock, systemClock } from '../src/util/time.js';
import { renderApiError } from './api-errors.js';
import type { NetworkFailure } from './network-failure.js';
import { type Route, SERVED, WIRES, type Wire } from './routes.js';
import type { RecordedRequest, Script, ScriptFunction, Step, StreamFault } from './script.js';
import { validateStep } from './step-rules.js';
import type { AnswerMeta, AnswerStep, WireFormat } from './wire.js';

/** Options shared by both transports. */
export interface MockOptions {
  /** Clock for `RecordedRequest.time` and the `created` fields (default: `Date.now`). */
  clock?: Clock;
}

/** What a transport must do for one request. */
export type ResponsePlan =
  | { type: 'networkError'; failure: NetworkFailure; delayMs: number }
  | {
      type: 'body';
      status: number;
      headers: Record<string, string>;
      /** Milliseconds before the headers. */
      delayMs: number;
      /** Body pieces, written in order. */
      chunks: string[];
      /** Milliseconds between two pieces. */
      frameDelayMs: number;
      /** `end`: close cleanly; `reset`: destroy the connection; `stall`: keep it open and silent. */
      ending: 'end' | 'reset' | 'stall';
    };

/** The raw request as a transport read it, with the route it matched. */
export interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  bodyText: string;
  route: Route;
}

function jsonPlan(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  delayMs = 0,
): ResponsePlan {
  const isText = typeof body === 'string';
  return {
    type: 'body',
    status,
    headers: { 'content-type': isText ? 'text/plain' : 'application/json', ...headers },
    delayMs,
    chunks: [isText ? body : JSON.stringify(body)],
    frameDelayMs: 0,
    ending: 'end',
  };
}

/**
 * Headers of the mock's own errors (bad body, exhausted or failing script, a step the wire cannot carry, an
 * unknown route), on every wire: asking again cannot help, so clients that read `x-should-retry` (the official
 * `openai` client) do not retry them.
 */
export const MOCK_ERROR_HEADERS: Readonly<Record<string, string>> = { 'x-should-retry': 'false' };

/** The 404 a request gets on a path no wire serves (in OpenAI's error shape: it names no provider). */
export function unroutedPlan(method: string, url: URL): ResponsePlan {
  const message = `mock serves ${SERVED} only, not ${method} ${url.pathname}${url.search}`;
  return jsonPlan(404, WIRES.chat.errors.mockError(404, message, 'mock_not_found'), MOCK_ERROR_HEADERS);
}

/** Splits a script into its list part and its function part (validating the list with step indexes). */
function normalise(script: Script): { steps: readonly Step[]; rest: ScriptFunction | undefined } {
  const parts =
    typeof script === 'function'
      ? { steps: [], rest: script }
      : Array.isArray(script)
        ? { steps: script as readonly Step[], rest: undefined }
        : (script as { steps: readonly Step[]; rest?: ScriptFunction });
  if (!Array.isArray(parts.steps)) throw new TypeError('mock script: steps must be an array of steps');
  if (parts.rest !== undefined && typeof parts.rest !== 'function') {
    throw new TypeError('mock script: rest must be a function (request, ctx) => step');
  }
  for (const [i, step] of parts.steps.entries()) validateStep(step, `step ${i}`);
  return { steps: parts.steps, rest: parts.rest };
}

/** Plays one script; both transports own one player each. */
export class ScriptPlayer {
  /** Every request received, in order (unparseable ones included, with `body: undefined`). */
  readonly requests: RecordedRequest[] = [];
  private steps: readonly Step[];
  private rest: ScriptFunction | undefined;
  private answered = 0;
  private readonly clock: Clock;

  constructor(script: Script, options: MockOptions = {}) {
    ({ steps: this.steps, rest: this.rest } = normalise(script));
    this.clock = options.clock ?? systemClock;
  }

  /** Replaces the script and forgets the recorded requests (in place: references to `requests` stay valid). */
  reset(script: Script): void {
    ({ steps: this.steps, rest: this.rest } = normalise(script));
    this.answered = 0;
    this.requests.length = 0;
  }

  /** Records `raw` and decides the response. Never throws: script errors become HTTP 500 answers. */
  plan(raw: RawRequest): ResponsePlan {
    const time = this.clock.now();
    let body: unknown;
    let parseError: string | undefined;
    try {
      body = JSON.parse(raw.bodyText);
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        parseError = 'the body is not a JSON object';
    } catch (e) {
      parseError = (e as Error).message;
    }
    const stream = raw.route.stream ?? (body as { stream?: unknown } | undefined)?.stream === true;
    const request: RecordedRequest = {
      method: raw.method,
      path: raw.path,
      body,
      headers: raw.headers,
      time,
      api: raw.route.api,
      stream,
    };
    this.requests.push(request);
    const wire = WIRES[raw.route.api];
    const mockError = (status: number, message: string, code: string) =>
      jsonPlan(status, wire.errors.mockError(status, message, code), MOCK_ERROR_HEADERS);
    if (parseError !== undefined) {
      return mockError(
        400,
        `mock could not parse the request body: ${parseError}`,
        'mock_unparseable_request',
      );
    }

    const index = this.answered++;
    let step: Step | undefined;
    try {
      if (index < this.steps.length) step = this.steps[index];
      else {
        step = this.rest?.(request, { index, requests: this.requests });
        if (step !== undefined) step = validateStep(step, `step ${index} (from the script function)`);
      }
    } catch (e) {
      return mockError(
        500,
        `mock script failed on request ${index + 1}: ${(e as Error).message}`,
        'mock_script_error',
      );
    }
    if (step === undefined) {
      const hint = `no step for request ${index + 1} (${raw.method} ${raw.path}); add a step to the script or a script function`;
      return mockError(
        500,
        `mock script exhausted after ${index} requests: ${hint}`,
        'mock_script_exhausted',
      );
    }
    const meta: AnswerMeta = {
      n: index + 1,
      model: raw.route.model ?? String((body as { model?: unknown }).model ?? 'gpt-mock'),
      created: Math.floor(time / 1000),
      body: body as Record<string, unknown>,
    };
    if (step.kind === 'text' || step.kind === 'toolCalls') {
      const problem = wire.format.unsupported?.(step, stream);
      // A 400: the SDK does not retry it, so no later step is spent on a retry of this request.
      if (problem !== undefined)
        return mockError(
          400,
          `mock script step ${index} (${step.kind}): ${problem}`,
          'mock_unsupported_step',
        );
    }
    return renderStep(step, wire, meta, stream);
  }
}

function renderStep(step: Step, wire: Wire, meta: AnswerMeta, stream: boolean): ResponsePlan {
  const delayMs = step.delayMs ?? 0;
  const requestId = wire.headers(meta);
  if (step.kind === 'networkError')
    return { type: 'networkError', failure: step.failure ?? 'reset', delayMs };
  if (step.kind === 'http')
    return jsonPlan(step.status, step.body, { ...requestId, ...step.headers }, delayMs);
  if (step.kind === 'apiError') {
    const { status, body, headers } = renderApiError(step, wire.errors, meta);
    return jsonPlan(status, body, { ...requestId, ...headers }, delayMs);
  }
  if (!stream) return renderJson(step, wire.format, meta, { ...requestId });
  const { chunks, ending } = streamChunks(step, wire.format, meta);
  return {
    type: 'body',
    status: 200,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      ...requestId,
    },
    delayMs,
    chunks,
    frameDelayMs: step.frameDelayMs ?? 0,
    ending,
  };
}

/** A non-streamed answer; a stream fault affects the JSON body (half of it is sent, or an error body). */
function renderJson(
  step: AnswerStep,
  format: WireFormat,
  meta: AnswerMeta,
  headers: Record<string, string>,
): ResponsePlan {
  const delayMs = step.delayMs ?? 0;
  const plan = jsonPlan(200, format.json(step, meta), headers, delayMs);
  const fault = step.fault;
  if (fault === undefined || plan.type !== 'body') return plan;
  if (fault.kind === 'error') {
    return jsonPlan(format.errorStatus?.(fault) ?? 200, format.errorBody(fault, meta), headers, delayMs);
  }
  const text = plan.chunks[0]!;
  const half = text.slice(0, Math.floor(text.length / 2));
  const ending = fault.kind === 'cut' ? 'reset' : fault.kind === 'stall' ? 'stall' : 'end';
  return { ...plan, chunks: [half], ending };
}

/** Frames of a streamed answer with its fault applied. */
function streamChunks(step: AnswerStep, format: WireFormat, meta: AnswerMeta) {
  const fault: StreamFault | undefined = step.fault;
  const afterChars = fault?.afterChars;
  const events = format.events(step, meta, afterChars);
  const frames = events.map((e) => e.frame);
  if (fault === undefined) return { chunks: frames, ending: 'end' as const };
  let at = events.length;
  if (fault.kind === 'cut' && fault.afterFrames !== undefined) {
    at = Math.min(fault.afterFrames, events.length);
  } else {
    const total = events.reduce((sum, e) => sum + e.chars, 0);
    const target = Math.min(afterChars ?? 0, total);
    let chars = 0;
    for (const [i, event] of events.entries()) {
      if (event.output && chars >= target) {
        at = i;
        break;
      }
      chars += event.chars;
    }
  }
  const head = frames.slice(0, at);
  switch (fault.kind) {
    case 'cut':
      return { chunks: head, ending: 'reset' as const };
    case 'stall':
      return { chunks: head, ending: 'stall' as const };
    case 'endEarly': {
      const finish = fault.finish === 'other' ? format.finishWithoutReason(step, meta) : [];
      return { chunks: [...head, ...finish], ending: 'end' as const };
    }
    case 'error':
      return { chunks: [...head, format.errorFrame(fault, meta, at)], ending: 'end' as const };
    case 'garbled':
      return { chunks: [...head, format.garbledFrame(), ...frames.slice(at)], ending: 'end' as const };
  }
}

/** Where a transport writes a body. */
export interface BodySink {
  write(text: string): void;
  /** Closes the body cleanly. */
  end(): void;
  /** Kills the connection mid-body (after what was written has been flushed). */
  reset(): Promise<void>;
}

/**
 * Plays a body plan into `sink`. Returns when the body ended, was reset, or (for a stall, or at any time)
 * when `signal` aborts because the client went away or the transport closed.
 */
export async function writeBody(
  plan: Extract<ResponsePlan, { type: 'body' }>,
  sink: BodySink,
  signal: AbortSignal,
): Promise<void> {
  try {
    for (const [i, chunk] of plan.chunks.entries()) {
      if (i > 0 && plan.frameDelayMs > 0) await abortableSleep(plan.frameDelayMs, signal);
      if (signal.aborted) return;
      sink.write(chunk);
    }
    if (plan.ending === 'end') sink.end();
    else if (plan.ending === 'reset') await sink.reset();
    else await untilAborted(signal);
  } catch (e) {
    if (!signal.aborted) throw e;
  }
}

/** Resolves when `signal` aborts (at once if it already has). */
export function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
