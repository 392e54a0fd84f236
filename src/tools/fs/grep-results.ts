/** One matching line, path relative to the project root. */
export type GrepMatch = { path: string; line: number; text: string };

/** A file worth reading next: feed `path`, `offset`, `limit` straight to read_file. */
export type SuggestedRead = { path: string; offset: number; limit: number; hits: number };

/** Lines of context around the first and last hit in a suggested read. */
export const SUGGESTED_CONTEXT = 5;
export const SUGGESTED_MAX = 5;
const SUGGESTED_MAX_LINES = 2000;
const MAX_TEXT_CHARS = 300;

type RgText = { text?: string; bytes?: string };

/** Decodes rg's `{text}` / `{bytes: base64}` fields. */
function rgText(field: RgText | undefined): string | undefined {
  if (!field) return undefined;
  if (typeof field.text === 'string') return field.text;
  if (typeof field.bytes === 'string') return Buffer.from(field.bytes, 'base64').toString('utf8');
  return undefined;
}

/**
 * Parses one line of `rg --json` into a match, paths made relative to the root (`base` is the searched
 * folder relative to the root). Contract: never throws; anything but a match gives undefined.
 */
export function parseRgLine(line: string, base: string): GrepMatch | undefined {
  let event: {
    type?: string;
    data?: { path?: RgText; lines?: RgText; line_number?: number; submatches?: { start?: number }[] };
  };
  try {
    event = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (event.type !== 'match' || !event.data) return undefined;
  const path = rgText(event.data.path);
  const text = rgText(event.data.lines);
  const lineNumber = event.data.line_number;
  if (path === undefined || text === undefined || typeof lineNumber !== 'number') return undefined;
  const local = path.replace(/^\.\//, '');
  const trimmed = text.replace(/\r?\n$/, '');
  return {
    path: base === '' ? local : `${base}/${local}`,
    line: lineNumber,
    text: clip(trimmed, event.data.submatches?.[0]?.start ?? 0),
  };
}

/** A long line (minified code) is cut to a window around the first match; rg's --max-columns does not apply to --json. */
function clip(text: string, byteStart: number): string {
  if (text.length <= MAX_TEXT_CHARS) return text;
  const at = Buffer.from(text).subarray(0, byteStart).toString('utf8').length;
  const from = Math.max(0, Math.min(at - 100, text.length - MAX_TEXT_CHARS));
  return `${from > 0 ? '…' : ''}${text.slice(from, from + MAX_TEXT_CHARS)}${from + MAX_TEXT_CHARS < text.length ? '…' : ''}`;
}

/**
 * Ranks files by hit count (ties by path) and gives each a line range: first hit − context to last hit + context,
 * clamped to the file (when its length is known) and to read_file's 2000 lines.
 */
export function suggestReads(
  matches: readonly GrepMatch[],
  lineCounts: ReadonlyMap<string, number> = new Map(),
): SuggestedRead[] {
  const byFile = new Map<string, { hits: number; min: number; max: number }>();
  for (const m of matches) {
    const entry = byFile.get(m.path);
    if (entry) {
      entry.hits++;
      entry.min = Math.min(entry.min, m.line);
      entry.max = Math.max(entry.max, m.line);
    } else byFile.set(m.path, { hits: 1, min: m.line, max: m.line });
  }
  return [...byFile.entries()]
    .sort(([pa, a], [pb, b]) => b.hits - a.hits || (pa < pb ? -1 : pa > pb ? 1 : 0))
    .slice(0, SUGGESTED_MAX)
    .map(([path, { hits, min, max }]) => {
      const offset = Math.max(1, min - SUGGESTED_CONTEXT);
      const known = lineCounts.get(path);
      const end = known === undefined ? max + SUGGESTED_CONTEXT : Math.min(known, max + SUGGESTED_CONTEXT);
      return { path, offset, limit: Math.min(SUGGESTED_MAX_LINES, Math.max(1, end - offset + 1)), hits };
    });
}

/** The text the model reads: matches grouped by file, then the suggested reads. */
export function formatGrepOutput(
  matches: readonly GrepMatch[],
  reads: readonly SuggestedRead[],
  truncated: boolean,
  cap: number,
): string {
  const files = new Set(matches.map((m) => m.path));
  const lines = [
    `${matches.length} match${matches.length === 1 ? '' : 'es'} in ${files.size} file${files.size === 1 ? '' : 's'}${truncated ? ` (stopped at ${cap}; more exist — narrow the pattern, path or glob)` : ''}:`,
  ];
  let current = '';
  for (const m of matches) {
    if (m.path !== current) {
      current = m.path;
      lines.push(m.path);
    }
    lines.push(`  ${m.line}: ${m.text}`);
  }
  if (reads.length > 0) {
    lines.push('Suggested reads (read_file path/offset/limit):');
    for (const r of reads)
      lines.push(`  ${r.path} offset ${r.offset} limit ${r.limit} (${r.hits} hit${r.hits === 1 ? '' : 's'})`);
  }
  return lines.join('\n');
}
