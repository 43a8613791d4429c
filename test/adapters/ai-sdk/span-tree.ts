/** A span as the tree needs it. */
export interface SpanLink {
  name: string;
  spanId: string;
  parentSpanId: string | undefined;
}

/**
 * Spans (in start order) as an indented tree of names, children in start order; a span whose parent is not among
 * them is a root.
 */
export function spanTree(spans: readonly SpanLink[]): string {
  const ids = new Set(spans.map((s) => s.spanId));
  const lines: string[] = [];
  const walk = (parent: string | undefined, depth: number) => {
    for (const s of spans) {
      const p = s.parentSpanId;
      const isChild = parent === undefined ? p === undefined || !ids.has(p) : p === parent;
      if (!isChild) continue;
      lines.push(`${'  '.repeat(depth)}${s.name}`);
      walk(s.spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines.join('\n');
}
