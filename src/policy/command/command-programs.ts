/** The program a word names: `/usr/bin/rm` and `./rm` are both `rm` (a guard should not trust paths). */
export function programName(word: string | undefined): string {
  if (!word) return '';
  return word.slice(word.lastIndexOf('/') + 1);
}

/** Programs that fetch from the network and can print what they fetch. */
export const FETCHERS: ReadonlySet<string> = new Set([
  'curl',
  'wget',
  'wget2',
  'fetch',
  'aria2c',
  'http',
  'https',
  'xh',
  'xhs',
  'curlie',
  'lwp-request',
  'GET',
  'nc',
  'ncat',
  'netcat',
  'socat',
  'telnet',
]);

export const SHELLS: ReadonlySet<string> = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'mksh',
  'ash',
  'fish',
  'csh',
  'tcsh',
  'yash',
  'posh',
  'rbash',
]);

/** How an interpreter takes its code: letters that carry inline code, and options that take a value. */
type InterpreterSpec = {
  inline: string;
  module?: string;
  withArg: string;
  longInline?: readonly string[];
  longWithArg?: readonly string[];
};

const SHELL_SPEC: InterpreterSpec = { inline: 'c', withArg: 'oO', longWithArg: ['rcfile', 'init-file'] };
const INTERPRETERS: Record<string, InterpreterSpec> = {
  python: { inline: 'c', module: 'm', withArg: 'WXQ' },
  node: {
    inline: 'ep',
    withArg: 'r',
    longInline: ['eval', 'print'],
    longWithArg: [
      'require',
      'import',
      'loader',
      'experimental-loader',
      'input-type',
      'env-file',
      'conditions',
      'title',
    ],
  },
  // perl's -i, -x, -C, -d take only an attached value; -I, -M, -m attach theirs too.
  perl: { inline: 'eE', withArg: '' },
  ruby: { inline: 'e', withArg: 'rIECxF' },
  php: { inline: 'rBRE', module: 'f', withArg: 'cdz' },
  lua: { inline: 'e', withArg: 'l' },
  generic: { inline: 'ec', withArg: '' },
};

/** The interpreter family of a program name, or undefined when it does not run code it is given. */
export function interpreterOf(name: string): { kind: 'shell' | 'other'; spec: InterpreterSpec } | undefined {
  if (SHELLS.has(name)) return { kind: 'shell', spec: SHELL_SPEC };
  if (/^(python|pypy)[0-9.]*$/.test(name))
    return { kind: 'other', spec: INTERPRETERS.python as InterpreterSpec };
  if (name === 'node' || name === 'nodejs')
    return { kind: 'other', spec: INTERPRETERS.node as InterpreterSpec };
  if (/^perl[0-9.]*$/.test(name)) return { kind: 'other', spec: INTERPRETERS.perl as InterpreterSpec };
  if (/^ruby[0-9.]*$/.test(name) || name === 'irb')
    return { kind: 'other', spec: INTERPRETERS.ruby as InterpreterSpec };
  if (/^php[0-9.]*$/.test(name)) return { kind: 'other', spec: INTERPRETERS.php as InterpreterSpec };
  if (/^lua(jit|[0-9.]*)$/.test(name)) return { kind: 'other', spec: INTERPRETERS.lua as InterpreterSpec };
  if (
    [
      'deno',
      'bun',
      'Rscript',
      'pwsh',
      'powershell',
      'osascript',
      'tclsh',
      'wish',
      'guile',
      'racket',
      'expect',
    ].includes(name)
  ) {
    return { kind: 'other', spec: INTERPRETERS.generic as InterpreterSpec };
  }
  return undefined;
}

/**
 * Where an interpreter's code comes from: standard input, an argument (inline code or a script
 * file), or nowhere. Only meaningful for programs `interpreterOf` knows.
 */
export type CodeSource =
  | { kind: 'stdin' }
  | { kind: 'arg'; index: number; inline: boolean }
  | { kind: 'none' };

/** Reads an interpreter's options the way it would, to find where its code comes from. */
export function codeSource(argv: readonly string[]): CodeSource {
  const found = interpreterOf(programName(argv[0]));
  if (!found) return { kind: 'none' };
  const { spec } = found;
  const shell = found.kind === 'shell';
  let shellInline = false;
  let shellStdin = false;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '-' && !shell) return { kind: 'stdin' };
    if (a === '--' || a === '-') {
      i++;
      return restSource(argv, i, shell, shellInline, shellStdin);
    }
    if (a.startsWith('--')) {
      const [name = '', value] = a.slice(2).split('=', 2);
      if (spec.longInline?.includes(name))
        return { kind: 'arg', index: value === undefined ? i + 1 : i, inline: true };
      if (spec.longWithArg?.includes(name) && value === undefined) i++;
      continue;
    }
    if (a.startsWith('-') || (shell && a.startsWith('+'))) {
      for (let k = 1; k < a.length; k++) {
        const letter = a[k] as string;
        const attached = k + 1 < a.length;
        if (spec.inline.includes(letter)) {
          if (shell) shellInline = true;
          else return { kind: 'arg', index: attached ? i : i + 1, inline: true };
        } else if (spec.module?.includes(letter)) {
          return { kind: 'arg', index: attached ? i : i + 1, inline: false };
        } else if (spec.withArg.includes(letter)) {
          if (!attached) i++;
          break;
        } else if (shell && letter === 's') shellStdin = true;
      }
      continue;
    }
    return restSource(argv, i, shell, shellInline, shellStdin);
  }
  return shellInline ? { kind: 'none' } : { kind: 'stdin' };
}

function restSource(
  argv: readonly string[],
  i: number,
  shell: boolean,
  inline: boolean,
  stdin: boolean,
): CodeSource {
  if (shell && inline) return i < argv.length ? { kind: 'arg', index: i, inline: true } : { kind: 'none' };
  if (stdin || i >= argv.length) return { kind: 'stdin' };
  return { kind: 'arg', index: i, inline: false };
}

/** Git's global options that take a value in the next word. */
const GIT_GLOBAL_WITH_ARG = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--exec-path',
  '--config-env',
]);

/**
 * Splits `git [global options] <subcommand> [args]`. `plain` is false when a global option could
 * change what git runs (`-c core.pager=…`, `--exec-path`), so the call cannot count as read-only.
 */
export function gitSubcommand(argv: readonly string[]): { sub: string; rest: string[]; plain: boolean } {
  let plain = true;
  let i = 1;
  for (; i < argv.length; i++) {
    const a = argv[i] as string;
    if (!a.startsWith('-')) break;
    const name = a.split('=')[0] as string;
    if (name !== '-C' && name !== '--no-pager' && name !== '-P' && name !== '--no-optional-locks')
      plain = false;
    if (GIT_GLOBAL_WITH_ARG.has(a)) i++;
  }
  return { sub: argv[i] ?? '', rest: argv.slice(i + 1), plain };
}

/** The first word that is not an option, after `from`: the subcommand of npm, docker, kubectl… */
export function firstOperand(argv: readonly string[], from = 1): string | undefined {
  return argv.slice(from).find((a) => !a.startsWith('-'));
}

/** Directories whose programs are the system's own; `./cat` or `bin/ls` is whatever that file is. */
const SYSTEM_DIRS = /^\/(usr\/(local\/)?)?s?bin\/[^/]+$/;

/** True when a command word runs the program of that name from PATH or a system directory. */
export function isSystemProgram(word: string | undefined): boolean {
  return word !== undefined && (!word.includes('/') || SYSTEM_DIRS.test(word));
}
