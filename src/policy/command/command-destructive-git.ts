import { isLong } from './command-gnu-options';
import { gitSubcommand } from './command-programs';

// git's data-loss forms. Long options match by any prefix git's parse-options accepts
// (`--hard` as `--ha`, `--force` as `--forc`), short ones inside clusters (`-fd`).

const long = (rest: readonly string[], full: string, min = 2): boolean =>
  rest.some((a) => isLong(a, full, min));
const short = (rest: readonly string[], letter: string): boolean =>
  rest.some((a) => new RegExp(`^-[A-Za-z]*${letter}[A-Za-z]*$`).test(a));

function checkout(rest: readonly string[]): string | undefined {
  if (
    short(rest, 'f') ||
    long(rest, 'force', 3) ||
    long(rest, 'ours', 3) ||
    long(rest, 'theirs', 3) ||
    long(rest, 'pathspec-from-file', 3)
  ) {
    return 'overwrites uncommitted changes (git checkout --force / paths)';
  }
  if (rest.includes('--') || short(rest, 'p') || long(rest, 'patch', 3))
    return 'discards uncommitted changes to the named paths (git checkout -- path)';
  const operands = rest.filter((a) => !a.startsWith('-') || a === '-');
  const creates = rest.some((a) => /^-[bB]$|^--orphan$|^--detach$/.test(a));
  // `git checkout <rev> <path>` restores paths; a single word may be a branch or a path, and git
  // takes it as a path when no branch has that name.
  if (operands.length >= (creates ? 3 : 2))
    return 'overwrites files with their content from another revision (git checkout <rev> <path>)';
  if (operands.length === 1 && !creates && operands[0] !== '-') {
    return `discards uncommitted changes if ${operands[0]} names a path and not a branch (git checkout; git switch only switches)`;
  }
  return undefined;
}

/**
 * Why a git command destroys work or history, or undefined.
 * `git clean` without `-n` counts even without `-f`: a repository (or `-c`) may set
 * `clean.requireForce=false`.
 * Contract: pure.
 */
export function gitDestructive(argv: readonly string[]): string | undefined {
  const { sub, rest } = gitSubcommand(argv);
  switch (sub) {
    case 'push':
      if (
        long(rest, 'force', 3) ||
        long(rest, 'force-with-lease', 7) ||
        long(rest, 'force-if-includes', 7) ||
        short(rest, 'f')
      ) {
        return 'force-pushes, rewriting remote history (git push --force)';
      }
      if (
        short(rest, 'd') ||
        long(rest, 'delete', 3) ||
        long(rest, 'mirror', 2) ||
        long(rest, 'prune', 3) ||
        rest.some((a) => /^\+|^:/.test(a))
      ) {
        return 'deletes or overwrites remote refs (git push)';
      }
      return undefined;
    case 'reset':
      return long(rest, 'hard', 2) || long(rest, 'merge', 2)
        ? 'discards uncommitted changes (git reset --hard)'
        : undefined;
    case 'clean':
      return short(rest, 'n') || long(rest, 'dry-run', 2) ? undefined : 'deletes untracked files (git clean)';
    case 'checkout':
      return checkout(rest);
    case 'switch':
      return short(rest, 'f') || long(rest, 'force', 2) || long(rest, 'discard-changes', 2)
        ? 'discards uncommitted changes (git switch --discard-changes)'
        : undefined;
    case 'restore':
      // `git restore --staged x` only unstages; anything touching the worktree discards edits.
      return (long(rest, 'staged', 2) || short(rest, 'S')) && !long(rest, 'worktree', 2) && !short(rest, 'W')
        ? undefined
        : 'discards uncommitted changes (git restore)';
    case 'read-tree':
      return (long(rest, 'reset', 2) || short(rest, 'm')) && short(rest, 'u')
        ? 'overwrites the working tree (git read-tree -u)'
        : undefined;
    case 'checkout-index':
      return short(rest, 'f') || long(rest, 'force', 2)
        ? 'overwrites working files from the index (git checkout-index -f)'
        : undefined;
    case 'branch':
      return short(rest, 'D') ||
        short(rest, 'M') ||
        short(rest, 'C') ||
        long(rest, 'delete', 3) ||
        (short(rest, 'd') && (short(rest, 'f') || long(rest, 'force', 2))) ||
        ((short(rest, 'f') || long(rest, 'force', 2)) && rest.some((a) => !a.startsWith('-')))
        ? 'deletes or overwrites a branch (git branch -D / -f)'
        : undefined;
    case 'stash':
      return rest[0] === 'drop' || rest[0] === 'clear'
        ? `drops stashed changes (git stash ${rest[0]})`
        : undefined;
    case 'rm':
      return rest.includes('--cached') ? undefined : 'deletes files (git rm)';
    case 'update-ref':
      return short(rest, 'd') ? 'deletes a ref (git update-ref -d)' : undefined;
    case 'reflog':
      return rest[0] === 'expire' || rest[0] === 'delete'
        ? `drops reflog entries (git reflog ${rest[0]})`
        : undefined;
    case 'worktree':
      return rest[0] === 'remove' || rest[0] === 'prune'
        ? `removes a worktree (git worktree ${rest[0]})`
        : undefined;
    case 'filter-branch':
    case 'filter-repo':
      return `rewrites repository history (git ${sub})`;
    default:
      return undefined;
  }
}
