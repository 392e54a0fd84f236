/**
 * Durations as people read them. The formats differ on purpose and tests pin each, so there is
 * one named function per format rather than one with options:
 * - `formatDurationCoarse`: largest whole unit, no space ("12s", "3m", "2h") — ages and expiries
 *   in the approval drawer;
 * - `formatDurationCompact`: ms, tenths of a second, then minutes and seconds ("850ms", "1.2s",
 *   "1m05s") — measured waits and run times in the audit panels;
 * - `formatSecondsTenths`: seconds with a space, tenths below 10 s ("0.3 s", "12 s") — how long a
 *   command ran, in text the model reads;
 * - `formatMsOrSeconds`: whole ms below a second, else whole seconds ("850 ms", "120 s") — waits
 *   and limits in failure and startup messages.
 */

/** "12s", "3m", "2h": the largest whole unit, never negative. */
export function formatDurationCoarse(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  return `${Math.floor(s / 3600)}h`;
}

/** How long ago `iso` was at `nowMs`, coarse ("12s", "3m", "2h"); "?" when `iso` does not parse. */
export function formatAge(iso: string, nowMs: number): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '?';
  return formatDurationCoarse(nowMs - then);
}

/** 850 → "850ms", 1234 → "1.2s", 90_000 → "1m30s", null → "–". */
export function formatDurationCompact(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '–';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1).replace(/\.0$/, '')}s`;
  const m = Math.floor(ms / 60_000);
  const s = Math.round((ms % 60_000) / 1000);
  return `${m}m${String(s).padStart(2, '0')}s`;
}

/** 300 → "0.3 s", 1000 → "1.0 s", 12_400 → "12 s". */
export function formatSecondsTenths(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/** 850 → "850 ms", 1499 → "1 s", 120_000 → "120 s". */
export function formatMsOrSeconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 1000)} s`;
}
