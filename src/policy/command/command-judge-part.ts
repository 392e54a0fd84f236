import { readAwk } from './command-awk';
import { judgeCode, runNested } from './command-code';
import { ruleCwd } from './command-cwd';
import { destructiveReason } from './command-destructive';
import { deviceWrite, isForkBomb } from './command-flow';
import { hiddenBuiltin, hiddenEnvironment } from './command-hidden-builtins';
import type { CommandCollector } from './command-parse';
import type { Arg, RawCommand } from './command-raw';
import { runsNamedProgram } from './command-program-options';
import { isSystemProgram, programName } from './command-programs';
import { gitReadsIfRepoClean } from './command-readonly-git';
import { isReadOnly } from './command-readonly';
import { type Deny, denyFor } from './command-rules';
import { readSed } from './command-sed';
import type { CommandPart } from './command-types';
import { networkNote } from './command-notes';
import { unwrap } from './command-unwrap';
import { EXPANSION_MARK, isDynamic } from './command-words';
import { partWrites } from './command-part-writes';

/** One part's judgement: at most one deny, reasons it cannot be judged, notes for the card. */
export type JudgedPart = { part: CommandPart; deny?: Deny; problems: string[]; notes: string[] };

const FORK_BOMB: Deny = {
  ruleId: 'cmd-fork-bomb',
  reason:
    'A function that starts copies of itself in a pipeline or in the background (a fork bomb) would exhaust the machine.',
};
const SAFE_ENV = /^(LANG|LANGUAGE|LC_[A-Z_]+|TZ|NO_COLOR|FORCE_COLOR|TERM|COLUMNS|LINES|CI)$/;
/** Variables that change what later commands of the line run or read: never a read-only assignment. */
const STEERING =
  /^(PATH|IFS|CDPATH|ENV|BASH_ENV|PS4|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|GLOBIGNORE|LD_[A-Z_]+|HOME|OLDPWD|PWD|GIT_[A-Z_]+)$/;
const UNMODELLED: ReadonlySet<string> = new Set(['coproc', '{', '}']);
const FIND_EXEC = /^-(exec|execdir|ok|okdir)$/;
const FD_EXEC = /^(-x|-X|--exec|--exec-batch)$/;

/** Shows a word in a note or reason; unresolved expansions appear as their source text. */
export const display = (value: string): string => value.replaceAll(EXPANSION_MARK, '');

/**
 * Judges one simple command in the context of the whole line (`cwd`: the directory it runs in,
 * relative to the command's cwd; null when an earlier `cd` went somewhere unknown).
 * May add commands to the collector (the code of `bash -c '…'`, `find -exec …`), which the
 * caller judges in turn.
 */
export function judgePart(all: CommandCollector, raw: RawCommand, cwd: string | null = ''): JudgedPart {
  const out: JudgedPart = {
    part: { text: raw.text, argv: raw.args.map((a) => a.value), readOnly: false },
    problems: [],
    notes: [],
  };
  const deny = (d: Deny): void => {
    out.deny ??= d;
  };
  const device = deviceWrite(raw.redirects);
  if (device)
    deny({
      ruleId: 'cmd-write-device',
      reason: `Writing to ${device} would overwrite a disk or device directly.`,
    });
  if (raw.background) out.notes.push('runs in the background');
  const first = raw.args[0];
  if (!first) {
    const written = partWrites(raw, [], cwd, out);
    // `$(<.env)` reads the file with no program at all.
    readsFrom(raw, out.part, []);
    // A bare `FOO=bar` sets a shell variable and reads nothing; one that steers the shell (PATH, IFS …) asks.
    const env = hiddenEnvironment(raw.assignments);
    if (env) out.problems.push(env);
    // An array (`a=(…)`) is left to the rules on subscripts and expansions: not read-only here.
    out.part.readOnly =
      written === 0 && !env && !raw.assignments.some((a) => STEERING.test(a)) && !/=\(/.test(raw.text);
    return out;
  }
  if (isDynamic(first.value)) {
    out.problems.push(`The command name ${display(first.value)} is only known at run time.`);
    return out;
  }
  const { layers, scripts, problem } = unwrap(raw.args);
  if (problem) out.problems.push(problem);
  for (const layer of layers) {
    const d = denyFor(
      layer.map((a) => a.value),
      ruleCwd(cwd),
    );
    if (d) deny(d);
  }
  const final = layers[layers.length - 1] as Arg[];
  const argv = final.map((a) => a.value);
  const name = programName(argv[0]);
  out.part.argv = argv;
  const globs = final.flatMap((a, i) => (i > 0 && a.glob ? [i] : []));
  if (globs.length > 0) out.part.globs = globs;
  if (isDynamic(argv[0] ?? ''))
    out.problems.push(`The command name ${display(argv[0] ?? '')} is only known at run time.`);
  // `/???/?m -rf /` and `/bin/r[m]` are rm once bash expands the pattern: no rule sees that name.
  if (first.glob || final[0]?.glob)
    out.problems.push(
      `The command name ${display(final[0]?.value ?? first.value)} is a pattern bash expands to a program only at run time.`,
    );
  if (UNMODELLED.has(name)) out.problems.push(`"${name}" is shell syntax the guard does not model.`);
  if (isForkBomb(raw, programName(first.value)) || isForkBomb(raw, name)) deny(FORK_BOMB);

  let nested = false;
  for (const s of scripts) nested = runNested(all, raw, s.code, s.via, out, true) || nested;
  nested = judgeCode(all, raw, final, name, out, deny) || nested;
  if (name === 'find') spawnExec(all, raw, final, FIND_EXEC, findStarts(argv));
  if (name === 'fd' || name === 'fdfind') spawnExec(all, raw, final, FD_EXEC, ['.']);
  toolProblems(argv, name, out);

  const assigned = [...raw.assignments, ...envAssignments(layers)];
  if (assigned.length > 0) out.notes.push(`sets environment: ${assigned.join(', ')}`);
  const env = hiddenEnvironment(assigned);
  if (env) out.problems.push(env);
  const written = partWrites(raw, argv, cwd, out);
  readsFrom(raw, out.part, name === 'sed' || name === 'gsed' ? readSed(argv).reads : []);
  const socket = networkRedirect(raw);
  if (socket) out.notes.push(`uses network: ${socket}`);
  // Calling a function defined earlier in the line: its body's parts are judged on their own.
  const calledFunction = raw.id >= (all.functionsDefined.get(argv[0] ?? '') ?? Number.POSITIVE_INFINITY);
  const repoRead = name === 'git' && isSystemProgram(argv[0]) && gitReadsIfRepoClean(argv);
  if (repoRead) out.part.repoConfig = true;
  const reads =
    (isReadOnly(argv) || nested || calledFunction || repoRead) &&
    assigned.every((n) => SAFE_ENV.test(n)) &&
    !socket;
  out.part.readOnly = reads && written === 0;
  if (reads && written > 0 && out.problems.length === 0) out.part.readsButWrites = true;
  const destructive = destructiveReason(argv) ?? out.part.destructive;
  if (destructive) {
    out.part.destructive = destructive;
    if (argv.slice(1).some(isDynamic)) out.notes.push(`what ${name} acts on is only known at run time`);
  }
  for (const layer of layers) {
    const network = networkNote(layer.map((a) => a.value));
    if (network) out.notes.push(network);
  }
  return out;
}

/**
 * `cat < /dev/tcp/host/80`: bash itself opens a network connection for the redirection. Reading it
 * is not read-only (the connection already sends the host a message, and a name a lookup), so the
 * part runs only as the card says (red team: it was labelled read-only).
 */
function networkRedirect(raw: RawCommand): string | undefined {
  return raw.redirects.find((r) => /^\/dev\/(tcp|udp)\//.test(r.target.value))?.target.value;
}

/** `$(<file)`: bash reads the file itself; the substitution runs no command the collector sees. */
const READ_SUBSTITUTION = /\$\(\s*<\s*([^\s()$`'"]+)\s*\)/g;

/**
 * `cat < /etc/shadow` and `sed '1r /etc/shadow'` read a file no operand names: the gate must see it
 * like an operand (the fence, credential names).
 */
function readsFrom(raw: RawCommand, part: CommandPart, scriptReads: readonly string[]): void {
  const reads = raw.redirects
    .filter((r) => r.op === '<' && r.target.value !== '' && r.target.value !== '-')
    .map((r) => r.target.value)
    .concat(scriptReads)
    .concat(raw.args.flatMap((a) => [...a.value.matchAll(READ_SUBSTITUTION)].map((m) => m[1] as string)));
  if (reads.length > 0) part.reads = [...new Set(reads)];
}

/** Builtins, sed and awk that run code their words do not show. */
function toolProblems(argv: readonly string[], name: string, out: JudgedPart): void {
  const builtin = hiddenBuiltin(argv);
  if (builtin) out.problems.push(builtin);
  const program = runsNamedProgram(argv, name);
  if (program) out.problems.push(program);
  if (name === 'sed' || name === 'gsed') {
    if (readSed(argv).executes)
      out.problems.push('sed runs shell commands from its script (e / s///e), which the guard cannot read.');
  }
  if (/^(awk|gawk|mawk|nawk)$/.test(name)) {
    const awk = readAwk(argv);
    if (awk.kind === 'runs') out.problems.push(awk.reason);
    if (awk.kind === 'writes') out.problems.push('awk prints into files whose names the guard cannot read.');
  }
}

/** `find`'s starting points: the words before the first expression. */
function findStarts(argv: readonly string[]): string[] {
  let i = 1;
  while (i < argv.length && /^-[HLP]$|^-O\d?$|^-D$/.test(argv[i] as string)) i += argv[i] === '-D' ? 2 : 1;
  const starts: string[] = [];
  for (; i < argv.length && !/^[-(!]/.test(argv[i] as string); i++) starts.push(argv[i] as string);
  return starts.length > 0 ? starts : ['.'];
}

/** `find -exec cmd {} ;` and `fd -x cmd`: the command runs on every file found under `within`. */
function spawnExec(
  all: CommandCollector,
  raw: RawCommand,
  final: Arg[],
  marker: RegExp,
  within: string[],
): void {
  for (let i = 0; i < final.length; i++) {
    if (!marker.test((final[i] as Arg).value)) continue;
    let end = final.findIndex((a, j) => j > i && (a.value === ';' || a.value === '+' || a.value === '\\;'));
    if (end < 0) end = final.length;
    const args = final.slice(i + 1, end);
    // fd adds the path itself when the command names no placeholder.
    const found =
      marker === FD_EXEC && !args.some((a) => /\{[/.]*\}/.test(a.value)) ? [{ value: '{}', subs: [] }] : [];
    if (args.length > 0) all.spawn(raw, [...args, ...found], within);
    i = end;
  }
}

/** `env A=1 B=2 cmd`: the names env sets before running its command. */
function envAssignments(layers: readonly Arg[][]): string[] {
  return layers.flatMap((layer, i) => {
    if (programName(layer[0]?.value) !== 'env') return [];
    const own = layer.slice(0, layer.length - (layers[i + 1]?.length ?? 0));
    return own.map((a) => /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(a.value)?.[1]).filter((n): n is string => !!n);
  });
}
