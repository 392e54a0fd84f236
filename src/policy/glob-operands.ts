/**
 * Unquoted patterns are not inert words: with a file named `-i` in the folder, `sed … *`
 * is `sed -i …`; with `--pre=sh`, `rg TODO *` runs sh on every file; with two matches `uniq *` writes
 * its second. So at judgement time each pattern operand is expanded against the folder the command
 * runs in, as bash would, and the part is judged as what it becomes: a match that reads as an option
 * means the command cannot be judged (it asks, high); otherwise the expanded words are judged again
 * and their writes, reads and credential names count. Expansion reads only names, never contents.
 */
import { readdirSync } from 'node:fs';
import { posix } from 'node:path';
import type { CommandGuard, CommandPart, CommandVerdict } from './command/command-types';
import { picomatchLib } from './picomatch-lib';

/** Past this many names a pattern is not expanded; its part is judged as written (plus the option check). */
const MAX_NAMES = 2000;
const MARK = '\u0000';
const CD = /^(cd|pushd|popd)$/;

/** The verdict with every pattern operand judged as what it expands to in `cwd` (absolute). Never throws. */
export function judgeExpanded(verdict: CommandVerdict, cwd: string, guard: CommandGuard): CommandVerdict {
  if (verdict.kind !== 'ok' || !verdict.parts.some((p) => p.globs?.length)) return verdict;
  // After a cd the folder a pattern expands in is another one: judged as written, option check aside.
  const moved = verdict.parts.some((p) => CD.test(p.argv[0] ?? ''));
  const parts: CommandPart[] = [];
  for (const part of verdict.parts) {
    if (!part.globs?.length) {
      parts.push(part);
      continue;
    }
    const argv: string[] = [];
    let rewritten = true;
    for (const [i, word] of part.argv.entries()) {
      if (!part.globs.includes(i)) {
        argv.push(word);
        continue;
      }
      const names = moved ? undefined : expand(cwd, word);
      if (names === undefined) {
        rewritten = false;
        if (/^[*?[]/.test(posix.basename(word)))
          return cannotJudge(
            verdict,
            `${word} may expand to a name that ${part.argv[0]} reads as an option.`,
          );
        argv.push(word);
        continue;
      }
      const option = names.find((n) => n.startsWith('-'));
      if (option !== undefined)
        return cannotJudge(
          verdict,
          `${word} expands to ${option}, which ${part.argv[0]} reads as an option.`,
        );
      argv.push(...(names.length > 0 ? names : [word]));
    }
    if (!rewritten || argv.some((w) => w.includes(MARK))) {
      parts.push({ ...part, argv });
      continue;
    }
    const again = guard.judge(argv.map(quote).join(' '));
    if (again.kind !== 'ok') return again.kind === 'deny' ? again : cannotJudge(verdict, again.reason);
    for (const p of again.parts) parts.push(merged(part, p));
  }
  const destructive = [...new Set(parts.flatMap((p) => (p.destructive ? [p.destructive] : [])))];
  return { ...verdict, parts, readOnly: parts.every((p) => p.readOnly), destructive };
}

/** The expanded part keeps what the written one knew (its redirections' writes and reads, its text). */
function merged(written: CommandPart, expanded: CommandPart): CommandPart {
  const writes = [...new Set([...(written.writes ?? []), ...(expanded.writes ?? [])])];
  const reads = [...new Set([...(written.reads ?? []), ...(expanded.reads ?? [])])];
  const destructive = written.destructive ?? expanded.destructive;
  const part: CommandPart = {
    text: written.text,
    argv: expanded.argv,
    readOnly: written.readOnly && expanded.readOnly,
  };
  if (writes.length > 0) part.writes = writes;
  if (reads.length > 0) part.reads = reads;
  if (destructive) part.destructive = destructive;
  if (part.readOnly === false && (written.readsButWrites || written.readOnly) && expanded.readsButWrites)
    part.readsButWrites = true;
  return part;
}

/** Names the pattern matches under `cwd`, sorted as bash sorts them; undefined when it cannot tell. */
function expand(cwd: string, pattern: string): string[] | undefined {
  if (pattern.startsWith('/') || pattern.startsWith('~')) return undefined;
  const segments = pattern.split('/');
  let found: string[] = [''];
  let budget = MAX_NAMES;
  for (const [n, segment] of segments.entries()) {
    const last = n === segments.length - 1;
    const next: string[] = [];
    for (const base of found) {
      if (!/[*?[]/.test(segment)) {
        next.push(posix.join(base, segment));
        continue;
      }
      const match = picomatchLib()(segment, { dot: segment.startsWith('.') });
      let entries: { name: string; isDirectory(): boolean }[];
      try {
        entries = readdirSync(posix.join(cwd, base), { withFileTypes: true });
      } catch {
        continue;
      }
      budget -= entries.length;
      if (budget < 0) return undefined;
      for (const e of entries)
        if (match(e.name) && (last || e.isDirectory())) next.push(base === '' ? e.name : `${base}/${e.name}`);
    }
    found = next;
  }
  return found.sort();
}

const quote = (word: string): string => `'${word.replaceAll("'", "'\\''")}'`;

function cannotJudge(verdict: CommandVerdict, reason: string): CommandVerdict {
  return { kind: 'cannot_judge', reason, parts: verdict.parts, notes: verdict.notes };
}
