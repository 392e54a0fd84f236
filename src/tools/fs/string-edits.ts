/**
 * edit_file's exact string replacement, pure: edits apply in order to the text in memory, all or
 * nothing. A missing or ambiguous `old_string` says which edit, how many matches, and which lines
 * come nearest, so the model can fix its call without reading the whole file again.
 */
import { sanitizeText } from '../../text/sanitize';
import { truncateChars } from '../../text/truncate';

/** One replacement as the model sends it. */
export type StringEdit = { old_string: string; new_string: string; replace_all?: boolean | undefined };

/** The edited text and, per edit, the 1-based lines its replacements start on (of the text it saw). */
export type EditsApplied =
  | { ok: true; after: string; lines: number[][]; crlf: boolean }
  | { ok: false; error: string };

const CANDIDATES = 3;
const SHOWN_CHARS = 100;
/** Lines longer than this compare by their start only (minified files): the score stays cheap. */
const COMPARED_CHARS = 400;

/**
 * Applies `edits` to `text` in order. A file that uses CRLF gets CRLF in edits written with "\n".
 * Contract: never throws; on any problem nothing is applied and the error names the edit (1-based).
 */
export function applyStringEdits(text: string, edits: readonly StringEdit[]): EditsApplied {
  const crlf = usesCrlf(text);
  let current = text;
  const lines: number[][] = [];
  for (const [i, edit] of edits.entries()) {
    const which = edits.length > 1 ? `edit ${i + 1} of ${edits.length}` : 'the edit';
    if (edit.old_string === '')
      return fail(
        `${which}: old_string is empty. To add text, include a neighbouring line in old_string; to create a file, use write_file.`,
      );
    if (edit.old_string === edit.new_string)
      return fail(`${which}: old_string and new_string are the same, so it changes nothing.`);
    const [oldText, newText] =
      crlf && !edit.old_string.includes('\r')
        ? [toCrlf(edit.old_string), toCrlf(edit.new_string)]
        : [edit.old_string, edit.new_string];
    const at = matchOffsets(current, oldText);
    const earlier = i > 0 ? ' (edits apply in order: it sees the text after the earlier edits)' : '';
    if (at.length === 0)
      return fail(
        `${which}: old_string was not found (0 matches)${earlier}. Copy it exactly from the file, with its whitespace.${nearest(current, oldText)}`,
      );
    if (at.length > 1 && edit.replace_all !== true) {
      const shown = linesOf(current, at.slice(0, 5));
      return fail(
        `${which}: old_string matches ${at.length} places${earlier}; add surrounding lines to make it unique, or set replace_all: true.\nMatches:${shown.map((n) => `\n  ${n}: ${shownLine(current, n)}`).join('')}${at.length > 5 ? `\n  … and ${at.length - 5} more` : ''}`,
      );
    }
    lines.push(linesOf(current, at));
    current =
      at.length === 1
        ? current.slice(0, at[0]) + newText + current.slice((at[0] as number) + oldText.length)
        : current.split(oldText).join(newText);
  }
  return { ok: true, after: current, lines, crlf };
}

function fail(error: string): EditsApplied {
  return { ok: false, error };
}

/** True when most line breaks are CRLF (a mixed file keeps whatever the edit says). */
function usesCrlf(text: string): boolean {
  const lf = text.split('\n').length - 1;
  if (lf === 0) return false;
  return (text.split('\r\n').length - 1) * 2 > lf;
}

const toCrlf = (text: string): string => text.replace(/\r?\n/g, '\r\n');

/** Offsets of the non-overlapping occurrences of `needle`. */
function matchOffsets(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) out.push(at);
  return out;
}

/** The 1-based lines holding ascending `offsets`, in one pass over the text. */
function linesOf(text: string, offsets: readonly number[]): number[] {
  const out: number[] = [];
  let line = 1;
  let nl = text.indexOf('\n');
  for (const offset of offsets) {
    while (nl !== -1 && nl < offset) {
      line++;
      nl = text.indexOf('\n', nl + 1);
    }
    out.push(line);
  }
  return out;
}

/** Line `n` (1-based) as a message shows it: control characters made visible, cut short. */
function shownLine(text: string, n: number): string {
  const line = text.split('\n')[n - 1] ?? '';
  return truncateChars(sanitizeText(line.replace(/\r$/, '').trim()), SHOWN_CHARS);
}

/**
 * The lines of `text` most like the first non-blank line of `wanted`, as "Nearest lines: …", or ''
 * when nothing is close. Whitespace-insensitive equality wins; otherwise shared character pairs.
 */
function nearest(text: string, wanted: string): string {
  const probe = wanted
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
  if (!probe) return '';
  const key = squash(probe).slice(0, COMPARED_CHARS);
  const probePairs = pairs(key);
  const lines = text.split('\n');
  const scored: { n: number; score: number }[] = [];
  for (const [i, raw] of lines.entries()) {
    const line = squash(raw).slice(0, COMPARED_CHARS);
    if (line === '') continue;
    const score = line === key ? 2 : line.includes(key) || key.includes(line) ? 1.5 : dice(probePairs, line);
    if (score >= 0.5) scored.push({ n: i + 1, score });
  }
  scored.sort((a, b) => b.score - a.score || a.n - b.n);
  const best = scored.slice(0, CANDIDATES).sort((a, b) => a.n - b.n);
  if (best.length === 0) return ' No line is close to its first line.';
  return `\nNearest lines:${best.map(({ n }) => `\n  ${n}: ${shownLine(text, n)}`).join('')}`;
}

const squash = (text: string): string => text.replace(/\s+/g, ' ').trim();

function pairs(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i < text.length - 1; i++) {
    const pair = text.slice(i, i + 2);
    out.set(pair, (out.get(pair) ?? 0) + 1);
  }
  return out;
}

/** Sørensen–Dice similarity of character pairs (0 … 1). */
function dice(probe: Map<string, number>, line: string): number {
  const other = pairs(line);
  let shared = 0;
  let total = 0;
  for (const count of probe.values()) total += count;
  for (const [pair, count] of other) {
    total += count;
    shared += Math.min(count, probe.get(pair) ?? 0);
  }
  return total === 0 ? 0 : (2 * shared) / total;
}
