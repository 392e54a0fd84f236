/**
 * ripgrep opens files by path, so a folder swapped for a link mid-search can make it read outside
 * files. Its matches are therefore checked afterwards: a match is kept only when the fenced file,
 * read through a verified descriptor (safe-fs.ts), holds that text at that line right now — so every
 * line grep_code returns is, provably, a line of a file inside the project.
 */
import { join } from 'node:path';
import type { GrepMatch } from './grep-results';
import { type FencedPath, type FileRead, readFileSafely } from './safe-fs';

const MAX_VERIFY_BYTES = 10 * 1024 * 1024;

export type VerifiedMatches = { kept: GrepMatch[]; dropped: number };

/**
 * Keeps the matches whose text is at their line of `root/<match.path>`.
 * Contract: never throws; a file that cannot be read safely drops its matches.
 */
export async function keepVerifiedMatches(
  root: string,
  matches: readonly GrepMatch[],
  read: (target: FencedPath, maxBytes: number) => Promise<FileRead> = readFileSafely,
): Promise<VerifiedMatches> {
  const linesOf = new Map<string, Promise<string[] | undefined>>();
  const kept: GrepMatch[] = [];
  for (const match of matches) {
    let lines = linesOf.get(match.path);
    if (!lines) {
      lines = read({ path: join(root, match.path), root }, MAX_VERIFY_BYTES).then(
        (found) => (found.kind === 'file' ? found.bytes.toString('utf8').split('\n') : undefined),
        () => undefined,
      );
      linesOf.set(match.path, lines);
    }
    if (holds(await lines, match)) kept.push(match);
  }
  return { kept, dropped: matches.length - kept.length };
}

/** True when the match's text (without the `…` of a clipped line) is within its lines of the file. */
function holds(lines: string[] | undefined, match: GrepMatch): boolean {
  if (!lines) return false;
  const core = match.text.replace(/^…/, '').replace(/…$/, '');
  const span = core.split('\n').length;
  const actual = lines
    .slice(match.line - 1, match.line - 1 + span)
    .map((l) => l.replace(/\r$/, ''))
    .join('\n');
  return match.line >= 1 && actual.includes(core);
}
