/** Small pure formatters shared by the components. */
import { truncateChars } from '../../src/text/truncate';

/** HH:MM:SS of an ISO timestamp, in local time. */
export function clock(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '--:--:--';
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

/** 950 → "950", 12_345 → "12.3k", 2_500_000 → "2.5M". */
export function compactNumber(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0).replace(/\.0$/, '')}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}

/** First line of a text, whitespace collapsed. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * A project root for the status bar: home becomes `~`, and when still longer than `max` the
 * middle segments are dropped (`~/…/org/repo`), keeping the name a person recognises.
 */
export function shortenPath(path: string, home: string | undefined, max: number): string {
  let p = path;
  if (home && home !== '/' && (p === home || p.startsWith(`${home}/`))) p = `~${p.slice(home.length)}`;
  if (p.length <= max) return p;
  const parts = p.split('/');
  while (parts.length > 3) {
    parts.splice(1, 1);
    const candidate = [parts[0], '…', ...parts.slice(1)].join('/');
    if (candidate.length <= max) return candidate;
  }
  return truncateChars(p, max);
}

/** 0.456 → "46%". */
export function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}
