import { defaultMaxErrorChars } from '../../src/model-text/format-for-model.js';
import { defaultTraceEntries } from '../../src/observe/trace.js';
import { defaultBreakerOptions } from '../../src/policy/circuit-breaker.js';
import { defaultRetryOptions } from '../../src/policy/retry.js';
import { defaultRetrySettings } from '../../src/session/settings.js';
import { defaultCallOptions } from './drop-in/guard-call-options.js';
import { defaultStreamGuardOptions } from './stream-guard/options.js';
import { defaultToolRetries } from './tools/graceful-tool.js';
import { defaultMaxIdenticalCalls } from './tools/identical-calls.js';

/**
 * Every default of graceful-ai in one place, by where the option is given (docs/README.md, "knobs at a glance",
 * states the same values; a test keeps the two equal).
 */
export const defaults = Object.freeze({
  /** `gracefulTool` / `gracefulTools`: the model-visible layer. */
  tool: Object.freeze({
    retries: defaultToolRetries,
    graceful: true,
    idempotent: false,
    maxErrorChars: defaultMaxErrorChars,
    maxIdenticalCalls: defaultMaxIdenticalCalls,
  }),
  /** `autoRetry` of a tool: silent retries of transient errors before the model sees anything. */
  autoRetry: defaultRetryOptions,
  /** `breaker` of a tool. */
  breaker: defaultBreakerOptions,
  /** `streamGuard()` and the drop-ins' `streamGuard` option. */
  streamGuard: defaultStreamGuardOptions,
  /** The drop-ins' own options (`maxRetries` is the SDK's, handed to the guard). */
  call: defaultCallOptions,
  /** `AgentSession`'s `settings.retry`. */
  sessionRetry: defaultRetrySettings,
  /** `TurnTrace`. */
  trace: Object.freeze({ maxEntries: defaultTraceEntries }),
});
