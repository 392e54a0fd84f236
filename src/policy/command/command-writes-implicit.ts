import { posix } from 'node:path';
import { isLong, longValue, shortValue } from './command-gnu-options';
import { firstOperand, gitSubcommand, programName } from './command-programs';

// Writes a program makes without naming them: git writes its repository, package managers write
// the manifest, the lock file and node_modules.

/** git subcommands that never write the repository (some refresh the index, which the sandbox refuses harmlessly). */
const GIT_NO_WRITE: ReadonlySet<string> = new Set([
  'status',
  'log',
  'diff',
  'show',
  'rev-parse',
  'ls-files',
  'blame',
  'describe',
  'shortlog',
  'ls-tree',
  'cat-file',
  'grep',
  'merge-base',
  'name-rev',
  'count-objects',
  'version',
  'whatchanged',
  'show-ref',
  'for-each-ref',
  'rev-list',
  'check-ignore',
  'check-attr',
  'annotate',
  'show-branch',
  'var',
  'help',
  'ls-remote',
  'diff-tree',
  'diff-files',
  'diff-index',
  'verify-commit',
  'verify-tag',
  'check-ref-format',
  'range-diff',
  'cherry',
  'fsck',
  '',
]);

const LISTING: Record<string, (rest: readonly string[]) => boolean> = {
  branch: (rest) =>
    rest.every(
      (a) =>
        /^(-a|-r|-v|-vv|--all|--remotes|--verbose|--list|-l|--show-current|--no-color|--color|--contains|--merged|--no-merged)$/.test(
          a,
        ) || !a.startsWith('-'),
    ) &&
    (rest.length === 0 ||
      rest.some((a) => /^(-a|-r|-v|-vv|--all|--remotes|--verbose|--list|-l|--show-current)$/.test(a))),
  tag: (rest) => rest.length === 0 || rest[0] === '-l' || rest[0] === '--list',
  remote: (rest) => rest.length === 0 || rest[0] === '-v' || rest[0] === 'get-url' || rest[0] === 'show',
  stash: (rest) => rest[0] === 'list' || rest[0] === 'show',
  worktree: (rest) => rest[0] === 'list',
  reflog: (rest) => rest.length === 0 || rest[0] === 'show',
  config: (rest) => rest.some((a) => /^(--get|--get-all|--get-regexp|--list|-l|--get-urlmatch)$/.test(a)),
  notes: (rest) => rest.length === 0 || rest[0] === 'list' || rest[0] === 'show',
  submodule: (rest) => rest.length === 0 || rest[0] === 'status',
};

function gitWrites(argv: readonly string[]): string[] {
  const { sub, rest } = gitSubcommand(argv);
  let base = '';
  let gitDir: string | undefined;
  for (let i = 1; i < argv.length && argv[i] !== sub; i++) {
    const a = argv[i] as string;
    if (a === '-C' && argv[i + 1] !== undefined) base = posix.join(base, argv[++i] as string);
    else if (a === '--git-dir' && argv[i + 1] !== undefined) gitDir = argv[++i];
    else if (a.startsWith('--git-dir=')) gitDir = a.slice('--git-dir='.length);
  }
  const inBase = (p: string): string => (p.startsWith('/') || base === '' ? p : posix.join(base, p));
  const out: string[] = [];
  const output = rest.find((a) => isLong(a, 'output', 3)) ? longValue([sub, ...rest], 'output') : undefined;
  if (output !== undefined) out.push(inBase(output));
  if (sub === 'format-patch')
    out.push(inBase(shortValue([sub, ...rest], 'o') ?? longValue([sub, ...rest], 'output-directory') ?? '.'));
  if (sub === 'clone') {
    const ops = rest.filter((a) => !a.startsWith('-'));
    const dir = ops[1] ?? posix.basename(ops[0] ?? '').replace(/\.git$/, '');
    if (dir) out.push(inBase(dir));
    return out;
  }
  if (sub === 'init') return [...out, inBase(posix.join(initDirectory(rest) ?? '.', '.git'))];
  if (GIT_NO_WRITE.has(sub) || LISTING[sub]?.(rest)) return out;
  return [...out, gitDir === undefined ? inBase('.git') : inBase(gitDir)];
}

/** `git init` options that take the next word as their value (`-b main` names a branch, not the folder). */
const INIT_VALUE_OPTIONS: ReadonlySet<string> = new Set([
  '-b',
  '--initial-branch',
  '--template',
  '--separate-git-dir',
  '--object-format',
  '--ref-format',
]);

/** The folder `git init` makes its repository in: its first operand, option values skipped. */
function initDirectory(rest: readonly string[]): string | undefined {
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i] as string;
    if (a === '--') return rest[i + 1];
    if (INIT_VALUE_OPTIONS.has(a)) i++;
    else if (!a.startsWith('-')) return a;
  }
  return undefined;
}

type Manager = { subs: RegExp; lock: string[]; manifestOnly?: RegExp };
const MANAGERS: Record<string, Manager> = {
  npm: {
    subs: /^(install|i|in|ins|inst|insta|instal|isnt|isntall|add|uninstall|un|unlink|remove|rm|r|update|up|upgrade|udpate|dedupe|ddp|prune|link|ln|audit|version|init|create|ci|clean-install|install-test|it)$/,
    lock: ['package-lock.json'],
    manifestOnly: /^(pkg|set-script)$/,
  },
  pnpm: {
    subs: /^(install|i|add|remove|rm|uninstall|un|update|up|upgrade|prune|dedupe|link|ln|import|init|version)$/,
    lock: ['pnpm-lock.yaml'],
  },
  yarn: { subs: /^(install|add|remove|upgrade|up|dedupe|link|import|init|version|)$/, lock: ['yarn.lock'] },
  bun: { subs: /^(install|i|add|a|remove|rm|update|link|init|pm)$/, lock: ['bun.lockb', 'bun.lock'] },
};

function packageWrites(name: string, argv: readonly string[]): string[] {
  const manager = MANAGERS[name];
  if (!manager) return [];
  const sub = subcommand(argv);
  const dir =
    longValue(argv, 'prefix') ??
    longValue(argv, 'dir') ??
    longValue(argv, 'cwd') ??
    (name === 'pnpm' ? shortValue(argv, 'C') : undefined) ??
    '';
  const inDir = (p: string): string => (dir ? posix.join(dir, p) : p);
  if (manager.manifestOnly?.test(sub)) {
    const verb = firstOperand(argv, argv.indexOf(sub) + 1);
    return verb === 'get' ? [] : [inDir('package.json')];
  }
  if (sub === 'audit' && !argv.includes('fix')) return [];
  if (!manager.subs.test(sub)) return [];
  const files = ['package.json', ...manager.lock, 'node_modules'];
  if (sub === 'version') files.push('.git');
  return files.map(inDir);
}

/** The first operand, skipping the values of options that take one (`npm --prefix web install`). */
function subcommand(argv: readonly string[]): string {
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] as string;
    if (/^(--prefix|--dir|--cwd|-C|--filter|-F|-w|--workspace)$/.test(a)) i++;
    else if (!a.startsWith('-')) return a;
  }
  return '';
}

/**
 * Paths a modelled program writes without naming them: `git commit` → `.git`, `npm install` →
 * `package.json`, the lock file and `node_modules`, `git diff --output=x` → `x`.
 * Contract: pure; relative to the part's cwd; [] for programs it does not model.
 */
export function implicitWrites(argv: readonly string[]): string[] {
  const name = programName(argv[0]);
  if (name === 'git') return gitWrites(argv);
  return packageWrites(name, argv);
}
