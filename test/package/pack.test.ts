import { describe, expect, it } from 'vitest';
import { packCheck } from '../../scripts/pack-check.js';

// Builds, packs and installs the package into an empty consumer project: slow by nature, so one test.
describe('npm pack', () => {
  it('installs next to ai@7 and @ai-sdk/openai@4 and resolves every entry point with types; graceful-ai/testing needs no msw', () => {
    const { exports, withoutMsw } = packCheck();
    expect(Object.keys(exports).sort()).toEqual([
      'graceful-ai',
      'graceful-ai/classify',
      'graceful-ai/observe',
      'graceful-ai/policy',
      'graceful-ai/redis',
      'graceful-ai/rpc',
      'graceful-ai/session',
      'graceful-ai/testing',
      'graceful-ai/testing/msw',
      'graceful-ai/ui',
    ]);
    expect(exports['graceful-ai']).toContain('gracefulTool');
    expect(exports['graceful-ai/testing']).toContain('startMockServer');
    expect(exports['graceful-ai/testing/msw']).toEqual(['mockHandlers']);
    // Without msw (packCheck also ran a strict tsc there, skipLibCheck: false, and it passed): the testing entry
    // loads and answers, and only the MSW entry fails, naming msw.
    expect(withoutMsw.testing).toEqual(exports['graceful-ai/testing']);
    expect(withoutMsw.answer).toBe('Hello');
    expect(withoutMsw.mswEntry).toMatch(/^ERR_MODULE_NOT_FOUND: Cannot find package 'msw'/);
    expect(exports['graceful-ai/rpc']).toContain('runRpcServer');
    expect(exports['graceful-ai/policy']).toContain('CircuitBreaker');
    expect(exports['graceful-ai/redis']).toContain('redisCoordination');
    expect(exports['graceful-ai/ui']).toEqual(['RESET_KIND', 'isResetPart', 'withoutDiscarded']);
  }, 180_000);
});
