import { describe, expect, it } from 'vitest';
import * as core from '../../adapters/ai-sdk/index.js';
import * as redis from '../../adapters/redis/index.js';
import * as rpc from '../../adapters/rpc/index.js';
import * as ui from '../../adapters/ui/index.js';
import * as testing from '../../mocks/index.js';
import * as testingMsw from '../../mocks/msw.js';
import * as classify from '../../src/classify/index.js';
import * as observe from '../../src/observe/index.js';
import * as policy from '../../src/policy/index.js';
import * as session from '../../src/session/index.js';

// The public surface of each entry point: adding or removing a name must be a deliberate change to this snapshot.
describe('public surface', () => {
  it.each([
    ['graceful-ai', core],
    ['graceful-ai/testing', testing],
    ['graceful-ai/testing/msw', testingMsw],
    ['graceful-ai/ui', ui],
    ['graceful-ai/rpc', rpc],
    ['graceful-ai/policy', policy],
    ['graceful-ai/classify', classify],
    ['graceful-ai/observe', observe],
    ['graceful-ai/session', session],
    ['graceful-ai/redis', redis],
  ])('%s exports exactly these runtime names', (_entry, module) => {
    expect(Object.keys(module).sort()).toMatchSnapshot();
  });

  // 45 after the 0.2 trim; 46 with StreamInterruptedError (a stream that ends incomplete without a provider error);
  // 47 with FailoverError (every model of a call failed); 50 with the errors an app checks on a tool-error part or a
  // rejection (issue 24): McpToolError, RepeatedToolCallError, EmptyAnswerError; 56 with the agent (ToolLoopAgent and
  // the four UI helpers, drop-ins of ai's) and UnfinishedToolCallError.
  it('the main entry stays small: at most 56 runtime names', () => {
    expect(Object.keys(core).length).toBeLessThanOrEqual(56);
  });

  it('every exported error class has a stable name and a marker-based isInstance', () => {
    const errorClasses = Object.entries(core).filter(
      ([name, value]) =>
        typeof value === 'function' && /^[A-Z]\w*Error$|^ModelRetry$|^UnexpectedModelBehavior$/.test(name),
    );
    expect(errorClasses.length).toBeGreaterThan(10);
    for (const [name, value] of errorClasses) {
      if (name === 'GracefulError') continue; // the base class: checked below
      const cls = value as { isInstance?: (e: unknown) => boolean };
      expect(typeof cls.isInstance, name).toBe('function');
      // A structural copy (another install of the package) is recognised by its marker alone.
      const foreign = { [Symbol.for(`graceful-ai.error.${name}`)]: true };
      expect(cls.isInstance?.(foreign), name).toBe(true);
      expect(cls.isInstance?.(new Error('x')), name).toBe(false);
    }
    // The base class recognises every graceful-ai error, from any copy of the package.
    expect(core.GracefulError.isInstance({ [Symbol.for('graceful-ai.error')]: true })).toBe(true);
    expect(core.GracefulError.isInstance(new core.ModelRetry('x'))).toBe(true);
    expect(core.GracefulError.isInstance(new Error('x'))).toBe(false);
  });
});
