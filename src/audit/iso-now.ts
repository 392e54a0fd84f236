let lastMs = 0;
let lastIso = '';

/**
 * `new Date().toISOString()`, formatted once per millisecond: a burst writes several lines per call
 * (two audit lines, a session file's started and finished events), and formatting a date each time
 * was a visible part of it (profiled).
 */
export function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}
