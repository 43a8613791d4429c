/** One scenario through both implementations, compared part by part; what the allowed differences do not explain. */
import { type AllowedDifference, allowedDifferences } from './allowed-differences.js';
import { type Difference, diff } from './diff.js';
import { type Api, type Implementation, type Observation, observe, type Scenario } from './observe.js';

export interface Comparison {
  differences: Difference[];
  /** Differences no allowed difference matches: each one fails the scenario. */
  unexplained: Difference[];
  /** Ids of the allowed differences that explained at least one difference. */
  used: string[];
  /** graceful-ai guarantees the drop-in's run breaks (see `brokenGuarantees`). */
  broken: string[];
  expected: Observation;
  actual: Observation;
}

export async function compare(
  scenario: Scenario,
  api: Api,
  reference: Implementation,
  candidate: Implementation,
  options: { graceful: boolean; allowed?: readonly AllowedDifference[] } = { graceful: true },
): Promise<Comparison> {
  const expected = await observe(reference, scenario, api, false);
  const actual = await observe(candidate, scenario, api, options.graceful);
  const differences = diff(expected, actual);
  const allowed = options.allowed ?? allowedDifferences;
  const used = new Set<string>();
  const unexplained = differences.filter((d) => {
    const callback = callbackAt(d, expected, actual);
    if (callback) d.note = callback;
    const site = { scenario, api, callback, ...d };
    const entry = allowed.find((a) => a.where(site));
    if (entry) used.add(entry.id);
    return entry === undefined;
  });
  const broken = options.graceful ? brokenGuarantees(scenario, api, actual) : [];
  return { differences, unexplained, used: [...used], broken, expected, actual };
}

/** The name of the callback a difference is in: paired and ai-only entries use ai's index, drop-in-only ones theirs. */
function callbackAt(d: Difference, expected: Observation, actual: Observation): string | undefined {
  const match = /^callbacks\[(\d+)\]/.exec(d.path);
  if (!match) return undefined;
  const index = Number(match[1]);
  const dropInOnly = d.path === match[0] && d.ai === undefined;
  return (dropInOnly ? actual : expected).callbacks[index]?.name;
}

const isPart = (type: string) => (part: unknown) => (part as { type?: unknown })?.type === type;
const threw = (parts: unknown[] | undefined) =>
  (parts ?? []).some((part) => typeof part === 'object' && part !== null && '$threw' in part);

/**
 * graceful-ai's guarantees where something went wrong, checked on the drop-in's run alone (no allowed difference
 * applies to them): a recovered run ends with the recovered answer and no error; after a failure nothing
 * recovers, `result.text` rejects; a provider stream that errors is reported as an error part and `onError`.
 */
export function brokenGuarantees(scenario: Scenario, api: Api, actual: Observation): string[] {
  if (api !== 'stream') return [];
  const broken: string[] = [];
  const text = actual.result?.text as { value?: unknown; rejected?: unknown } | undefined;
  const onError = actual.callbacks.some((c) => c.name === 'onError');
  const errorParts = (actual.stream ?? []).filter(isPart('error')).length;
  if (scenario.tags.includes('guard-recovers')) {
    if (scenario.recoveredText === undefined) broken.push('the scenario names no recoveredText');
    if (text?.value !== scenario.recoveredText) {
      broken.push(
        `recovered: result.text should be ${JSON.stringify(scenario.recoveredText)}; got ${show(text)}`,
      );
    }
    if (errorParts > 0 || onError || threw(actual.stream)) {
      broken.push(`recovered: no error part, no onError, no throw expected; got ${errorParts} error part(s)`);
    }
  }
  if (scenario.tags.includes('unrecovered-failure') && text?.rejected === undefined) {
    broken.push(`unrecovered: result.text should reject; got ${show(text)}`);
  }
  if (scenario.tags.includes('stream-throws') && (errorParts === 0 || !onError || threw(actual.stream))) {
    broken.push(
      `stream error: an error part and onError expected, fullStream must not throw; got ${errorParts} error part(s), onError ${onError}, thrown ${threw(actual.stream)}`,
    );
  }
  return broken;
}

function show(value: unknown): string {
  return JSON.stringify(value)?.slice(0, 300) ?? String(value);
}
