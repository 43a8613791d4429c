import { describe, expect, it, vi } from 'vitest';
import { CooldownError } from '../../../src/errors/cooldown-error.js';
import { cooldownGate } from '../../../src/policy/cooldown-gate.js';
import { InMemoryCoordination } from '../../../src/policy/shared-cooldowns.js';

describe('cooldownGate: the one wrapper of tools and models around shared cool-downs', () => {
  const wait = (maxWaitMs: number, sleep: (ms: number) => Promise<void> = async () => {}) => ({
    maxWaitMs,
    sleep,
  });

  it('a failure with a delay announces it to everyone of the coordination; no delay, nothing', async () => {
    let now = 0;
    const coordination = new InMemoryCoordination({ clock: { now: () => now } });
    const gate = cooldownGate(coordination, 'model:openai:gpt');
    const other = cooldownGate(coordination, 'model:openai:gpt');
    await expect(
      gate.around(
        wait(0),
        () => Promise.reject(new Error('429')),
        () => undefined,
      ),
    ).rejects.toThrow('429');
    await other.admit(wait(0));
    const cause = new Error('slow down');
    await expect(
      gate.around(
        wait(0),
        () => Promise.reject(cause),
        () => 5_000,
      ),
    ).rejects.toBe(cause);
    // Another caller of the same subject may not wait that long: refused at once, without calling.
    const call = vi.fn(async () => 'ok');
    await expect(other.around(wait(1_000), call, () => undefined)).rejects.toBeInstanceOf(CooldownError);
    expect(call).not.toHaveBeenCalled();
    // One that may wait sleeps the rest of the cool-down, then calls.
    now = 2_000;
    const sleep = vi.fn(async (ms: number) => {
      now += ms;
    });
    await expect(other.around(wait(10_000, sleep), call, () => undefined)).resolves.toBe('ok');
    expect(sleep).toHaveBeenCalledWith(3_000, undefined);
    // Another subject is not affected.
    await cooldownGate(coordination, 'tool:weather').admit(wait(0));
  });
});
