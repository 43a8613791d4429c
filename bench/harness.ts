import { performance } from 'node:perf_hooks';

/** One row of `npm run bench`, also written to `bench/results/<name>.json`. */
export interface BenchResult {
  name: string;
  /** The measured numbers, e.g. `{ plainMs: 12.1, wrappedMs: 12.4, ratio: 1.02 }`. */
  metrics: Record<string, number | string>;
  /** The target the issue sets, e.g. `ratio <= 1.05`, and whether it was met. */
  target?: string;
  met?: boolean;
  notes?: string;
}

/** A bench module exports `benches`: named async functions each producing one result. */
export interface Bench {
  name: string;
  run(): Promise<BenchResult>;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The `q` quantile (0..1) of `values`, by linear interpolation between the nearest ranks. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  return sorted[low]! + (sorted[Math.ceil(at)]! - sorted[low]!) * (at - low);
}

export async function timeOnce(fn: () => Promise<unknown> | unknown): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/**
 * Runs two variants alternately (A, B, B, A, …) in one process so drift and GC hit both alike, and returns
 * the median time of each, `ratio = medianB / medianA`, and `roundRatios`: B / A of each round (both ran
 * back to back under the same load), whose spread says how far to trust `ratio`.
 */
export async function compareAlternating(
  a: () => Promise<unknown> | unknown,
  b: () => Promise<unknown> | unknown,
  { rounds = 30, warmup = 5 }: { rounds?: number; warmup?: number } = {},
): Promise<{ medianA: number; medianB: number; ratio: number; roundRatios: number[] }> {
  for (let i = 0; i < warmup; i++) {
    await a();
    await b();
  }
  const timesA: number[] = [];
  const timesB: number[] = [];
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) {
      timesA.push(await timeOnce(a));
      timesB.push(await timeOnce(b));
    } else {
      timesB.push(await timeOnce(b));
      timesA.push(await timeOnce(a));
    }
  }
  const medianA = median(timesA);
  const medianB = median(timesB);
  const roundRatios = timesB.map((b, i) => b / timesA[i]!);
  return { medianA, medianB, ratio: medianB / medianA, roundRatios };
}

export const round = (n: number, digits = 3): number => Number(n.toFixed(digits));
