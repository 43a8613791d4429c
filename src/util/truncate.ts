/**
 * `text` cut to at most `max` characters, the cut marked (`… [truncated N chars]`, N counting every character
 * missing) so a reader knows text is missing. `droppedBefore` counts characters the caller already cut off (they
 * are counted in the marker, which is then always added). Text within the bound, with nothing dropped, is
 * returned unchanged.
 */
export function truncateText(text: string, max: number, droppedBefore = 0): string {
  if (text.length <= max && droppedBefore === 0) return text;
  const marker = (count: number) => `… [truncated ${count} chars]`;
  const total = text.length + droppedBefore;
  // Room for the widest marker the count could need, then as much text as still fits (the count may be shorter).
  let kept = Math.min(text.length, Math.max(0, max - marker(total).length));
  while (kept < text.length && kept + 1 + marker(total - kept - 1).length <= max) kept++;
  return `${text.slice(0, kept)}${marker(total - kept)}`;
}
