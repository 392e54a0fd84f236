import { posix } from 'node:path';
import { destructiveReason } from './command-destructive';
import {
  deviceWrite, downloadedFiles, isFetch, isForkBomb, literalOutput, readsPipe, stdinSubstitutions, substitutionsFetch, upstream, writtenFiles,
} from './command-flow';
import type { CommandCollector } from './command-parse';
import type { Arg, RawCommand } from './command-raw';
import { codeSource, interpreterOf, programName } from './command-programs';
import { isReadOnly } from './command-readonly';
import { type Deny, denyFor } from './command-rules';
import type { CommandPart } from './command-types';
import { networkNote } from './command-notes';
import { unwrap } from './command-unwrap';
import { EXPANSION_MARK, isDynamic, markDynamic } from './command-words';

/** One part's judgement: at most one deny, reasons it cannot be judged, notes for the card. */
export type JudgedPart = { part: CommandPart; deny?: Deny; problems: string[]; notes: string[] };

const FETCH_EXEC: Deny = {
  ruleId: 'cmd-curl-pipe-shell',
  reason: 'Runs code downloaded from the network (curl/wget into a shell or interpreter) without anyone seeing it first.',
};
const FORK_BOMB: Deny = {
  ruleId: 'cmd-fork-bomb',
  reason: 'A function that starts copies of itself in a pipeline or in the background (a fork bomb) would exhaust the machine.',
};
const SAFE_ENV = /^(LANG|LANGUAGE|LC_[A-Z_]+|TZ|NO_COLOR|FORCE_COLOR|TERM|COLUMNS|LINES|CI)$/;
const UNMODELLED: ReadonlySet<string> = new Set(['coproc', '{', '}']);
const FIND_EXEC = /^-(exec|execdir|ok|okdir)$/;

/** Shows a word in a note or reason; unresolved expansions appear as their source text. */
export const display = (value: string): string => value.replaceAll(EXPANSION_MARK, '');

/**
 * Judges one simple command in the context of the whole line (`cwd`: where an earlier `cd` went).
 * May add commands to the collector (the code of `bash -c '…'`, `find -exec …`), which the
 * caller judges in turn.
 */
export function judgePart(all: CommandCollector, raw: RawCommand, cwd?: string): JudgedPart {
  const out: JudgedPart = { part: { text: raw.text, argv: raw.args.map((a) => a.value), readOnly: false }, problems: [], notes: [] };
  const deny = (d: Deny): void => {
    out.deny ??= d;
  };
  const device = deviceWrite(raw.redirects);
  if (device) deny({ ruleId: 'cmd-write-device', reason: `Writing to ${device} would overwrite a disk or device directly.` });
  const writes = writtenFiles(raw.redirects);
  for (const w of writes) out.notes.push(`writes to a file via ${w.op} (${display(w.target.value)})`);
  if (raw.background) out.notes.push('runs in the background');
  const first = raw.args[0];
  if (!first) {
    out.part.readOnly = writes.length === 0 && raw.assignments.length === 0;
    return out;
  }
  if (isDynamic(first.value)) {
    out.problems.push(`The command name ${display(first.value)} is only known at run time.`);
    return out;
  }
  const { layers, scripts, problem } = unwrap(raw.args);
  if (problem) out.problems.push(problem);
  for (const layer of layers) {
    const d = denyFor(layer.map((a) => a.value), cwd);
    if (d) deny(d);
  }
  const final = layers[layers.length - 1] as Arg[];
  const argv = final.map((a) => a.value);
  const name = programName(argv[0]);
  out.part.argv = argv;
  if (isDynamic(argv[0] ?? '')) out.problems.push(`The command name ${display(argv[0] ?? '')} is only known at run time.`);
  if (UNMODELLED.has(name)) out.problems.push(`"${name}" is shell syntax the guard does not model.`);
  if (isForkBomb(raw, programName(first.value)) || isForkBomb(raw, name)) deny(FORK_BOMB);

  let nested = false;
  for (const s of scripts) nested = runNested(all, raw, s.code, s.via, out, true) || nested;
  nested = judgeCode(all, raw, final, name, out, deny) || nested;
  if (name === 'find') spawnFindExec(all, raw, final);

  const assigned = [...raw.assignments, ...envAssignments(layers)];
  if (assigned.length > 0) out.notes.push(`sets environment: ${assigned.join(', ')}`);
  // Calling a function defined earlier in the line: its body's parts are judged on their own.
  const calledFunction = raw.id >= (all.functionsDefined.get(argv[0] ?? '') ?? Number.POSITIVE_INFINITY);
  out.part.readOnly = (isReadOnly(argv) || nested || calledFunction) && writes.length === 0 && assigned.every((n) => SAFE_ENV.test(n));
  const destructive = destructiveReason(argv);
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

/** Interpreters, `eval` and `source`: where does the code come from, and can it be judged? */
function judgeCode(all: CommandCollector, raw: RawCommand, final: Arg[], name: string, out: JudgedPart, deny: (d: Deny) => void): boolean {
  const commands = all.commands;
  // `./install.sh` right after `curl -O …/install.sh`: the program itself was downloaded.
  if (final[0]?.value.includes('/') && isDownloaded(commands, final[0].value)) deny(FETCH_EXEC);
  if (name === 'eval') {
    if (substitutionsFetch(commands, final.flatMap((a) => a.subs))) deny(FETCH_EXEC);
    else out.problems.push('eval runs a string as a command; the guard cannot see what it runs.');
    return false;
  }
  if (name === 'trap') {
    // `trap 'rm -rf /' EXIT` runs its first operand as shell code later.
    const code = final.slice(1).find((a) => !a.value.startsWith('-'));
    return code ? runNested(all, raw, code, 'trap', out, true) : false;
  }
  if (name === 'alias') {
    // An alias body is shell code that later words of the line may run.
    const bodies = final.slice(1).flatMap((a) => {
      const at = a.value.indexOf('=');
      return at > 0 ? [{ ...a, value: a.value.slice(at + 1) }] : [];
    });
    return bodies.map((body) => runNested(all, raw, body, 'alias', out, true)).every(Boolean) && bodies.length > 0;
  }
  if (name === 'source' || name === '.') {
    if (final[1] && (substitutionsFetch(commands, final[1].subs) || isDownloaded(commands, final[1].value))) deny(FETCH_EXEC);
    else if (final[1]) out.notes.push(`runs ${display(final[1].value)} in the current shell`);
    return false;
  }
  const interpreter = interpreterOf(name);
  if (!interpreter) return false;
  const shell = interpreter.kind === 'shell';
  const source = codeSource(final.map((a) => a.value));
  if (source.kind === 'arg') {
    const code = final[source.index];
    if (!code) return false;
    if (substitutionsFetch(commands, code.subs) || (!source.inline && isDownloaded(commands, code.value))) {
      deny(FETCH_EXEC);
      return false;
    }
    if (!source.inline) out.notes.push(`runs the script ${display(code.value)}`);
    else if (!shell) out.notes.push(`runs inline ${name} code`);
    return source.inline && shell ? runNested(all, raw, code, `${name} -c`, out, true) : false;
  }
  if (source.kind !== 'stdin') return false;
  const pipe = readsPipe(raw);
  if (substitutionsFetch(commands, stdinSubstitutions(raw)) || (pipe && upstream(commands, pipe).some(isFetch))) {
    deny(FETCH_EXEC);
    return false;
  }
  if (pipe) out.notes.push(shell ? 'pipes into a shell' : `pipes into ${name}`);
  if (!shell) return false;
  if (raw.stdin) return runNested(all, raw, { value: raw.stdin.dynamic ? markDynamic(raw.stdin.text) : raw.stdin.text, subs: [] }, `${name} reading a ${raw.stdin.kind}`, out, false);
  const literal = pipe ? literalOutput(upstream(commands, pipe, true)) : undefined;
  if (literal !== undefined) return runNested(all, raw, { value: literal, subs: [] }, `${name} reading a pipe`, out, false);
  out.notes.push('runs a script from its input, which the guard cannot see');
  return false;
}

const isDownloaded = (commands: readonly RawCommand[], file: string): boolean =>
  downloadedFiles(commands).has(posix.normalize(file));

/** Parses shell code a command runs (`bash -c '…'`) and queues its commands; false when it cannot. */
function runNested(all: CommandCollector, raw: RawCommand, code: Arg, via: string, out: JudgedPart, keepInput: boolean): boolean {
  if (isDynamic(code.value)) {
    out.problems.push(`The shell code run by ${via} is only known at run time.`);
    return false;
  }
  out.notes.push(`runs a nested shell command (${via})`);
  const { pipes, background, functions, redirects } = raw;
  // Code read from the input must not read that same input again, or `echo sh | sh` would loop.
  all.collectSource(code.value, { pipes: keepInput ? pipes : [], background, functions, redirects, depth: raw.depth + 1 });
  return true;
}

function spawnFindExec(all: CommandCollector, raw: RawCommand, final: Arg[]): void {
  for (let i = 0; i < final.length; i++) {
    if (!FIND_EXEC.test((final[i] as Arg).value)) continue;
    let end = final.findIndex((a, j) => j > i && (a.value === ';' || a.value === '+'));
    if (end < 0) end = final.length;
    const args = final.slice(i + 1, end).map((a) => (a.value === '{}' ? { ...a, value: markDynamic('{}') } : a));
    if (args.length > 0) all.spawn(raw, args);
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
