/**
 * A size for people and the model: `512 B`, `1.5 KB`, `600 KB`, `5 MB`. One decimal below 10 (none
 * when it is `.0`), whole numbers above. The one format of the core (tools, guards, history, previews).
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 10 ? Math.round(value) : Number(value.toFixed(1))} ${units[unit]}`;
}
