/**
 * The trace timeline renderer (scripts/trace-timeline.ts), without a browser: the spans of a recovered stream
 * (OpenTelemetry SDK, in-memory exporter, `@ai-sdk/otel`) drawn as rows in depth-first order, failed attempts red,
 * the failover event as a labelled marker; bars and markers at their times on the shared axis.
 */
import type { HrTime } from '@opentelemetry/api';
import { trace } from '@opentelemetry/api';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamText } from '../../adapters/ai-sdk/drop-in/stream-text.js';
import { depthFirst, renderTimeline, type TimelineSpan, tickStep } from '../../scripts/trace-timeline.js';
import { installOtel } from '../adapters/ai-sdk/otel-harness.js';
import {
  apiError,
  generated,
  preamble,
  scriptedModel,
  streamOf,
  textParts,
} from '../adapters/ai-sdk/stream-guard-fixtures.js';

/** `[name, failed]` of each bar, in the order they are drawn. */
const bars = (svg: string) =>
  [...svg.matchAll(/<rect class="bar( failed)?" data-span="([^"]*)"[^>]*fill="([^"]*)"/g)].map((m) => ({
    name: m[2],
    failed: m[1] !== undefined,
    fill: m[3],
  }));

const attribute = (tag: string, name: string) => Number(new RegExp(`${name}="([^"]*)"`).exec(tag)?.[1]);

describe('the timeline of a recovered stream with a failover', () => {
  const otel = installOtel();
  afterAll(() => otel.uninstall());
  let text = '';
  let svg = '';
  beforeAll(async () => {
    const primary = scriptedModel(
      [streamOf([...preamble('r1'), ...textParts('The quick', { open: true })], apiError(503))],
      [{ throws: apiError(503) }],
      { provider: 'openai.chat', modelId: 'gpt-4o-timeline' },
    );
    const fallback = scriptedModel([], [generated(' brown fox.')], {
      provider: 'anthropic.messages',
      modelId: 'claude-timeline',
    });
    const guard = { fallbackModels: [fallback], modelBreaker: false as const, sleep: async () => {} };
    text = await trace.getTracer('app').startActiveSpan('POST /api/chat', async (span) => {
      try {
        return await streamText({ model: primary, prompt: 'hi', streamGuard: guard }).text;
      } finally {
        span.end();
      }
    });
    svg = renderTimeline(otel.spans(), { title: 'A recovered stream' });
  });

  it('recovers (the scene the picture shows)', () => {
    expect(text).toBe('The quick brown fox.');
  });

  it('draws a row per span, depth-first, each name written', () => {
    const names = otel
      .tree()
      .split('\n')
      .map((line) => line.trim());
    expect(names).toEqual([
      'POST /api/chat',
      'invoke_agent gpt-4o-timeline',
      'step 1',
      'chat gpt-4o-timeline',
      'graceful-ai.attempt',
      'graceful-ai.recovery',
      'graceful-ai.attempt',
      'graceful-ai.attempt',
    ]);
    expect(bars(svg).map((b) => b.name)).toEqual(names);
    let from = 0;
    for (const name of names) {
      const at = svg.indexOf(`>${name}<`, from);
      expect(at, `${name} written after the previous row`).toBeGreaterThanOrEqual(from);
      from = at + 1;
    }
  });

  it('draws the failed attempts red, every other span in another colour', () => {
    const drawn = bars(svg);
    expect(drawn.filter((b) => b.failed).map((b) => b.name)).toEqual([
      'graceful-ai.attempt',
      'graceful-ai.attempt',
    ]);
    const red = new Set(drawn.filter((b) => b.failed).map((b) => b.fill));
    expect(red).toEqual(new Set(['#dc2626']));
    expect(drawn.filter((b) => !b.failed).every((b) => !red.has(b.fill))).toBe(true);
    expect(svg).toContain('outcome=failed  reason=status:503  chars_emitted=0');
  });

  it('marks the failover event with its label', () => {
    expect(svg.match(/<path class="event" data-event="graceful_ai\.failover"/g)).toHaveLength(1);
    expect(svg).toContain(
      'graceful_ai.failover: openai.chat:gpt-4o-timeline → anthropic.messages:claude-timeline',
    );
  });

  it('is self-contained: no link, image, font or stylesheet from outside', () => {
    expect(svg).not.toMatch(/href|url\(|@import|@font-face|<image|<style/);
  });
});

const hr = (ms: number): HrTime => [Math.floor(ms / 1000), (ms % 1000) * 1e6];

/** A finished span from `start` to `end` ms, under `parent`. */
function span(
  id: string,
  start: number,
  end: number,
  extra: Partial<Pick<TimelineSpan, 'events' | 'status' | 'attributes'>> & {
    parent?: string;
    name?: string;
  } = {},
): TimelineSpan {
  const context = (spanId: string) => ({ traceId: 't'.repeat(32), spanId, traceFlags: 1 });
  return {
    name: extra.name ?? id,
    spanContext: () => context(id),
    parentSpanContext: extra.parent === undefined ? undefined : context(extra.parent),
    startTime: hr(start),
    endTime: hr(end),
    attributes: extra.attributes ?? {},
    events: extra.events ?? [],
    status: extra.status ?? { code: 0 },
  };
}

describe('renderTimeline geometry', () => {
  it('places bars and markers at their times on one axis', () => {
    const svg = renderTimeline([
      span('root', 1000, 1200),
      span('late', 1100, 1200, { parent: 'root', events: [{ name: 'mark', time: hr(1150) }] }),
    ]);
    const [root, late] = [...svg.matchAll(/<rect class="bar[^>]*>/g)].map((m) => m[0]);
    const x0 = attribute(root!, 'x');
    const width = attribute(root!, 'width');
    expect(attribute(late!, 'x')).toBeCloseTo(x0 + width / 2, 0);
    expect(attribute(late!, 'width')).toBeCloseTo(width / 2, 0);
    const marker = /<path class="event" data-event="mark" d="M([\d.]+) /.exec(svg);
    expect(Number(marker?.[1])).toBeCloseTo(x0 + (width * 3) / 4, 0);
    expect(svg).toContain('>mark<');
  });

  it('escapes names and attribute values', () => {
    const svg = renderTimeline([
      span('a', 0, 10, { name: '<script>&', attributes: { 'graceful_ai.attempt.outcome': '"x"' } }),
    ]);
    expect(svg).toContain('&#60;script&#62;&#38;');
    expect(svg).toContain('outcome=&#34;x&#34;');
    expect(svg).not.toContain('<script>');
  });

  it('refuses no spans, saying what to pass', () => {
    expect(() => renderTimeline([])).toThrow(/no spans to draw/);
  });
});

describe('depthFirst', () => {
  it('children by start time under their parent; a span whose parent is missing is a root', () => {
    const order = depthFirst([
      span('b', 20, 30, { parent: 'root' }),
      span('orphan', 5, 6, { parent: 'gone' }),
      span('a', 10, 40, { parent: 'root' }),
      span('a1', 15, 16, { parent: 'a' }),
      span('root', 0, 50),
    ]).map(({ span, depth }) => `${depth}:${span.name}`);
    expect(order).toEqual(['0:root', '1:a', '2:a1', '1:b', '0:orphan']);
  });
});

describe('tickStep', () => {
  it('is 1, 2 or 5 × 10ⁿ ms and gives at most 8 intervals, at least 3 for any span of time', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 1e7, noNaN: true }), (total) => {
        const step = tickStep(total);
        const mantissa = step / 10 ** Math.floor(Math.log10(step) + 1e-9);
        expect([1, 2, 5].some((m) => Math.abs(mantissa - m) < 1e-6)).toBe(true);
        expect(total / step).toBeLessThanOrEqual(8 + 1e-9);
        expect(total / step).toBeGreaterThan(3);
      }),
    );
  });
});
