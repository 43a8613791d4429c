import { vi } from 'vitest';
import type { RpcSession } from '../../../adapters/rpc/index.js';

/** An `RpcSession` that echoes prompts and does nothing else; `overrides` replace any member. */
export function echoSession(overrides: Partial<RpcSession> = {}): RpcSession {
  return {
    prompt: async (text) => ({ text: `echo ${text}` }),
    abort: vi.fn(),
    abortRetry: vi.fn(),
    setAutoRetryEnabled: vi.fn(),
    autoRetryEnabled: true,
    isRetrying: false,
    isRunning: false,
    retryAttempt: 0,
    messages: [],
    subscribe: () => () => {},
    ...overrides,
  };
}
