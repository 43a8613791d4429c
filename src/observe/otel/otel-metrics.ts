/**
 * graceful-ai's OpenTelemetry metrics: counters of retries, recoveries, resets, failovers and breaker openings, and
 * the latency of recoveries, on the meter provider the application registered (none registered: nothing is
 * recorded). Unlike spans they do not depend on a call's telemetry setting: a breaker opens for every caller.
 */
import {
  type Attributes,
  type OtelCounter,
  type OtelHistogram,
  type OtelMeter,
  otelMeter,
  quietly,
} from './otel-api.js';

/** The counters, by metric name (each a `graceful_ai.*` name, unit `{event}`). */
export const counterNames = {
  retries: 'graceful_ai.retries',
  recoveries: 'graceful_ai.recoveries',
  resets: 'graceful_ai.resets',
  failovers: 'graceful_ai.failovers',
  breakerOpens: 'graceful_ai.breaker.opens',
} as const;

/** The histogram of recovery latency, in seconds: from the failure to the recovered answer's end (or failure). */
export const recoveryDurationName = 'graceful_ai.recovery.duration';

type Counter = keyof typeof counterNames;

interface Instruments {
  counters: Map<Counter, OtelCounter>;
  duration?: OtelHistogram;
}

const byMeter = new WeakMap<OtelMeter, Instruments>();

function instruments(meter: OtelMeter): Instruments {
  let found = byMeter.get(meter);
  if (found === undefined) {
    found = { counters: new Map() };
    byMeter.set(meter, found);
  }
  return found;
}

/** Adds one to a counter. */
export function count(counter: Counter, attributes: Attributes): void {
  const meter = otelMeter();
  if (meter === undefined) return;
  quietly(() => {
    const { counters } = instruments(meter);
    let instrument = counters.get(counter);
    if (instrument === undefined) {
      instrument = meter.createCounter(counterNames[counter], { unit: '{event}' });
      counters.set(counter, instrument);
    }
    instrument.add(1, attributes);
  });
}

/** Records how long a recovery took, in seconds. */
export function recordRecoveryDuration(seconds: number, attributes: Attributes): void {
  const meter = otelMeter();
  if (meter === undefined) return;
  quietly(() => {
    const found = instruments(meter);
    found.duration ??= meter.createHistogram(recoveryDurationName, {
      unit: 's',
      description: 'Time from a failure after content to the recovered answer (or the recovery failure).',
      advice: { explicitBucketBoundaries: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60] },
    });
    found.duration.record(seconds, attributes);
  });
}
