import type { CooldownWait, Coordination } from './coordination.js';

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
  const gate: CooldownGate = {
    admit: (wait) => coordination.beforeCall(key, wait),
    failed: (ms) => (ms !== undefined && ms > 0 ? coordination.coolDown(key, ms) : undefined),
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
