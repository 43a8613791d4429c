import type { CooldownError } from '../errors/cooldown-error.js';
import { errorMarker, hasMarker } from '../errors/graceful-error.js';
import { activeSpanEvent } from '../observe/otel/otel-api.js';
import { isThenable } from '../util/shape.js';
import type { CooldownWait, Coordination } from './coordination.js';

/**
 * The span events of shared cool-downs, on the span active at the call: the stream guard's attempt span, the SDK's
 * tool span. No key: a model's holds a fingerprint of its API key.
 */
export const cooldownEventNames = {
  wait: 'graceful_ai.cooldown.wait',
  rejected: 'graceful_ai.cooldown.rejected',
  announced: 'graceful_ai.cooldown.announced',
} as const;

/**
 * Where one subject's calls meet shared cool-downs — a tool (`tool:<name>`, per attempt) or a model (`model:<provider>:
 * <id>[:<key fingerprint>]`, per request): before a call, wait out a cool-down another caller announced (or fail at once
 * with `CooldownError` when it is longer than the call may wait); after a failure, announce the delay it carried to
 * everyone sharing the coordination. The one wrapper both the tool retry loop and the stream guard use.
 */
export interface CooldownGate {
  /** Returns when the call may go; throws `CooldownError` for a cool-down longer than `wait.maxWaitMs`. */
  admit(wait: CooldownWait): void | Promise<void>;
  /** A failed call asked everyone to wait `ms` (a retry-after, an opened breaker's open time); nothing for 0. */
  failed(ms: number | undefined): void | Promise<void>;
  /** `admit`, the call, and `failed` with the delay `delayOf` finds on its error (rethrown). */
  around<R>(
    wait: CooldownWait,
    call: () => PromiseLike<R>,
    delayOf: (error: unknown) => number | undefined,
  ): Promise<R>;
}

/** The cool-down gate of `key` on `coordination`. */
export function cooldownGate(coordination: Coordination, key: string): CooldownGate {
  const rejected = (error: unknown): never => {
    // By its marker: the class (and its message formatting) stays out of bundles that never throw it.
    if (hasMarker(error, errorMarker('CooldownError'))) {
      const { retryAfterMs, maxWaitMs } = error as CooldownError;
      activeSpanEvent(cooldownEventNames.rejected, {
        'graceful_ai.cooldown.retry_after_ms': retryAfterMs,
        'graceful_ai.cooldown.max_wait_ms': maxWaitMs,
      });
    }
    throw error;
  };
  const gate: CooldownGate = {
    admit(wait) {
      const sleep: CooldownWait['sleep'] = (ms, signal) => {
        activeSpanEvent(cooldownEventNames.wait, { 'graceful_ai.cooldown.wait_ms': ms });
        return wait.sleep(ms, signal);
      };
      try {
        const admitted = coordination.beforeCall(key, { ...wait, sleep });
        return isThenable(admitted) ? Promise.resolve(admitted).catch(rejected) : admitted;
      } catch (error) {
        return rejected(error);
      }
    },
    failed(ms) {
      if (ms === undefined || !(ms > 0)) return;
      activeSpanEvent(cooldownEventNames.announced, { 'graceful_ai.cooldown.ms': ms });
      return coordination.coolDown(key, ms);
    },
    async around(wait, call, delayOf) {
      await gate.admit(wait);
      try {
        return await call();
      } catch (error) {
        await gate.failed(delayOf(error));
        throw error;
      }
    },
  };
  return gate;
}
