/**
 * A misspelled option is a type error: every `@ts-expect-error` below must be used (tsc fails on an unused one),
 * and the correctly spelled calls must compile. Checked by `tsc -p tsconfig.json` (which includes test/); the
 * calls never run.
 *
 * What TypeScript does and does not catch on the drop-ins, whose options are `SDK options & GracefulCallOptions`:
 * a misspelled key inside one of our nested objects (`streamGuard`, `gracefulTools`, `autoRetry`, `breaker`) is
 * caught, and so is a misspelled top-level key (excess property checking covers the whole intersection, even with
 * the SDK's prompt/messages union). A misspelled key in an object built ahead of the call (not a fresh literal)
 * is not caught: that is TypeScript's rule for every API, and the reason the options are also checked at run time.
 */
import { isStepCount, jsonSchema, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { generateText } from '../../../adapters/ai-sdk/drop-in/generate-text.js';
import { streamText } from '../../../adapters/ai-sdk/drop-in/stream-text.js';
import { AgentSession } from '../../../adapters/ai-sdk/session/agent-session.js';
import { streamGuard } from '../../../adapters/ai-sdk/stream-guard/stream-guard.js';
import { gracefulRepairToolCall } from '../../../adapters/ai-sdk/tools/graceful-repair-tool-call.js';
import {
  type GracefulToolOptions,
  gracefulTool,
  gracefulTools,
} from '../../../adapters/ai-sdk/tools/graceful-tool.js';
import { withTurnDeadline } from '../../../adapters/ai-sdk/tools/turn-deadline.js';

const model = new MockLanguageModelV4();
const schema = jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } } });
const weather = tool({ inputSchema: schema, execute: async ({ city }) => `sunny in ${city}` });
const tools = { weather };

describe('a misspelled option is a type error', () => {
  it('in gracefulTool and gracefulTools (checked by tsc; never run)', () => {
    const typeChecks = () => [
      // @ts-expect-error retry is not an option (autoRetry: { maxRetries: 3 } or retries is)
      gracefulTool(weather, { retry: 3 }),
      // @ts-expect-error retrys is not an option (retries is)
      gracefulTool(weather, { retrys: 2 }),
      // @ts-expect-error maxErrorChar is not an option (maxErrorChars is)
      gracefulTool(weather, { maxErrorChar: 500 }),
      // @ts-expect-error timeout is not an option (timeoutMs is)
      gracefulTool(weather, { timeout: 5000 }),
      // @ts-expect-error maxAttempt is not an autoRetry option (maxRetries, or the deprecated maxAttempts, is)
      gracefulTool(weather, { autoRetry: { maxAttempt: 2 } }),
      // @ts-expect-error maxRetry is not an autoRetry option
      gracefulTool(weather, { autoRetry: { maxRetry: 2 } }),
      // @ts-expect-error initialDelay is not an autoRetry option (initialDelayMs is)
      gracefulTool(weather, { autoRetry: { initialDelay: 100 } }),
      // @ts-expect-error autoRetry is an options object or false, never a count
      gracefulTool(weather, { autoRetry: 3 }),
      // @ts-expect-error openMS is not a breaker option (openMs is)
      gracefulTool(weather, { breaker: { openMS: 1000 } }),
      // @ts-expect-error breaker is an options object or false
      gracefulTool(weather, { breaker: 5 }),
      // @ts-expect-error clocks is not a runtime field
      gracefulTool(weather, { runtime: { clocks: { now: () => 0 } } }),
      // @ts-expect-error retrys is not an option
      gracefulTools({ weather }, { retrys: 2 }),
      // @ts-expect-error maxAttempt is not an autoRetry option
      gracefulTools({ weather }, { autoRetry: { maxAttempt: 2 } }),
      // @ts-expect-error failureTreshold is not a breaker option
      gracefulTools({ weather }, { breaker: { failureTreshold: 3 } }),
      // @ts-expect-error retry is not an option of the repair hook (retries is)
      gracefulRepairToolCall({ retry: 1 }),
      // Spelled right, they compile.
      gracefulTool(weather, {
        retries: 2,
        maxErrorChars: 500,
        timeoutMs: 5000,
        autoRetry: { maxRetries: 2, initialDelayMs: 100, multiplier: 2, maxDelayMs: 1000, jitter: 0.1 },
        breaker: { failureThreshold: 3, successThreshold: 1, openMs: 1000 },
        runtime: { clock: { now: () => 0 }, sleep: async () => {}, random: () => 0.5 },
        fallback: { name: 'weather_backup', tool: weather },
      }),
      gracefulTool(weather, {
        autoRetry: { maxRetries: 2, maxTotalTimeMs: Number.POSITIVE_INFINITY },
        breaker: false,
      }),
      // @ts-expect-error retry is not an option (autoRetry is)
      gracefulTool(weather, { retry: { maxRetries: 2 } }),
      gracefulTool(weather, { autoRetry: false, fallback: weather }),
      gracefulTools({ weather }, { retries: 0, autoRetry: { maxRetries: 1, maxRetryAfterMs: 5000 } }),
      gracefulRepairToolCall({ retries: 1, maxErrorChars: 1000 }),
    ];
    expect(typeChecks).toBeTypeOf('function');
  });

  it('in streamGuard (checked by tsc; never run)', () => {
    const typeChecks = () => [
      // @ts-expect-error maxRetry is not an option (maxRetries is)
      streamGuard({ maxRetry: 2 }),
      // @ts-expect-error stallTimeout is not an option (stallTimeoutMs is)
      streamGuard({ stallTimeout: 5000 }),
      // @ts-expect-error initialDelay is not an option (initialDelayMs is)
      streamGuard({ initialDelay: 100 }),
      // @ts-expect-error the backoff fields are flat: no backoff object
      streamGuard({ backoff: { initialDelayMs: 100 } }),
      // Spelled right, it compiles.
      streamGuard({
        maxRetries: 2,
        initialDelayMs: 500,
        multiplier: 2,
        maxDelayMs: 8000,
        jitter: 0,
        maxRetryAfterMs: 30_000,
        stallTimeoutMs: 10_000,
        degrade: false,
      }),
    ];
    expect(typeChecks).toBeTypeOf('function');
  });

  it('in the drop-ins streamText and generateText, nested and top-level (checked by tsc; never run)', () => {
    const typeChecks = () => [
      // @ts-expect-error maxRetry is not a streamGuard option (maxRetries is)
      streamText({ model, prompt: 'hi', streamGuard: { maxRetry: 2 } }),
      // @ts-expect-error maxRetry is not a streamGuard option
      generateText({ model, prompt: 'hi', streamGuard: { maxRetry: 2 } }),
      // @ts-expect-error maxAttempt is not an autoRetry option of the tool defaults
      streamText({ model, prompt: 'hi', tools, gracefulTools: { autoRetry: { maxAttempt: 2 } } }),
      // @ts-expect-error retrys is not a tool default
      generateText({ model, prompt: 'hi', tools, gracefulTools: { retrys: 2 } }),
      // A misspelled top-level key is caught too, although the options are an intersection with the SDK's:
      // @ts-expect-error turnTimeoutMS is not an option (turnTimeoutMs is)
      streamText({ model, prompt: 'hi', turnTimeoutMS: 60_000 }),
      // @ts-expect-error turnTimeout is not an option (turnTimeoutMs is)
      generateText({ model, prompt: 'hi', turnTimeout: 60_000 }),
      // @ts-expect-error streamGuards is not an option (streamGuard is)
      streamText({ model, messages: [], streamGuards: { maxRetries: 1 } }),
      // @ts-expect-error maxRetry is not an option (the SDK's maxRetries is)
      generateText({ model, messages: [], maxRetry: 1 }),
      // @ts-expect-error turnTimeoutMs is a number of ms or false, not true
      streamText({ model, prompt: 'hi', turnTimeoutMs: true }),
      // Spelled right, they compile.
      streamText({
        model,
        prompt: 'hi',
        maxRetries: 3,
        turnTimeoutMs: 60_000,
        timeout: { chunkMs: 10_000 },
        streamGuard: { maxRetries: 2, stallTimeoutMs: 5000, jitter: 0 },
        tools: { weather },
        gracefulTools: { retries: 2, autoRetry: { maxRetries: 1 }, breaker: false },
        onTurnDeadline: () => {},
      }),
      generateText({ model, messages: [], maxRetries: 0, turnTimeoutMs: false, streamGuard: false }),
      // @ts-expect-error graceful is not an option (streamGuard is)
      generateText({ model, prompt: 'hi', graceful: { maxRetries: 1 } }),
      withTurnDeadline({ stopWhen: isStepCount(3) }, { turnTimeoutMs: 60_000 }),
      // @ts-expect-error turnTimeout is not a withTurnDeadline setting (turnTimeoutMs is)
      withTurnDeadline({}, { turnTimeout: 60_000 }),
    ];
    expect(typeChecks).toBeTypeOf('function');
  });

  it('not caught: a misspelled key in an options object built ahead of the call (checked by tsc; never run)', () => {
    const typeChecks = () => {
      // Not a fresh literal, so TypeScript does not check for excess keys: `retrys` compiles and is ignored.
      // Annotating the object with the exported options type restores the check (next statement).
      const prepared = { retrys: 2, retries: 1 };
      const annotated: GracefulToolOptions = {
        retries: 1,
        // @ts-expect-error retrys is not an option, once the object is typed as GracefulToolOptions
        retrys: 2,
      };
      return [gracefulTool(weather, prepared), gracefulTool(weather, annotated)];
    };
    expect(typeChecks).toBeTypeOf('function');
  });

  it('in AgentSession settings (checked by tsc; never run)', () => {
    const typeChecks = () => [
      // @ts-expect-error maxRetry is not a retry setting (maxRetries is)
      new AgentSession({ model, settings: { retry: { maxRetry: 1 } } }),
      // @ts-expect-error enabled is a boolean
      new AgentSession({ model, settings: { retry: { enabled: 'yes' } } }),
      // @ts-expect-error retries is not a settings key (retry is)
      new AgentSession({ model, settings: { retries: { maxRetries: 1 } } }),
      // @ts-expect-error settings is not spelled setting
      new AgentSession({ model, setting: { retry: { maxRetries: 1 } } }),
      // Spelled right, it compiles.
      new AgentSession({
        model,
        settings: {
          retry: {
            enabled: true,
            maxRetries: 1,
            initialDelayMs: 500,
            maxDelayMs: 5000,
            maxRetryAfterMs: 5000,
          },
        },
        stopWhen: [isStepCount(5)],
        callOptions: { turnTimeoutMs: 60_000, streamGuard: { stallTimeoutMs: 5000 } },
      }),
      new AgentSession({ model, settings: { retry: { initialDelayMs: 500, jitter: 0.1 } } }),
      // @ts-expect-error baseDelayMs is not a retry setting (initialDelayMs is)
      new AgentSession({ model, settings: { retry: { baseDelayMs: 500 } } }),
    ];
    expect(typeChecks).toBeTypeOf('function');
  });
});
