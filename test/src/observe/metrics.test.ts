import { describe, expect, it } from 'vitest';
import { getToolMetrics, resetToolMetrics, ToolMetrics } from '../../../src/observe/metrics.js';
import { createToolPolicy } from '../../../src/policy/tool-policy.js';
import { badRequest, unavailable, virtualTime } from '../policy/fixtures.js';

describe('ToolMetrics', () => {
  it('counts errors by kind, retries, retry success rate, opens and timeouts', () => {
    const m = new ToolMetrics();
    m.attemptFailed('a', { kind: 'transient', reason: 'x' });
    m.attemptFailed('a', { kind: 'permanent', reason: 'x' });
    m.retried('a');
    m.callSettled('a', true, true);
    m.callSettled('a', true, false);
    m.callSettled('a', false, true);
    m.circuitOpened('a');
    m.timedOut('a');
    expect(m.snapshot()).toEqual({
      a: {
        error_count: 2,
        transient_error_count: 1,
        permanent_error_count: 1,
        retry_count: 1,
        retry_success_rate: 0.5,
        circuit_breaker_opens: 1,
        timeout_count: 1,
      },
    });
  });

  it('getToolMetrics() reports what the default policies recorded', async () => {
    resetToolMetrics();
    const policy = createToolPolicy('metered', { ...virtualTime(), random: () => 0.5 });
    let n = 0;
    await policy.run(() => (++n < 3 ? Promise.reject(unavailable()) : 'ok'));
    await policy.run(() => Promise.reject(badRequest()));
    expect(getToolMetrics().metered).toEqual({
      error_count: 3,
      transient_error_count: 2,
      permanent_error_count: 1,
      retry_count: 2,
      retry_success_rate: 1,
      circuit_breaker_opens: 0,
      timeout_count: 0,
    });
    resetToolMetrics();
    expect(getToolMetrics()).toEqual({});
  });
});
