import { describe, expect, it, vi } from 'vitest';
import { InvalidToolPlanError } from '../../../src/errors/invalid-tool-plan-error.js';
import { runToolPlan } from '../../../src/policy/tool-plan.js';
import { isolatedTelemetry } from './fixtures.js';

const ok = (value: unknown) => vi.fn(async () => value);
const fail = () =>
  vi.fn(async () => {
    throw new Error('down');
  });

describe('runToolPlan', () => {
  it('passes dependency outputs to input functions and runs AI SDK-style tool objects', async () => {
    const search = { execute: vi.fn(async (input: { q: string }) => `results for ${input.q}`) };
    const result = await runToolPlan(
      [
        { id: 'query', tool: ok('cats') },
        {
          id: 'search',
          tool: search,
          dependsOn: ['query'],
          input: (d: Record<string, unknown>) => ({ q: d.query }),
        },
      ],
      { telemetry: isolatedTelemetry().telemetry },
    );
    expect(result.ok).toBe(true);
    expect(result.outputs).toEqual({ query: 'cats', search: 'results for cats' });
    expect(search.execute).toHaveBeenCalledWith(
      { q: 'cats' },
      expect.objectContaining({ toolCallId: 'search' }),
    );
  });

  it('skips the dependents of a failed optional step while independent steps continue', async () => {
    const dependent = ok('never');
    const independent = ok('fine');
    const result = await runToolPlan(
      [
        { id: 'a', tool: fail(), optional: true },
        { id: 'b', tool: dependent, dependsOn: ['a'] },
        { id: 'c', tool: dependent, dependsOn: ['b'] },
        { id: 'd', tool: independent },
      ],
      { telemetry: isolatedTelemetry().telemetry },
    );
    expect(dependent).not.toHaveBeenCalled();
    expect(result.steps.map((s) => [s.id, s.outcome])).toEqual([
      ['a', 'failed'],
      ['b', 'skipped'],
      ['c', 'skipped'],
      ['d', 'ok'],
    ]);
    expect(result.steps[1]!.decision).toBe("skipped: dependency 'a' failed");
    expect(result.ok).toBe(true);
  });

  it('uses the default of a failed step and its dependents run with it', async () => {
    const next = vi.fn(async (input: unknown) => input);
    const result = await runToolPlan(
      [
        { id: 'rate', tool: fail(), default: 1.0 },
        { id: 'convert', tool: next, dependsOn: ['rate'], input: (d: Record<string, unknown>) => d.rate },
      ],
      { telemetry: isolatedTelemetry().telemetry },
    );
    expect(result.steps.map((s) => s.outcome)).toEqual(['defaulted', 'ok']);
    expect(result.outputs).toEqual({ rate: 1.0, convert: 1.0 });
  });

  it('escalates a failed required step: plan not ok, dependents skipped, others continue', async () => {
    const { telemetry, seen } = isolatedTelemetry();
    const result = await runToolPlan(
      [
        { id: 'a', tool: fail() },
        { id: 'b', tool: ok(1), dependsOn: ['a'] },
        { id: 'c', tool: ok(2) },
      ],
      { telemetry },
    );
    expect(result.ok).toBe(false);
    expect(result.escalated).toEqual(['a']);
    expect(result.steps.map((s) => s.outcome)).toEqual(['escalated', 'skipped', 'ok']);
    expect(seen.filter((e) => e.type === 'plan_step')).toHaveLength(3);
  });

  it('rejects cycles, unknown dependencies and duplicate ids before running anything', async () => {
    const tool = ok(1);
    await expect(
      runToolPlan([
        { id: 'a', tool, dependsOn: ['c'] },
        { id: 'b', tool, dependsOn: ['a'] },
        { id: 'c', tool, dependsOn: ['b'] },
      ]),
    ).rejects.toSatisfy((e) => InvalidToolPlanError.isInstance(e) && /cycle a → c → b → a/.test(e.message));
    await expect(runToolPlan([{ id: 'a', tool, dependsOn: ['ghost'] }])).rejects.toThrow(
      /unknown step 'ghost'/,
    );
    await expect(
      runToolPlan([
        { id: 'a', tool },
        { id: 'a', tool },
      ]),
    ).rejects.toThrow(/used twice/);
    expect(tool).not.toHaveBeenCalled();
  });

  it('bounds concurrency', async () => {
    let running = 0;
    let peak = 0;
    const tool = async () => {
      peak = Math.max(peak, ++running);
      await new Promise((r) => setImmediate(r));
      running--;
    };
    await runToolPlan(
      Array.from({ length: 10 }, (_, i) => ({ id: `s${i}`, tool })),
      { concurrency: 3, telemetry: isolatedTelemetry().telemetry },
    );
    expect(peak).toBe(3);
  });

  it('after an abort, steps not yet started fail without running', async () => {
    const controller = new AbortController();
    const later = ok('x');
    const result = await runToolPlan(
      [
        {
          id: 'first',
          tool: async () => {
            controller.abort(new Error('stop'));
            return 1;
          },
        },
        { id: 'second', tool: later, dependsOn: ['first'], optional: true },
      ],
      { signal: controller.signal, telemetry: isolatedTelemetry().telemetry },
    );
    expect(later).not.toHaveBeenCalled();
    expect(result.steps[1]).toMatchObject({ outcome: 'failed' });
  });
});
