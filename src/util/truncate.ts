/**
 * `text` cut to at most `max` characters, the cut marked (`… [truncated N chars]`) so a reader knows text is
 * missing. Text within the bound is returned unchanged.
 */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  const marker = `… [truncated ${text.length - max} chars]`;
  return `${text.slice(0, Math.max(0, max - marker.length))}${marker}`;
}
