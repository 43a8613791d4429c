import { describe, expect, it } from 'vitest';
import * as core from '../../adapters/ai-sdk/index.js';
import * as rpc from '../../adapters/rpc/index.js';
import * as testing from '../../mocks/index.js';

// The public surface of each entry point: adding or removing a name must be a deliberate change to this snapshot.
describe('public surface', () => {
  it.each([
    ['graceful-ai', core],
    ['graceful-ai/testing', testing],
    ['graceful-ai/rpc', rpc],
  ])('%s exports exactly these runtime names', (_entry, module) => {
    expect(Object.keys(module).sort()).toMatchSnapshot();
  });

  it('every exported error class has a stable name and a marker-based isInstance', () => {
    const errorClasses = Object.entries(core).filter(
      ([name, value]) =>
        typeof value === 'function' && /^[A-Z]\w*Error$|^ModelRetry$|^UnexpectedModelBehavior$/.test(name),
    );
    expect(errorClasses.length).toBeGreaterThan(10);
    for (const [name, value] of errorClasses) {
      const cls = value as { isInstance?: (e: unknown) => boolean };
      expect(typeof cls.isInstance, name).toBe('function');
      // A structural copy (another install of the package) is recognised by its marker alone.
      const foreign = { [Symbol.for(`graceful-ai.error.${name}`)]: true };
      expect(cls.isInstance?.(foreign), name).toBe(true);
      expect(cls.isInstance?.(new Error('x')), name).toBe(false);
    }
  });
});
