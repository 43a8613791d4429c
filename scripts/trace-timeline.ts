/**
 * A trace as a picture: finished OpenTelemetry spans in, a self-contained SVG Gantt timeline out (no fonts, images
 * or styles from outside). One row per span in depth-first order (children by start time), its name indented by
 * depth with a few key attributes under it, a bar from start to end on a shared millisecond axis, failed spans
 * (status ERROR) in red, span events as labelled markers on their span's bar. Pure: no clock, no I/O.
 */
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

/** What the timeline reads of a span: `InMemorySpanExporter.getFinishedSpans()` gives these. */
export type TimelineSpan = Pick<
  ReadableSpan,
  'name' | 'spanContext' | 'parentSpanContext' | 'startTime' | 'endTime' | 'attributes' | 'events' | 'status'
>;

export interface TimelineOptions {
  /** A heading above the timeline. */
  title?: string;
  /** Attributes shown under a span's name, in this order, the first `maxAttributes` it has. */
  keyAttributes?: readonly string[];
  maxAttributes?: number;
}

/** The attributes that tell a recovered stream's story, in reading order. */
export const defaultKeyAttributes = [
  'graceful_ai.attempt.outcome',
  'graceful_ai.error.reason',
  'graceful_ai.attempt.chars_emitted',
  'graceful_ai.attempt.recovery',
  'graceful_ai.recovery.kind',
  'graceful_ai.recovery.outcome',
  'graceful_ai.recovery.reset',
  'gen_ai.usage.input_tokens',
  'gen_ai.usage.output_tokens',
] as const;

/** Attributes shown beside a span's name (what ran, and how) unless the name says them already. */
const noteAttributes = ['gen_ai.request.model', 'graceful_ai.attempt.mode'];

/** OpenTelemetry's `SpanStatusCode.ERROR`. */
const statusError = 2;

const font = 'DejaVu Sans, Segoe UI, Helvetica, Arial, sans-serif';
const mono = 'DejaVu Sans Mono, Menlo, Consolas, monospace';
const colors = {
  text: '#1f2937',
  muted: '#6b7280',
  grid: '#e5e7eb',
  stripe: '#f8fafc',
  sdk: '#94a3b8',
  ours: '#3b82f6',
  failed: '#dc2626',
  event: '#d97706',
};

// Layout, in CSS pixels. Text widths are estimated (no font metrics here): DejaVu Sans Mono advances 0.6 em a
// character, DejaVu Sans (bold included) at most about 0.56 em on average over a span's name.
const pad = 24;
const nameSize = 15;
const attrSize = 12.5;
const charWidth = (size: number) => size * 0.56;
const monoWidth = (size: number) => size * 0.61;
const indent = 18;
const rowHeight = 50;
const eventLine = 16;
const barHeight = 14;
const axisHeight = 34;
const chartWidth = 460;
const durationRoom = 64;

interface Row {
  span: TimelineSpan;
  depth: number;
  y: number;
  height: number;
}

const ms = ([s, ns]: [number, number]) => s * 1e3 + ns / 1e6;

/** The spans depth-first from their roots (a span whose parent is not among them), children by start time. */
export function depthFirst<S extends TimelineSpan>(spans: readonly S[]): { span: S; depth: number }[] {
  const sorted = [...spans].sort((a, b) => ms(a.startTime) - ms(b.startTime));
  const ids = new Set(sorted.map((s) => s.spanContext().spanId));
  const children = new Map<string | undefined, S[]>();
  for (const s of sorted) {
    const parent = s.parentSpanContext?.spanId;
    const key = parent !== undefined && ids.has(parent) ? parent : undefined;
    children.set(key, [...(children.get(key) ?? []), s]);
  }
  const out: { span: S; depth: number }[] = [];
  const walk = (parent: string | undefined, depth: number) => {
    for (const span of children.get(parent) ?? []) {
      out.push({ span, depth });
      walk(span.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return out;
}

/** A tick step of 1, 2 or 5 × 10ⁿ ms giving at most `most` intervals over `total` ms. */
export function tickStep(total: number, most = 8): number {
  if (!(total > 0)) return 1;
  const raw = total / most;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((step) => step >= raw) ?? 10 * power;
}

const xml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const shortKey = (key: string) =>
  key.startsWith('graceful_ai.') || key.startsWith('gen_ai.usage.')
    ? key.slice(key.lastIndexOf('.') + 1)
    : key;

const show = (value: unknown) => (Array.isArray(value) ? value.join(',') : String(value));

/** `key=value` pairs of the first `max` key attributes a span has. */
function attributeLine(span: TimelineSpan, keys: readonly string[], max: number): string {
  return keys
    .filter((key) => span.attributes[key] !== undefined)
    .slice(0, max)
    .map((key) => `${shortKey(key)}=${show(span.attributes[key])}`)
    .join('  ');
}

/** The model and mode of a span, those its name does not say already (graceful-ai's spans). */
function note(span: TimelineSpan): string {
  return noteAttributes
    .map((key) => span.attributes[key])
    .filter((value) => value !== undefined && !span.name.includes(show(value)))
    .map(show)
    .join(' · ');
}

/** An event's label: its name, then `from → to`, or its attributes' values. */
function eventLabel(event: TimelineSpan['events'][number]): string {
  const entries = Object.entries(event.attributes ?? {});
  const from = entries.find(([k]) => k.endsWith('.from'))?.[1];
  const to = entries.find(([k]) => k.endsWith('.to'))?.[1];
  const detail =
    from !== undefined && to !== undefined
      ? `${show(from)} → ${show(to)}`
      : entries.map(([k, v]) => `${shortKey(k)}=${show(v)}`).join(' ');
  return detail ? `${event.name}: ${detail}` : event.name;
}

/** `value` ms with as many decimals as the tick step has. */
function formatMs(value: number, step: number): string {
  return `${value.toFixed(Math.max(0, -Math.floor(Math.log10(step))))} ms`;
}

/** The SVG document of `spans` as a timeline; throws a `RangeError` when there are none. */
export function renderTimeline(spans: readonly TimelineSpan[], options: TimelineOptions = {}): string {
  if (spans.length === 0) throw new RangeError('renderTimeline: no spans to draw; pass finished spans.');
  const { title, keyAttributes = defaultKeyAttributes, maxAttributes = 3 } = options;
  const ordered = depthFirst(spans);
  const origin = Math.min(...spans.map((s) => ms(s.startTime)));
  const total = Math.max(...spans.map((s) => ms(s.endTime))) - origin;

  const labels = ordered.map(({ span, depth }) => ({
    name: span.name,
    note: note(span),
    attrs: attributeLine(span, keyAttributes, maxAttributes),
    depth,
  }));
  const labelWidth = Math.max(
    ...labels.map(
      (l) =>
        l.depth * indent +
        Math.max(
          (l.name.length + (l.note ? l.note.length + 3 : 0)) * charWidth(nameSize),
          l.attrs.length * monoWidth(attrSize),
        ),
    ),
  );
  const chartX = pad + Math.ceil(labelWidth) + 28;
  const width = chartX + chartWidth + durationRoom + pad;
  const top = pad + (title ? 30 : 0) + axisHeight;

  let y = top;
  const rows: Row[] = ordered.map(({ span, depth }) => {
    const height = rowHeight + (span.events.length > 0 ? eventLine : 0);
    const row = { span, depth, y, height };
    y += height;
    return row;
  });
  const legendY = y + 30;
  const height = legendY + pad;

  const x = (t: number) => chartX + ((t - origin) / Math.max(total, 1e-9)) * chartWidth;
  const step = tickStep(total);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${font}">`,
    `<title>${xml(title ?? `Trace timeline of ${ordered[0]!.span.name}`)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
  ];
  if (title)
    out.push(
      `<text x="${pad}" y="${pad + 14}" font-size="17" font-weight="bold" fill="${colors.text}">${xml(title)}</text>`,
    );

  rows.forEach((row, i) => {
    if (i % 2 === 1)
      out.push(
        `<rect x="${pad / 2}" y="${row.y}" width="${width - pad}" height="${row.height}" fill="${colors.stripe}"/>`,
      );
  });
  for (let t = 0; t <= total + 1e-9; t += step) {
    const tx = x(origin + t).toFixed(1);
    out.push(
      `<line x1="${tx}" y1="${top - 8}" x2="${tx}" y2="${y}" stroke="${colors.grid}" stroke-width="1"/>`,
      `<text x="${tx}" y="${top - 14}" font-size="11" fill="${colors.muted}" text-anchor="middle">${formatMs(t, step)}</text>`,
    );
  }

  rows.forEach((row, i) => {
    const { span, depth } = row;
    const label = labels[i]!;
    const lx = pad + depth * indent;
    const failed = span.status.code === statusError;
    const ours = span.name.startsWith('graceful-ai.');
    const fill = failed ? colors.failed : ours ? colors.ours : colors.sdk;
    const weight = ours ? ' font-weight="bold"' : '';
    const note = label.note
      ? `<tspan fill="${colors.muted}" font-weight="normal">  ${xml(label.note)}</tspan>`
      : '';
    out.push(
      `<text x="${lx}" y="${row.y + 21}" font-size="${nameSize}" fill="${colors.text}"${weight}>${xml(label.name)}${note}</text>`,
    );
    if (label.attrs)
      out.push(
        `<text x="${lx}" y="${row.y + 40}" font-size="${attrSize}" font-family="${mono}" fill="${failed ? colors.failed : colors.muted}">${xml(label.attrs)}</text>`,
      );
    const start = ms(span.startTime);
    const end = ms(span.endTime);
    const bx = x(start);
    const bw = Math.max(x(end) - bx, 2);
    const by = row.y + 13;
    out.push(
      `<rect class="bar${failed ? ' failed' : ''}" data-span="${xml(span.name)}" x="${bx.toFixed(1)}" y="${by}" width="${bw.toFixed(1)}" height="${barHeight}" rx="3" fill="${fill}"/>`,
      `<text x="${(bx + bw + 6).toFixed(1)}" y="${by + 11}" font-size="11" fill="${colors.muted}">${formatMs(end - start, step)}</text>`,
    );
    for (const event of span.events) {
      const ex = x(ms(event.time));
      const cy = by + barHeight / 2;
      const text = eventLabel(event);
      // On the line under the bar, tied to the marker: starting at it, or ending at it when it would run past.
      const fits = ex + text.length * charWidth(attrSize) <= chartX + chartWidth + durationRoom;
      out.push(
        `<line x1="${ex.toFixed(1)}" y1="${cy + 7}" x2="${ex.toFixed(1)}" y2="${row.y + rowHeight}" stroke="${colors.event}" stroke-width="1.5"/>`,
        `<path class="event" data-event="${xml(event.name)}" d="M${ex.toFixed(1)} ${cy - 7}l7 7l-7 7l-7 -7z" fill="${colors.event}" stroke="#ffffff" stroke-width="1.5"/>`,
        `<text x="${(fits ? ex - 2 : ex + 2).toFixed(1)}" y="${row.y + rowHeight + 10}" font-size="${attrSize}" fill="${colors.event}" text-anchor="${fits ? 'start' : 'end'}">${xml(text)}</text>`,
      );
    }
  });

  const legend: [string, string][] = [
    [colors.sdk, 'app and AI SDK spans'],
    [colors.ours, 'graceful-ai spans'],
    [colors.failed, 'failed (status ERROR)'],
  ];
  let lx = pad;
  for (const [color, text] of legend) {
    out.push(
      `<rect x="${lx}" y="${legendY - 10}" width="22" height="10" rx="2" fill="${color}"/>`,
      `<text x="${lx + 28}" y="${legendY}" font-size="12" fill="${colors.muted}">${xml(text)}</text>`,
    );
    lx += 28 + text.length * charWidth(12) + 24;
  }
  out.push(
    `<path d="M${lx + 7} ${legendY - 12}l7 7l-7 7l-7 -7z" fill="${colors.event}"/>`,
    `<text x="${lx + 20}" y="${legendY}" font-size="12" fill="${colors.muted}">span event</text>`,
    '</svg>',
  );
  return `${out.join('\n')}\n`;
}
