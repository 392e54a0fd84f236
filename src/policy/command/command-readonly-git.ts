import { isLong } from './command-gnu-options';
import { gitSubcommand } from './command-programs';

// Which git commands only read — even in a repository whose config was written by a stranger.
// A repository's config can make git run programs: `core.fsmonitor` (status, diff, ls-files,
// grep, blame, check-ignore, check-attr, describe --dirty), textconv and `diff.external` (diff,
// log -p, show, blame), clean filters (status, diff), `log.showSignature` + `gpg.program` (log,
// show), hooks such as post-index-change (status). Measured with git 2.39 against a hostile
// config (see test/policy/command/command-corpus/); only the commands that ran nothing are
// read-only here. The rest are judged "not read-only" so they ask, unless the command line
// itself turns those programs off — which no command line can do for filters and textconv.

const SAFE: Record<string, (rest: readonly string[]) => boolean> = {
  'rev-parse': () => true,
  'ls-tree': () => true,
  'cat-file': (rest) => !rest.some((a) => isLong(a, 'textconv', 2) || isLong(a, 'filters', 2)),
  'merge-base': () => true,
  'name-rev': () => true,
  'count-objects': () => true,
  'show-ref': () => true,
  'for-each-ref': () => true,
  'rev-list': () => true,
  'show-branch': () => true,
  var: () => true,
  version: () => true,
  shortlog: () => true,
  whatchanged: (rest) =>
    !rest.some((a) => /^(-p|-u|--patch|--cc|-c)$/.test(a) || isLong(a, 'patch-with-stat', 7)),
  describe: (rest) => !rest.some((a) => isLong(a, 'dirty', 2) || isLong(a, 'broken', 2)),
  reflog: (rest) => rest.length === 0 || rest[0] === 'show' || rest[0]?.startsWith('-') === true,
  'ls-remote': () => false,
  branch: (rest) => rest.every((a) => BRANCH_LISTING.has(a)),
  tag: (rest) =>
    (rest.length === 0 || rest[0] === '-l' || rest[0] === '--list') &&
    !rest.some((a) => a === '-v' || isLong(a, 'verify', 2)),
  remote: (rest) => rest.length === 0 || (rest.length === 1 && rest[0] === '-v') || rest[0] === 'get-url',
  stash: (rest) => rest.length === 1 && rest[0] === 'list',
  worktree: (rest) => rest[0] === 'list',
  config: (rest) => rest.length > 0 && /^(--get|--get-all|--get-regexp|--list|-l)$/.test(rest[0] as string),
};

const BRANCH_LISTING: ReadonlySet<string> = new Set([
  '-a',
  '-r',
  '-v',
  '-vv',
  '--all',
  '--remotes',
  '--verbose',
  '--list',
  '-l',
  '--show-current',
  '--no-color',
]);

/**
 * Options that make even a safe subcommand run or write something: signature checks run
 * `gpg.program`, `--output` writes a file, `--ext-diff` / `--textconv` run configured programs,
 * `-O` / `--open-files-in-pager` opens a pager. Matched by any prefix git would accept.
 */
function runsOrWrites(word: string): boolean {
  if (/%G/.test(word)) return true;
  if (word === '-O' || /^-O./.test(word)) return true;
  return ['output', 'ext-diff', 'textconv', 'show-signature', 'open-files-in-pager', 'paginate', 'exec'].some(
    (o) => isLong(word, o, 3),
  );
}

/**
 * True when this git command line only reads and cannot be made to run a program by the
 * repository's config. Global options other than `-C`, `--no-pager` and `--no-optional-locks`
 * (e.g. `-c core.pager=…`, `--exec-path`) make it not read-only.
 * Contract: pure.
 */
export function gitReadOnly(argv: readonly string[]): boolean {
  if (argv.length === 2 && /^(--version|-v)$/.test(argv[1] as string)) return true;
  const { sub, rest, plain } = gitSubcommand(argv);
  if (!plain) return false;
  if (rest.some(runsOrWrites)) return false;
  return SAFE[sub]?.(rest) ?? false;
}

/**
 * The git commands that read and run nothing of their own, but that a repository's config can make
 * run a program (fsmonitor, textconv, an external diff, clean filters, signature checks). The gate
 * runs them read-only only after reading that config (src/policy/git-repo-config.ts) and with
 * fsmonitor off and no optional locks in the run's environment (src/tools/exec/git-run-env.ts).
 * `-C` points git at another repository, whose config the gate does not read.
 */
const REPO_READS: ReadonlySet<string> = new Set(['status', 'diff', 'log', 'show']);

/** True when `argv` is `git status|diff|log|show` with nothing that runs or writes by itself. Pure. */
export function gitReadsIfRepoClean(argv: readonly string[]): boolean {
  const { sub, rest, plain } = gitSubcommand(argv);
  if (!plain || argv.some((a) => a === '-C' || a.startsWith('-C'))) return false;
  if (!REPO_READS.has(sub) || rest.some(runsOrWrites)) return false;
  // --no-index compares any two paths, `status --ignored=matching` and the like read nothing more.
  return !rest.some((a) => isLong(a, 'no-index', 4) || isLong(a, 'find-copies-harder', 6));
}
