import { posix } from 'node:path';
import {
  downloadedFiles,
  isFetch,
  literalOutput,
  readsPipe,
  stdinSubstitutions,
  substitutionsFetch,
  upstream,
} from './command-flow';
import type { CommandCollector } from './command-parse';
import type { Arg, RawCommand } from './command-raw';
import { codeSource, interpreterOf } from './command-programs';
import type { Deny } from './command-rules';
import { trapCode } from './command-hidden-builtins';
import { EXPANSION_MARK, isDynamic } from './command-words';

// Commands that run code they are given: shells, interpreters, `eval`, `source`, `trap`, `alias`.
// Shell code the guard can read is parsed and judged like the rest of the line; code it cannot
// read (another language, a pipe, a process substitution, a variable) makes the command ask.

/** Where a judged part keeps what it found. */
export type CodeFindings = { problems: string[]; notes: string[] };

export const FETCH_EXEC: Deny = {
  ruleId: 'cmd-curl-pipe-shell',
  reason:
    'Runs code downloaded from the network (curl/wget into a shell or interpreter) without anyone seeing it first.',
};

/** Files that stand for the command's own input: sourcing them runs the here-string or pipe. */
const STDIN_FILES = /^(-|\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/;

const show = (value: string): string => {
  const text = value.replaceAll(EXPANSION_MARK, '');
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
};

const isDownloaded = (commands: readonly RawCommand[], file: string): boolean =>
  downloadedFiles(commands).has(posix.normalize(file));

/**
 * Interpreters, `eval`, `source`, `trap` and `alias`: where the code comes from, and whether the
 * guard can judge it. Returns true when the code was queued to be judged as nested shell commands.
 */
export function judgeCode(
  all: CommandCollector,
  raw: RawCommand,
  final: Arg[],
  name: string,
  out: CodeFindings,
  deny: (d: Deny) => void,
): boolean {
  const commands = all.commands;
  // `./install.sh` right after `curl -O …/install.sh`: the program itself was downloaded.
  if (final[0]?.value.includes('/') && isDownloaded(commands, final[0].value)) deny(FETCH_EXEC);
  if (name === 'eval') {
    if (
      substitutionsFetch(
        commands,
        final.flatMap((a) => a.subs),
      )
    )
      deny(FETCH_EXEC);
    else out.problems.push('eval runs a string as a command; the guard cannot see what it runs.');
    return false;
  }
  if (name === 'trap') {
    // `trap 'rm -rf /' EXIT`: the code still goes through the hard rules, and the trap itself asks.
    const code = trapCode(final.map((a) => a.value));
    const arg = code === undefined ? undefined : final.find((a, i) => i > 0 && a.value === code);
    return arg ? runNested(all, raw, arg, 'trap', out, true) : false;
  }
  if (name === 'alias') {
    // An alias body is shell code that later words of the line may run.
    const bodies = final.slice(1).flatMap((a) => {
      const at = a.value.indexOf('=');
      return at > 0 ? [{ ...a, value: a.value.slice(at + 1) }] : [];
    });
    return (
      bodies.map((body) => runNested(all, raw, body, 'alias', out, true)).every(Boolean) && bodies.length > 0
    );
  }
  if (name === 'source' || name === '.')
    return final[1] ? scriptFile(all, raw, final[1], name, true, out, deny) : false;
  const interpreter = interpreterOf(name);
  if (!interpreter) return false;
  if ((name === 'deno' || name === 'bun') && final[1]?.value === 'eval') {
    out.problems.push(`${name} runs ${name} code the guard cannot read: ${show(final[2]?.value ?? '')}`);
    return false;
  }
  const shell = interpreter.kind === 'shell';
  const source = codeSource(final.map((a) => a.value));
  if (source.kind === 'arg') {
    const code = final[source.index];
    if (!code) return false;
    if (substitutionsFetch(commands, code.subs) || (!source.inline && isDownloaded(commands, code.value))) {
      deny(FETCH_EXEC);
      return false;
    }
    if (!source.inline) return scriptFile(all, raw, code, name, shell, out, deny);
    if (shell) return runNested(all, raw, code, `${name} -c`, out, true);
    out.problems.push(`${name} runs ${name} code the guard cannot read: ${show(code.value)}`);
    return false;
  }
  return source.kind === 'stdin' ? codeFromInput(all, raw, name, shell, out, deny) : false;
}

/** `bash x.sh`, `source x.sh`, `bash <(…)`, `. /dev/stdin <<< …`. */
function scriptFile(
  all: CommandCollector,
  raw: RawCommand,
  file: Arg,
  name: string,
  shell: boolean,
  out: CodeFindings,
  deny: (d: Deny) => void,
): boolean {
  if (substitutionsFetch(all.commands, file.subs) || isDownloaded(all.commands, file.value)) {
    deny(FETCH_EXEC);
    return false;
  }
  if (STDIN_FILES.test(file.value)) return codeFromInput(all, raw, name, shell, out, deny);
  if (isDynamic(file.value)) {
    const what = file.subs.length > 0 ? 'the output of a command' : 'a file only known at run time';
    out.problems.push(`${name} runs code from ${what} (${show(file.value)}), which the guard cannot read.`);
    return false;
  }
  out.notes.push(
    name === 'source' || name === '.'
      ? `runs ${show(file.value)} in the current shell`
      : `runs the script ${show(file.value)}`,
  );
  return false;
}

/** Code a shell or interpreter reads from its input: a literal here-doc or `echo '…' |` is judged. */
function codeFromInput(
  all: CommandCollector,
  raw: RawCommand,
  name: string,
  shell: boolean,
  out: CodeFindings,
  deny: (d: Deny) => void,
): boolean {
  const commands = all.commands;
  const pipe = readsPipe(raw);
  if (
    substitutionsFetch(commands, stdinSubstitutions(raw)) ||
    (pipe && upstream(commands, pipe).some(isFetch))
  ) {
    deny(FETCH_EXEC);
    return false;
  }
  const fileInput = raw.redirects.find(
    (r) => r.op === '<' && r.target.subs.length === 0 && !isDynamic(r.target.value),
  );
  if (fileInput && !raw.stdin) {
    out.notes.push(`runs the script ${show(fileInput.target.value)}`);
    return false;
  }
  const literal =
    raw.stdin && !raw.stdin.dynamic
      ? raw.stdin.text
      : pipe
        ? literalOutput(upstream(commands, pipe, true))
        : undefined;
  const fed = raw.stdin || pipe || raw.redirects.some((r) => r.op === '<' || r.op === '<>');
  if (!fed) {
    out.notes.push('runs a script from its input, which the guard cannot see');
    return false;
  }
  if (shell && literal !== undefined) {
    out.notes.push(
      pipe && !raw.stdin ? 'pipes into a shell' : `runs a ${raw.stdin?.kind ?? 'pipe'} as shell code`,
    );
    return runNested(all, raw, { value: literal, subs: [] }, `${name} reading its input`, out, false);
  }
  const what = literal !== undefined ? `: ${show(literal)}` : ' from its input';
  out.problems.push(`${name} runs code the guard cannot read${what}`);
  return false;
}

/** Parses shell code a command runs (`bash -c '…'`) and queues its commands; false when it cannot. */
export function runNested(
  all: CommandCollector,
  raw: RawCommand,
  code: Arg,
  via: string,
  out: CodeFindings,
  keepInput: boolean,
): boolean {
  if (isDynamic(code.value)) {
    out.problems.push(`The shell code run by ${via} is only known at run time.`);
    return false;
  }
  out.notes.push(`runs a nested shell command (${via})`);
  const { pipes, background, functions, redirects } = raw;
  // Code read from the input must not read that same input again, or `echo sh | sh` would loop.
  // It runs in a new shell: a `cd` inside it does not move the rest of the line.
  const shell = [...raw.shell, all.newShellId()];
  all.collectSource(code.value, {
    pipes: keepInput ? pipes : [],
    background,
    functions,
    redirects,
    depth: raw.depth + 1,
    shell,
  });
  return true;
}
