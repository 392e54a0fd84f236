import { arithmeticTargets, isLiteralArithmetic, isPlainVariableName } from './command-arith';
import { operands, shortValue } from './command-gnu-options';
import { programName } from './command-programs';
import { isDynamic } from './command-words';

// Builtins and environment variables that make bash (or the programs it starts) run code the
// words of the command do not show. Each check returns one sentence for the approval card.

/**
 * Environment variables that make a shell or a program run code or another program:
 * `BASH_ENV=./x.sh bash -c ls` sources x.sh first, `PS4='$(…)'` runs under `set -x`.
 */
const CODE_ENV =
  /^(BASH_ENV|ENV|PROMPT_COMMAND|PS[0-4]|SHELLOPTS|BASHOPTS|BASH_FUNC_.*|LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_.*|NODE_OPTIONS|PYTHONSTARTUP|PYTHONPATH|PYTHONHOME|PERL5OPT|PERL5LIB|PERLLIB|RUBYOPT|RUBYLIB|GIT_.*|PAGER|MANPAGER|EDITOR|VISUAL|LESSOPEN|LESSCLOSE|PATH|CDPATH|GLOBIGNORE|GCONV_PATH|SSH_ASKPASS|SUDO_ASKPASS|MAKEFLAGS|CC|CXX)$/;

/** Why setting these variables hides code, or undefined. */
export function hiddenEnvironment(names: readonly string[]): string | undefined {
  // `PATH[0]=x` assigns $PATH itself (element 0 of a scalar is the scalar).
  const bad = names.map((n) => n.replace(/\[[\s\S]*$/, '')).find((n) => CODE_ENV.test(n));
  return bad
    ? `Setting ${bad} changes what programs run or which code they load, which the guard cannot see.`
    : undefined;
}

type Check = (argv: readonly string[]) => string | undefined;

const arith = (what: string): string =>
  `${what} evaluates its words as arithmetic, and bash runs any $(…) hidden in a variable's value.`;
const subscript = (name: string, word: string): string =>
  `${name} assigns to ${word}; bash evaluates that subscript as arithmetic, which can run hidden code.`;

/** A word names a variable to assign (`read x`, `printf -v x`): a subscript in it is arithmetic. */
const badName = (name: string, words: readonly string[]): string | undefined => {
  const word = words.find((w) => isDynamic(w) || !isPlainVariableName(w.split('=')[0] as string));
  return word === undefined ? undefined : subscript(name, word);
};

const letters = (argv: readonly string[]): string =>
  argv
    .slice(1)
    .filter((a) => /^[-+][A-Za-z]+$/.test(a))
    .map((a) => a.slice(1))
    .join('');

const BUILTINS: Record<string, Check> = {
  let: (argv) =>
    argv.slice(1).every((a) => !isDynamic(a) && isLiteralArithmetic(a))
      ? hiddenEnvironment(argv.slice(1).flatMap(arithmeticTargets))
      : arith('let'),
  declare: declarer,
  typeset: declarer,
  local: declarer,
  export: declarer,
  readonly: declarer,
  // Builtins that assign the variables they name: `read PATH`, `printf -v PATH x`, `mapfile PATH`
  // change which programs run next exactly like `PATH=x` does, so they are judged like it.
  printf: (argv) => {
    const name = shortValue(argv, 'v');
    return name === undefined ? undefined : assigns('printf -v', [name]);
  },
  read: (argv) => {
    const array = shortValue(argv, 'a', 'dinNptu');
    return assigns('read', [...operands(argv, 'adinNptu'), ...(array === undefined ? [] : [array])]);
  },
  wait: (argv) => {
    const name = shortValue(argv, 'p');
    return name === undefined ? undefined : assigns('wait -p', [name]);
  },
  getopts: (argv) => assigns('getopts', operands(argv).slice(1, 2)),
  // With PATH unset bash searches the working directory: `unset PATH; cat a` runs ./cat.
  unset: (argv) => assigns('unset', operands(argv)),
  test: (argv) => testV(argv),
  '[': (argv) => testV(argv),
  mapfile: arrayBuiltin('mapfile'),
  readarray: arrayBuiltin('readarray'),
  compgen: completion('compgen'),
  complete: completion('complete'),
  trap: (argv) =>
    trapCode(argv) === undefined
      ? undefined
      : 'trap runs its code later, on a signal or when the shell exits, where the guard cannot follow it.',
  enable: (argv) =>
    letters(argv).includes('f') ? 'enable -f loads a shared library into bash as a builtin.' : undefined,
  hash: (argv) =>
    letters(argv).includes('p') ? 'hash -p makes a command name run another program.' : undefined,
};

function declarer(argv: readonly string[]): string | undefined {
  const name = programName(argv[0]);
  const flags = letters(argv);
  if (flags.includes('n'))
    return `${name} -n makes a name refer to another variable, which can hide a subscript that runs code.`;
  if (flags.includes('i')) return arith(`${name} -i`);
  const words = argv.slice(1).filter((a) => !/^[-+][A-Za-z]+$/.test(a));
  return hiddenEnvironment(words.map((w) => w.split('=')[0] as string)) ?? badName(name, words);
}

function testV(argv: readonly string[]): string | undefined {
  const names = argv.flatMap((a, i) =>
    a === '-v' && argv[i + 1] !== undefined ? [argv[i + 1] as string] : [],
  );
  return names.length > 0 ? badName(`${programName(argv[0])} -v`, names) : undefined;
}

/** A builtin assigning the variables `words` name: a subscript runs code, a code-loading name hides it. */
const assigns = (name: string, words: readonly string[]): string | undefined =>
  badName(name, words) ?? hiddenEnvironment(words);

function arrayBuiltin(name: string): Check {
  return (argv) =>
    letters(argv).includes('C')
      ? `${name} -C runs a callback command for each line it reads.`
      : assigns(name, operands(argv, 'dnOsuCc').slice(-1));
}

function completion(name: string): Check {
  return (argv) => {
    const f = letters(argv);
    if (f.includes('C') || f.includes('F'))
      return `${name} -C / -F names a command or function that runs on completion.`;
    if (name === 'compgen' && f.includes('W'))
      return 'compgen -W expands its word list, running any $(…) inside it.';
    return undefined;
  };
}

/**
 * Why this builtin, with these words, may run code the guard cannot see; undefined when it cannot.
 * Contract: pure; judged on the unwrapped words (`builtin let …` is `let …`).
 */
export function hiddenBuiltin(argv: readonly string[]): string | undefined {
  return BUILTINS[programName(argv[0])]?.(argv);
}

/** The code `trap CODE SIGNAL…` installs; undefined when it lists, resets (`-`) or ignores (`''`). */
export function trapCode(argv: readonly string[]): string | undefined {
  const words = argv.slice(1);
  if (words[0] === '--') words.shift();
  const code = words[0];
  if (words.length < 2 || code === undefined || code === '' || code.startsWith('-')) return undefined;
  return code;
}
