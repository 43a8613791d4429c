import { describe, expect, it } from 'vitest';
import { planChromium } from './chromium.js';

describe('planChromium', () => {
  it('runs the browser test when Chromium is installed, in CI or not', () => {
    expect(planChromium(true, {})).toEqual({ run: true });
    expect(planChromium(true, { CI: 'true' })).toEqual({ run: true });
  });

  it('skips with a one-line notice on how to install it outside CI', () => {
    for (const env of [{}, { CI: 'false' }]) {
      const plan = planChromium(false, env);
      expect(plan).toMatchObject({ run: false, fail: false });
      expect(!plan.run && plan.message).toMatch(
        /^\/usr\/bin\/chromium is missing: .*apt-get install -y chromium/,
      );
      expect(!plan.run && plan.message).not.toContain('\n');
    }
  });

  it('fails under CI=true, which installs Chromium', () => {
    expect(planChromium(false, { CI: 'true' })).toMatchObject({ run: false, fail: true });
  });
});
