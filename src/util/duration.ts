/** A short human-readable duration: `250ms`, `1.5s`, `2m 5s`, `1m`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${Number(seconds.toFixed(1))}s`;
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round(seconds - minutes * 60);
  return rest === 0 ? `${minutes}m` : `${minutes}m ${rest}s`;
}

/** A wait in whole seconds, rounded up and at least 1, for model-visible text: `30 s`. */
export function wholeSeconds(ms: number): string {
  return `${Math.max(1, Math.ceil(ms / 1000))} s`;
}
