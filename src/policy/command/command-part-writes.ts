import { writtenFiles } from './command-flow';
import { FOUND_FILE } from './command-parse';
import { isSystemProgram, programName } from './command-programs';
import type { RawCommand } from './command-raw';
import { readSed } from './command-sed';
import type { CommandPart } from './command-types';
import { resolveWrite, writeTargets } from './command-writes';
import { EXPANSION_MARK, isDynamic } from './command-words';

/** Where a judged part keeps its findings. */
type Out = { part: CommandPart; problems: string[]; notes: string[] };

/** Writing here loses nothing and touches no file. */
const HARMLESS = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;

const show = (value: string): string => value.replaceAll(EXPANSION_MARK, '');

/**
 * Fills `part.writes` (joined onto the part's cwd). A write whose path is only known at run time
 * (`> "$f"`, `cp x "$D"`, `cd "$D" && touch x`) cannot be put through the path fence, so it becomes a
 * problem and the command asks. Whether a write replaces something undo cannot restore is not the
 * guard's to say: the gate looks at the file (src/gate/write-coverage.ts), the same for `>`, `-o`,
 * `tee`, `sed -i` and the file tools.
 * Contract: returns how many writes the part makes (0 means it writes nothing).
 */
export function partWrites(raw: RawCommand, argv: readonly string[], cwd: string | null, out: Out): number {
  const targets = writeTargets(argv);
  if (/^g?sed$/.test(programName(argv[0])) && isSystemProgram(argv[0])) {
    const sed = readSed(argv);
    targets.paths.push(...(sed.inPlace ? sed.files : []), ...sed.writes);
  }
  const writes: string[] = [];
  const add = (path: string, from: string | null): void => {
    const resolved = resolveWrite(from, path);
    if (resolved === null) out.problems.push(unknownPath(path));
    else if (!writes.includes(resolved)) writes.push(resolved);
  };
  let count = 0;
  for (const r of writtenFiles(raw.redirects)) {
    const target = r.target.value;
    out.notes.push(`writes to a file via ${r.op} (${show(target)})`);
    // The shell opens a statement's redirection once, in the directory the statement starts in.
    if (r.openedIn === undefined) r.openedIn = cwd;
    count++;
    add(target, r.openedIn);
  }
  for (const target of targets.paths) {
    if (HARMLESS.test(target)) continue;
    count++;
    for (const path of expandFound(raw, target)) add(path, cwd);
  }
  if (writes.length > 0) out.part.writes = writes;
  return count;
}

const unknownPath = (path: string): string =>
  isDynamic(path)
    ? `It writes to ${show(path)}, a path only known at run time, so the path fence cannot check it.`
    : `It writes to ${path} after a cd to a directory only known at run time, so the path fence cannot check it.`;

/** `rm {}` under `find src -exec`: the files found are somewhere under `src`. */
function expandFound(raw: RawCommand, target: string): string[] {
  return target === FOUND_FILE && raw.within ? raw.within : [target];
}
