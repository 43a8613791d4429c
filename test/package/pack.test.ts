import { describe, expect, it } from 'vitest';
import { packCheck } from '../../scripts/pack-check.js';

// Builds, packs and installs the package into an empty consumer project: slow by nature, so one test.
describe('npm pack', () => {
  it('installs next to ai@7 and @ai-sdk/openai@4 and resolves every entry point with types', () => {
    const { exports } = packCheck();
    expect(Object.keys(exports).sort()).toEqual([
      'graceful-ai',
      'graceful-ai/classify',
      'graceful-ai/observe',
      'graceful-ai/policy',
      'graceful-ai/redis',
      'graceful-ai/rpc',
      'graceful-ai/session',
      'graceful-ai/testing',
      'graceful-ai/ui',
    ]);
    expect(exports['graceful-ai']).toContain('gracefulTool');
    expect(exports['graceful-ai/testing']).toContain('mockHandlers');
    expect(exports['graceful-ai/testing']).toContain('openaiHandlers');
    expect(exports['graceful-ai/rpc']).toContain('runRpcServer');
    expect(exports['graceful-ai/policy']).toContain('CircuitBreaker');
    expect(exports['graceful-ai/redis']).toContain('redisCoordination');
    expect(exports['graceful-ai/ui']).toEqual(['RESET_KIND', 'isResetPart', 'withoutDiscarded']);
  }, 180_000);
});
